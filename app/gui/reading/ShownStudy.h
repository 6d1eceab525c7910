#pragma once
// The study the window shows, as a PACS would list it (patient ID, date, UID, the shown modality
// first): the mammography reading view's current study while it is active, else the slice views'
// volume. nullopt when neither shows a DICOM study.
#include <optional>

#include "core/model/Volume.h"
#include "core/pacs/StudyRecords.h"

namespace delineate::app {

class MammoFeature;

std::optional<core::pacs::StudyRecord> shownStudy(const MammoFeature& mammo,
                                                  const core::VolumePtr& volume);

}  // namespace delineate::app
