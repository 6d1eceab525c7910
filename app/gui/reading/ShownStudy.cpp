#include "app/gui/reading/ShownStudy.h"

#include "app/gui/mammo/MammoFeature.h"

namespace delineate::app {

std::optional<core::pacs::StudyRecord> shownStudy(const MammoFeature& mammo,
                                                  const core::VolumePtr& volume) {
  core::pacs::StudyRecord s;
  if (mammo.active()) {
    const std::string& uid = mammo.hanging().currentStudy;
    for (const auto& v : mammo.files().views) {
      if (v.studyUid == uid && !uid.empty()) {
        s.studyInstanceUid = uid;
        s.patientId = v.patientId;
        s.studyDate = v.studyDate;
        s.modalities = {"MG"};
        return s;
      }
    }
    return std::nullopt;
  }
  if (!volume || volume->info().studyInstanceUid.empty()) {
    return std::nullopt;
  }
  const core::VolumeInfo& info = volume->info();
  s.studyInstanceUid = info.studyInstanceUid;
  s.patientId = info.patientId;
  s.patientName = info.patientName;
  s.studyDate = info.studyDate;
  s.accessionNumber = info.accessionNumber;
  if (!info.modality.empty()) {
    s.modalities = {info.modality};
  }
  return s;
}

}  // namespace delineate::app
