#pragma once
// Which files are not de-identified at all. The profile cleans the header; it cannot see text
// burned into the pixels, nor inside an encapsulated PDF. Such files are held back (not written)
// and reported with the reason, rather than sent on the hope that they are clean.
#include <optional>
#include <string>

#include "core/model/VolumeInfo.h"

class DcmItem;

namespace delineate::core::deid {

// The reason to hold back `dataset`, or nullopt when it may be de-identified:
// - Burned In Annotation (0028,0301) is YES;
// - it is absent from an image of a kind that usually carries burned-in text (ultrasound,
//   secondary capture, visible-light photographs and video, endoscopy, scanned documents, "OT")
//   or of a kind whose IOD requires it (MG, DX, IO, PX: its absence means the header cannot be
//   trusted on this point);
// - it holds an encapsulated document (PDF, CDA, STL: content the profile cannot clean);
// - it is a DICOMDIR (an index of the original files, full of patient names).
std::optional<std::string> holdBackReason(DcmItem& dataset);

// The same rule for a loaded volume (its modality, SOP class and Burned In Annotation; see
// VolumeInfo::burnedInAnnotation), so that a file de-identified in a batch and the volume sent
// for inference are held back alike. A volume not read from DICOM (no SOP class, no source files:
// NIfTI, NRRD, made in memory) has no such header and is never held back.
std::optional<std::string> holdBackReason(const VolumeInfo& info);

}  // namespace delineate::core::deid
