#pragma once
// One case of the dataset upload dialog: what the user picked and what the last Check, Send or
// Export said about it.
#include <QString>
#include <string>
#include <vector>

#include "core/upload/CasePreparation.h"
#include "core/upload/DatasetCase.h"

namespace delineate::app {

struct DatasetCaseRow {
  core::upload::DatasetCase picked;
  std::string id;
  std::vector<core::upload::LintFinding> findings;
  bool checked = false;
  QString outcome;  // "queued", "written", ...

  int errors() const {
    int n = 0;
    for (const auto& f : findings) {
      n += f.severity == core::upload::LintFinding::Severity::Error ? 1 : 0;
    }
    return n;
  }
  int warnings() const { return static_cast<int>(findings.size()) - errors(); }
};

}  // namespace delineate::app
