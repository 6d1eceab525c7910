#pragma once
// Which files are not de-identified at all. The profile cleans the header; it cannot see text
// burned into the pixels, nor inside an encapsulated PDF. Such files are held back (not written)
// and reported with the reason, rather than sent on the hope that they are clean.
#include <optional>
#include <string>

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

}  // namespace delineate::core::deid
