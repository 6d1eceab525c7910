#pragma once
// A mammography image's hanging facts from its DICOM header: Image Laterality (else Laterality),
// View Position (else the View Code Sequence's code), the view modifiers, Presentation Intent
// Type, Study Instance UID and Date, and the acquisition time.
#include "core/io/DicomHeader.h"
#include "core/mammo/MammoView.h"

namespace delineate::core::mammo {

MammoView mammoViewOf(const DicomFileHeader& header, const std::string& id);

}  // namespace delineate::core::mammo
