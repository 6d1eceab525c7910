#pragma once
// One mammography image as hanging protocols see it: which breast, which view, which study, and
// whether it is meant for display. Built from the DICOM header (Image Laterality, View Position /
// View Code Sequence, View Modifier Code Sequence, Presentation Intent Type, Study Date).
#include <optional>
#include <string>

namespace delineate::core::mammo {

enum class Laterality { Unknown, Right, Left };

// The view codes of DICOM CID 4014 used in screening and diagnostic reading.
enum class ViewCode { Unknown, CC, MLO, ML, LM, XCCL, XCCM, FB, SIO, LMO, AT };

struct MammoView {
  std::string id;              // what the caller uses to find the image (SOP Instance UID, path)
  std::string sopInstanceUid;  // from the file ("" when unknown)
  Laterality laterality = Laterality::Unknown;
  ViewCode view = ViewCode::Unknown;
  bool spot = false;           // spot compression (view modifier)
  bool magnification = false;  // magnification (view modifier)
  bool forProcessing = false;  // Presentation Intent Type FOR PROCESSING: not for display
  // What the image of a view is: an ordinary 2-D mammogram, a 2-D image synthesised from a
  // tomosynthesis acquisition (Image Type holding GENERATED_2D, SYNTHESIZED or SYNTHETIC), or a
  // tomosynthesis stack (more than one frame). 4-up hangings prefer the synthetic 2-D view.
  enum class Kind { Mammogram, Synthetic2D, Stack };
  Kind kind = Kind::Mammogram;
  std::string studyUid;
  std::string patientId;        // for asking a PACS for the patient's earlier studies
  std::string studyDate;        // YYYYMMDD
  std::string acquisitionTime;  // for choosing among duplicates: the latest wins
};

// Whether `imageId` (of AI findings or a report's links, which name images by path or by SOP
// Instance UID) names this image.
bool namesImage(const MammoView& view, const std::string& imageId);

const char* toString(Laterality laterality);  // "R", "L", "?"
const char* toString(ViewCode view);          // "CC", "MLO", ..., "?"
// From DICOM values: "R"/"L" (Image Laterality or Laterality); view codes by their View Position
// text ("CC", "MLO", "XCCL", "LATERAL" is ambiguous and unknown) or CID 4014 code value
// ("R-10242" cranio-caudal, ...). Unknown input gives Unknown.
Laterality parseLaterality(const std::string& text);
ViewCode parseViewCode(const std::string& text);

}  // namespace delineate::core::mammo
