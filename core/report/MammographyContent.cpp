// Field listing, required fields and accept-all of a mammography report's content.
#include "core/report/MammographyContent.h"

#include <algorithm>

namespace delineate::core::report {

namespace {

template <class Content, class F>
void eachTopField(Content& c, F&& f) {
  f("composition", "breast composition", c.composition);
  f("assessment/right", "assessment category (right)", c.assessmentRight);
  f("assessment/left", "assessment category (left)", c.assessmentLeft);
  f("assessment/overall", "assessment category", c.assessmentOverall);
  f("management", "management", c.management);
  f("impression", "impression", c.impression);
}

}  // namespace

std::string findingName(int id) {
  return "F" + std::to_string(id);
}

MammoFinding* MammographyContent::finding(int id) {
  const auto it = std::find_if(findings.begin(), findings.end(),
                               [id](const MammoFinding& f) { return f.id == id; });
  return it == findings.end() ? nullptr : &*it;
}

MammoFinding& MammographyContent::addFinding() {
  int next = 1;
  for (const MammoFinding& f : findings) {
    next = std::max(next, f.id + 1);
  }
  findings.emplace_back().id = next;
  return findings.back();
}

bool MammographyContent::removeFinding(int id) {
  return std::erase_if(findings, [id](const MammoFinding& f) { return f.id == id; }) > 0;
}

FieldListing listFields(const MammographyContent& content) {
  FieldListing out;
  eachTopField(content, [&](const char* path, const char*, const auto& field) {
    listField(out, path, field);
  });
  for (const MammoFinding& x : content.findings) {
    const std::string base = "findings/" + findingName(x.id) + "/";
    eachFindingField(
        x, [&](const char* name, const auto& field) { listField(out, base + name, field); });
    listPlain(out, base + "link", x.link.text());
  }
  return out;
}

std::vector<std::string> missingForSignature(const MammographyContent& content) {
  std::vector<std::string> missing;
  if (content.composition.empty()) {
    missing.push_back("breast composition");
  }
  if (content.assessmentOverall.empty()) {
    missing.push_back("assessment category");
  }
  if (content.management.empty()) {
    missing.push_back("management");
  }
  for (const MammoFinding& x : content.findings) {
    const std::string name = "finding " + findingName(x.id);
    if (x.kind.empty()) {
      missing.push_back(name + ": kind");
    }
    if (x.laterality.empty()) {
      missing.push_back(name + ": laterality");
    }
  }
  eachTopField(content, [&](const char*, const char* label, const auto& field) {
    if (field.provenance() == Provenance::AiProposed) {
      missing.push_back(std::string(label) + " (AI proposal not reviewed)");
    }
  });
  for (const MammoFinding& x : content.findings) {
    eachFindingField(x, [&](const char* name, const auto& field) {
      if (field.provenance() == Provenance::AiProposed) {
        missing.push_back("finding " + findingName(x.id) + ": " + name +
                          " (AI proposal not reviewed)");
      }
    });
  }
  return missing;
}

void acceptAllProposals(MammographyContent& content) {
  eachTopField(content, [](const char*, const char*, auto& field) {
    if (field.provenance() == Provenance::AiProposed) {
      field.accept();
    }
  });
  for (MammoFinding& x : content.findings) {
    eachFindingField(x, [](const char*, auto& field) {
      if (field.provenance() == Provenance::AiProposed) {
        field.accept();
      }
    });
  }
}

}  // namespace delineate::core::report
