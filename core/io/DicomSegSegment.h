#pragma once
// core::Segment <-> DCMTK's DcmSegment (an item of the Segment Sequence: label, description,
// algorithm, coded category/type/modifier and the recommended display colour). Internal to
// core/io; used by the DICOM SEG writer and reader.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/model/Segment.h"

class DcmItem;
class DcmSegment;

namespace delineate::core {

// The code DICOM SEG requires when a segment has none (3D Slicer and dcmqi use the same):
// SCT 85756007 "Tissue", for both category and type.
CodedConcept defaultSegmentCode();

// A DcmSegment describing `segment`. Non-manual segments get `algorithmName` (required then).
// Texts that DICOM limits (SegmentLabel and code meanings: 64 characters) are shortened.
// DCMTK checks a segment's texts before it knows the character set, so non-ASCII characters
// are '?' here; putSegmentTexts() writes the real (UTF-8) texts into the finished dataset.
// Throws Error(InvalidInput) naming `where` when DCMTK refuses a value.
std::unique_ptr<DcmSegment> makeDcmSegment(const Segment& segment, const std::string& algorithmName,
                                           const std::string& where);

// Writes the label, description and code meanings of `segments` (in Segment Sequence order)
// into the Segment Sequence of `dataset`, as they are (UTF-8).
void putSegmentTexts(DcmItem& dataset, const std::vector<Segment>& segments,
                     const std::string& where);

// `text` with every byte outside 7-bit ASCII replaced by '?'.
std::string asciiOnly(std::string text);

// The Segment a DcmSegment describes, with label value `label`.
Segment segmentFromDcm(DcmSegment& segment, std::uint16_t label);

// True when `text` holds a byte outside 7-bit ASCII (then the SEG needs a character set).
bool hasNonAscii(const std::string& text);

}  // namespace delineate::core
