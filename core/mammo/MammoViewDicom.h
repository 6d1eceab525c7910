#pragma once
// A mammography image's hanging facts from its DICOM header: Image Laterality (else Laterality),
// View Position (else the View Code Sequence's code), the view modifiers, Presentation Intent
// Type, Study Instance UID and Date, and the acquisition time.
#include "core/io/DicomHeader.h"
#include "core/mammo/MammoView.h"

namespace delineate::core::mammo {

MammoView mammoViewOf(const DicomFileHeader& header, const std::string& id);
// A stack when the object has several frames; a synthetic 2-D view when its Image Type holds
// GENERATED_2D, SYNTHESIZED or SYNTHETIC (as tomosynthesis systems mark the 2-D image they
// compute from the stack); else an ordinary mammogram.
MammoView::Kind imageKindOf(const DicomFileHeader& header);

}  // namespace delineate::core::mammo
