#pragma once
// What tells the frames of an enhanced multi-frame object apart in time, diffusion, echo or
// cardiac phase: read from one frame's functional groups (Frame Content, MR Diffusion, MR Echo,
// Cardiac Synchronization). The loader turns such frames into a 4-D image as it does for
// classic series (core/io/DicomFrameSplit.h).
#include "core/io/DicomFrameSplit.h"

class DcmItem;

namespace delineate::core {

// Sets the keys `group` (a per-frame or shared functional groups item) holds; leaves the others.
void readFunctionalGroupKeys(DcmItem& group, DicomFrameKeys& keys);

// Diffusion Gradient Orientation (0018,9089) of `item` (a data set or a gradient direction item)
// into keys.gradient; left unset when absent or incomplete.
void readDiffusionGradient(DcmItem& item, DicomFrameKeys& keys);

// `frame`'s keys where set, else the file's.
DicomFrameKeys mergeFrameKeys(const DicomFrameKeys& file, const DicomFrameKeys& frame);

}  // namespace delineate::core
