#include "core/pacs/StorageClasses.h"

#include <dcmtk/dcmdata/dcuid.h>

#include <set>

namespace delineate::core::pacs {

std::vector<std::string> receivableStorageClasses() {
  std::set<std::string> seen;
  std::vector<std::string> out;
  const auto add = [&](const char* uid) {
    if (uid != nullptr && seen.insert(uid).second) {
      out.push_back(uid);
    }
  };
  for (const char* uid : {UID_CTImageStorage,
                          UID_MRImageStorage,
                          UID_EnhancedCTImageStorage,
                          UID_EnhancedMRImageStorage,
                          UID_SegmentationStorage,
                          UID_ParametricMapStorage,
                          UID_DigitalMammographyXRayImageStorageForPresentation,
                          UID_DigitalMammographyXRayImageStorageForProcessing,
                          UID_BreastTomosynthesisImageStorage,
                          UID_UltrasoundImageStorage,
                          UID_UltrasoundMultiframeImageStorage,
                          UID_SecondaryCaptureImageStorage,
                          UID_ComprehensiveSRStorage,
                          UID_EnhancedSRStorage,
                          UID_BasicTextSRStorage,
                          UID_MammographyCADSRStorage,
                          UID_KeyObjectSelectionDocumentStorage,
                          UID_GrayscaleSoftcopyPresentationStateStorage,
                          UID_PositronEmissionTomographyImageStorage,
                          UID_DigitalXRayImageStorageForPresentation,
                          UID_ComputedRadiographyImageStorage}) {
    add(uid);
  }
  for (int i = 0; i < numberOfDcmShortSCUStorageSOPClassUIDs && out.size() < 120; ++i) {
    add(dcmShortSCUStorageSOPClassUIDs[i]);
  }
  return out;
}

OFList<OFString> receivableSyntaxes() {
  OFList<OFString> l;
  for (const char* uid :
       {UID_LittleEndianExplicitTransferSyntax, UID_LittleEndianImplicitTransferSyntax,
        UID_JPEGProcess14SV1TransferSyntax, UID_JPEGLSLosslessTransferSyntax,
        UID_RLELosslessTransferSyntax, UID_JPEG2000LosslessOnlyTransferSyntax,
        UID_JPEGProcess1TransferSyntax, UID_JPEGProcess2_4TransferSyntax,
        UID_JPEGLSLossyTransferSyntax, UID_JPEG2000TransferSyntax,
        UID_DeflatedExplicitVRLittleEndianTransferSyntax, UID_BigEndianExplicitTransferSyntax}) {
    l.push_back(uid);
  }
  return l;
}

}  // namespace delineate::core::pacs
