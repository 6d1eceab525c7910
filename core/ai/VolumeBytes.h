#pragma once
// Volumes as the bytes of a file (what travels over HTTP): written and read through a private
// temporary file, since the ITK readers and writers work on paths. The extension of `filename`
// picks the format (".nii.gz", ".nrrd", ...).
#include <string>

#include "core/jobs/ProgressSink.h"
#include "core/model/Volume.h"

namespace delineate::core::ai {

std::string volumeToBytes(const Volume& volume, const std::string& filename = "image.nii.gz");

// Throws Error(InvalidInput) naming `what` (e.g. "the label returned by http://host:8000") when
// the bytes are not a readable image.
VolumePtr volumeFromBytes(const std::string& bytes, const std::string& filename,
                          const std::string& what, ProgressSink& progress);

// The full extension of a file name: "tmp1.nii.gz" -> ".nii.gz", "x.nrrd" -> ".nrrd"; empty when
// none.
std::string fullExtension(const std::string& filename);

}  // namespace delineate::core::ai
