#include "core/pacs/EarlierStudies.h"

#include <algorithm>

namespace delineate::core::pacs {

std::optional<StudyQuery> earlierStudiesQuery(const StudyRecord& current,
                                              const std::string& modality,
                                              const std::string& dateRange) {
  if (current.patientId.empty()) {
    return std::nullopt;
  }
  StudyQuery q;
  q.patientId = current.patientId;
  q.modality = modality;
  q.studyDate = dateRange;
  if (q.studyDate.empty() && current.studyDate.size() == 8) {
    q.studyDate = "-" + current.studyDate;  // the day itself is dropped when checking
  }
  return q;
}

std::vector<StudyRecord> earlierStudies(const StudyRecord& current, const StudyQuery& query,
                                        std::vector<StudyRecord> found) {
  StudyQuery check = query;
  check.patientId.clear();  // compared exactly below
  const bool modalityListed = !query.modality.empty();
  std::vector<StudyRecord> out;
  for (StudyRecord& s : found) {
    if (s.patientId != current.patientId || s.studyInstanceUid == current.studyInstanceUid ||
        s.studyInstanceUid.empty() || s.studyDate.empty() ||
        (!current.studyDate.empty() && s.studyDate >= current.studyDate)) {
      continue;
    }
    // A node that did not list the study's modalities is taken at its word.
    check.modality = modalityListed && !s.modalities.empty() ? query.modality : std::string();
    if (!check.matches(s) || std::any_of(out.begin(), out.end(), [&](const StudyRecord& o) {
          return o.studyInstanceUid == s.studyInstanceUid;
        })) {
      continue;
    }
    out.push_back(std::move(s));
  }
  std::sort(out.begin(), out.end(), [](const StudyRecord& a, const StudyRecord& b) {
    return a.studyDate != b.studyDate ? a.studyDate > b.studyDate
                                      : a.studyInstanceUid < b.studyInstanceUid;
  });
  return out;
}

bool isMammographyStudy(const StudyRecord& study, const std::vector<SeriesRecord>& series) {
  if (!series.empty()) {
    return std::any_of(series.begin(), series.end(),
                       [](const SeriesRecord& s) { return s.modality == "MG"; });
  }
  return std::find(study.modalities.begin(), study.modalities.end(), "MG") !=
         study.modalities.end();
}

}  // namespace delineate::core::pacs
