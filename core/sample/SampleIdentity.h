#pragma once
#include <cstdint>
#include <string>

#include "core/model/VolumeInfo.h"

namespace delineate::core::sample {

struct SampleSeriesIdentity {
  std::string patientName;
  std::string patientId;
  std::string birthDate;  // YYYYMMDD
  std::string sex;
  std::string studyKey;   // distinguishes studies of one patient; seeds the study UID
  std::string studyDate;  // YYYYMMDD
  std::string studyDescription;
  std::string accession;
  std::string seriesKey;  // seeds the series UID
  int seriesNumber = 1;
  std::string seriesDescription;
  std::string modality;
};

// Fills patient, study, series and frame-of-reference identity with UIDs derived from `seed`.
VolumeInfo sampleInfo(std::uint64_t seed, const SampleSeriesIdentity& id);

}  // namespace delineate::core::sample
