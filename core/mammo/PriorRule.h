#pragma once
// Which earlier study of the same patient a hanging protocol set compares with, as a site states
// it in its protocol file:
//
//   "prior": {"modality": "MG", "minMonthsEarlier": 9, "maxMonthsEarlier": 60, "fetch": 1}
//
// The prior is the latest study of the patient whose date lies in the window (at least
// minMonthsEarlier and, when maxMonthsEarlier is not 0, at most that many months before the
// current study; 0 months means any earlier day, a study of the same day is never a prior).
// Opening a study from a PACS fetches the `fetch` latest such studies of `modality`.
#include <optional>
#include <string>
#include <vector>

namespace delineate::core::mammo {

struct PriorRule {
  std::string modality = "MG";
  int minMonthsEarlier = 0;
  int maxMonthsEarlier = 0;  // 0: no limit
  int fetch = 1;             // how many priors a retrieve from a PACS brings along

  // The window as a DICOM date range for a search ("20190502-20250802", or "-20260501" without
  // a limit); empty when `currentDate` is not a YYYYMMDD date.
  std::string dateRange(const std::string& currentDate) const;
  // Whether a study of `priorDate` is in the window of a current study of `currentDate`. When the
  // current study has no date any other study is; an undated one never is otherwise.
  bool admits(const std::string& currentDate, const std::string& priorDate) const;
  // "any earlier day", "at least 9 months earlier", "9 to 60 months earlier".
  std::string describe() const;
};

// Of `studies` (UID and YYYYMMDD date), the UIDs of the priors of the one of `currentDate`
// (never `currentUid`), latest first.
std::vector<std::string> choosePriors(const PriorRule& rule, const std::string& currentUid,
                                      const std::string& currentDate,
                                      std::vector<std::pair<std::string, std::string>> studies);

}  // namespace delineate::core::mammo
