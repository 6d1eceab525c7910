// Mammography report JSON: write and read (errors name the file and line).
#include "core/report/MammographyReportJson.h"

#include <set>

#include "core/report/ReportJsonReader.h"
#include "core/report/ReportJsonWriter.h"

namespace delineate::core::report {

using nlohmann::json;

namespace {

constexpr const char* kFormat = "delineate-report-mammography";

json contentToJson(const MammographyContent& c) {
  json out = {{"composition", fieldToJson(c.composition)},
              {"assessment",
               {{"right", fieldToJson(c.assessmentRight)},
                {"left", fieldToJson(c.assessmentLeft)},
                {"overall", fieldToJson(c.assessmentOverall)}}},
              {"management", fieldToJson(c.management)},
              {"impression", fieldToJson(c.impression)},
              {"findings", json::array()}};
  for (const MammoFinding& x : c.findings) {
    json f = {{"id", x.id}, {"view", mammo::toString(x.view)}, {"link", linkToJson(x.link)}};
    if (x.aiScore) {
      f["aiScore"] = *x.aiScore;
    }
    if (x.otherViewFinding != 0) {
      f["otherViewFinding"] = x.otherViewFinding;
    }
    eachFindingField(x, [&](const char* key, const auto& field) { f[key] = fieldToJson(field); });
    out["findings"].push_back(std::move(f));
  }
  return out;
}

MammographyContent readContent(const ReportJsonReader& r, const json& root, const char* key) {
  const std::string p = std::string("/") + key;
  const json& j = r.object(root, "", key);
  MammographyContent c;
  c.composition = r.field<BreastComposition>(j, p, "composition");
  if (r.member(j, p, "assessment", false)) {
    const json& a = r.object(j, p, "assessment");
    c.assessmentRight = r.field<AssessmentCategory>(a, p + "/assessment", "right");
    c.assessmentLeft = r.field<AssessmentCategory>(a, p + "/assessment", "left");
    c.assessmentOverall = r.field<AssessmentCategory>(a, p + "/assessment", "overall");
  }
  c.management = r.field<std::string>(j, p, "management");
  c.impression = r.field<std::string>(j, p, "impression");
  const json* findings = r.member(j, p, "findings", false);
  if (findings == nullptr) {
    return c;
  }
  if (!findings->is_array()) {
    r.fail(p + "/findings", "\"findings\" must be a list");
  }
  std::set<int> ids;
  for (std::size_t i = 0; i < findings->size(); ++i) {
    const std::string fp = p + "/findings/" + std::to_string(i);
    const json& fj = (*findings)[i];
    if (!fj.is_object()) {
      r.fail(fp, "a finding must be an object");
    }
    MammoFinding x;
    x.id = int(r.integer(fj, fp, "id", 1, 1 << 30));
    if (!ids.insert(x.id).second) {
      r.fail(fp + "/id", "two findings have the id " + std::to_string(x.id));
    }
    x.view = mammo::parseViewCode(r.string(fj, fp, "view", false));
    x.aiScore = r.number(fj, fp, "aiScore", false);
    if (r.member(fj, fp, "otherViewFinding", false)) {
      x.otherViewFinding = int(r.integer(fj, fp, "otherViewFinding", 1, 1 << 30));
    }
    x.link = r.link(fj, fp);
    eachFindingField(x, [&](const char* k, auto& field) {
      field = r.field<typename std::decay_t<decltype(field.value())>::value_type>(fj, fp, k);
    });
    for (const auto& [v, k] : {std::pair{x.clockPosition.value(), "value"},
                               std::pair{x.clockPosition.aiValue(), "ai"}}) {
      if (v && (*v < 1 || *v > 12)) {
        r.fail(fp + "/clockPosition/" + k,
               "the clock position " + std::to_string(*v) + " is outside 1..12");
      }
    }
    for (const auto& [v, k] :
         {std::pair{x.sizeMm.value(), "value"}, std::pair{x.sizeMm.aiValue(), "ai"}}) {
      if (v && *v < 0) {
        r.fail(fp + "/sizeMm/" + k, "the size must not be negative");
      }
    }
    c.findings.push_back(std::move(x));
  }
  return c;
}

}  // namespace

json toJson(const MammographyReport& report) {
  json out = {{"format", kFormat},
              {"version", 1},
              {"subject", subjectToJson(report.subject())},
              {"content", contentToJson(report.content())}};
  if (const auto& ai = report.aiOrigin()) {
    out["ai"] = {{"source", ai->source}, {"demonstration", ai->demonstration}};
    if (ai->riskScore) {
      out["ai"]["riskScore"] = *ai->riskScore;
    }
  }
  if (report.aiDraft()) {
    out["aiDraft"] = contentToJson(*report.aiDraft());
  }
  const ReadFirstRecord& rf = report.readFirst();
  out["readFirst"] = {{"enabled", rf.enabled},
                      {"ownAssessmentUser", rf.ownAssessmentUser},
                      {"ownAssessmentTime", rf.ownAssessmentTime},
                      {"revealUser", rf.revealUser},
                      {"revealTime", rf.revealTime}};
  if (rf.ownAssessment) {
    out["readFirst"]["ownAssessment"] = keyOf(*rf.ownAssessment);
  }
  addSignOff(out, report.signOff());
  return out;
}

MammographyReport parseMammographyReport(std::string_view text, const std::string& source) {
  const ReportJsonReader r(text, source);
  const json root = r.parse(kFormat, 1);
  std::optional<AiOrigin> origin;
  if (r.member(root, "", "ai", false)) {
    const json& a = r.object(root, "", "ai");
    origin = AiOrigin{r.string(a, "/ai", "source", false), r.boolean(a, "/ai", "demonstration"),
                      r.number(a, "/ai", "riskScore", false)};
  }
  MammographyContent content = readContent(r, root, "content");
  std::optional<MammographyContent> draft;
  if (r.member(root, "", "aiDraft", false)) {
    draft = readContent(r, root, "aiDraft");
  }
  ReadFirstRecord rf;
  if (r.member(root, "", "readFirst", false)) {
    const json& j = r.object(root, "", "readFirst");
    const std::string p = "/readFirst";
    rf.enabled = r.boolean(j, p, "enabled");
    const std::string own = r.string(j, p, "ownAssessment", false);
    if (!own.empty()) {
      rf.ownAssessment = parseKey<AssessmentCategory>(own);
      if (!rf.ownAssessment) {
        r.fail(p + "/ownAssessment", "unknown assessment category \"" + own + "\" (expected " +
                                         keyList<AssessmentCategory>() + ")");
      }
    }
    rf.ownAssessmentUser = r.string(j, p, "ownAssessmentUser", false);
    rf.ownAssessmentTime = r.string(j, p, "ownAssessmentTime", false);
    rf.revealUser = r.string(j, p, "revealUser", false);
    rf.revealTime = r.string(j, p, "revealTime", false);
  }
  return MammographyReport::restore(r.subject(root), std::move(content), std::move(draft),
                                    std::move(origin), std::move(rf), r.signOff(root));
}

MammographyReport readMammographyReport(const std::filesystem::path& file) {
  return parseMammographyReport(readReportText(file), file.string());
}

void writeMammographyReport(const MammographyReport& report, const std::filesystem::path& file) {
  writeReportFile(toJson(report), file);
}

}  // namespace delineate::core::report
