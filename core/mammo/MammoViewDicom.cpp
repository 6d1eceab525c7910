#include "core/mammo/MammoViewDicom.h"

#include <cctype>

namespace delineate::core::mammo {

MammoView::Kind imageKindOf(const DicomFileHeader& header) {
  if (header.frames > 1) {
    return MammoView::Kind::Stack;
  }
  std::string type = header.imageType;
  for (char& c : type) {
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  for (const char* word : {"GENERATED_2D", "SYNTHESIZED", "SYNTHETIC"}) {
    if (type.find(word) != std::string::npos) {
      return MammoView::Kind::Synthetic2D;
    }
  }
  return MammoView::Kind::Mammogram;
}

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
  v.kind = imageKindOf(header);
  v.studyUid = header.studyInstanceUid;
  v.patientId = header.patientId;
  v.studyDate = header.studyDate;
  v.acquisitionTime = header.acquisitionTime;
  return v;
}

}  // namespace delineate::core::mammo
