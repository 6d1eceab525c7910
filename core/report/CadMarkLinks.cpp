// Broken and repaired links of report findings to CAD marks.
#include "core/report/CadMarkLinks.h"

#include <algorithm>
#include <cmath>

#include "core/report/MammographyDraft.h"

namespace delineate::core::report {

namespace {

bool markIsThere(const MammoFinding& f, const mammo::StudyFindings& findings,
                 const ImageIdMap& canonical) {
  const auto name = [&](const std::string& id) { return canonical ? canonical(id) : id; };
  const std::string linked = name(f.link.imageId);
  const auto image =
      std::find_if(findings.images.begin(), findings.images.end(),
                   [&](const mammo::ImageFindings& i) { return name(i.imageId) == linked; });
  if (image == findings.images.end() || f.link.markIndex < 0 ||
      std::size_t(f.link.markIndex) >= image->marks.size()) {
    return false;
  }
  const mammo::FindingMark& mark = image->marks[std::size_t(f.link.markIndex)];
  if (f.kind.aiValue() && findingKindOf(mark.kind) != *f.kind.aiValue()) {
    return false;
  }
  return !f.aiScore || std::abs(*f.aiScore - mark.score) < 1e-9;
}

}  // namespace

std::vector<AuditEntry> updateMarkLinks(MammographyReport& report,
                                        const mammo::StudyFindings& findings,
                                        const std::string& user, const std::string& time,
                                        const ImageIdMap& canonical) {
  if (report.locked()) {
    return {};
  }
  MammographyContent content = report.content();
  bool changed = false;
  for (MammoFinding& f : content.findings) {
    if (f.link.kind != ReportLink::Kind::CadMark) {
      continue;
    }
    const bool broken = !markIsThere(f, findings, canonical);
    changed |= broken != f.link.broken;
    f.link.broken = broken;
  }
  if (!changed) {
    return {};
  }
  const FieldListing before = listFields(report.content());
  report = MammographyReport::restore(report.subject(), std::move(content), report.aiDraft(),
                                      report.aiOrigin(), report.readFirst(), report.signOff());
  return changesBetween(before, listFields(report.content()), user, time);
}

}  // namespace delineate::core::report
