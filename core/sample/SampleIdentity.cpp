#include "core/sample/SampleIdentity.h"

#include "core/sample/SampleRandom.h"

namespace delineate::core::sample {

VolumeInfo sampleInfo(std::uint64_t seed, const SampleSeriesIdentity& id) {
  VolumeInfo info;
  info.modality = id.modality;
  info.patientName = id.patientName;
  info.patientId = id.patientId;
  info.patientBirthDate = id.birthDate;
  info.patientSex = id.sex;
  info.studyInstanceUid = deterministicUid(seed, id.patientId + "/" + id.studyKey);
  info.studyDate = id.studyDate;
  info.studyDescription = id.studyDescription;
  info.accessionNumber = id.accession;
  info.seriesInstanceUid =
      deterministicUid(seed, id.patientId + "/" + id.studyKey + "/" + id.seriesKey);
  info.seriesNumber = id.seriesNumber;
  info.seriesDescription = id.seriesDescription;
  info.frameOfReferenceUid = deterministicUid(seed, id.patientId + "/" + id.studyKey + "/frame");
  info.photometric = "MONOCHROME2";
  return info;
}

}  // namespace delineate::core::sample
