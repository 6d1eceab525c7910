#include "core/mammo/MammoViewDicom.h"

namespace delineate::core::mammo {

MammoView mammoViewOf(const DicomFileHeader& header, const std::string& id) {
  MammoView v;
  v.id = id;
  v.sopInstanceUid = header.sopInstanceUid;
  v.laterality = parseLaterality(header.laterality);
  v.view = parseViewCode(header.viewPosition);
  if (v.view == ViewCode::Unknown) {
    v.view = parseViewCode(header.viewCode);
  }
  v.spot = header.spotCompression;
  v.magnification = header.magnification;
  v.forProcessing = header.presentationIntent == "FOR PROCESSING";
  v.studyUid = header.studyInstanceUid;
  v.patientId = header.patientId;
  v.studyDate = header.studyDate;
  v.acquisitionTime = header.acquisitionTime;
  return v;
}

}  // namespace delineate::core::mammo
