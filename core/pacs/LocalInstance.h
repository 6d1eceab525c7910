#pragma once
// Whether an instance already in a retrieve folder can be used as it is: a DICOM file whose
// structure reads to its end (element values are skipped, not loaded, so this costs a few
// reads per file) and whose SOP Instance UID is the one expected. A file cut short (a crash, a
// full disk, a copy interrupted) or overwritten is not, and the retrieve fetches it again.
#include <filesystem>
#include <string>

namespace delineate::core::pacs {

bool localInstanceIsWhole(const std::filesystem::path& file, const std::string& sopInstanceUid);

}  // namespace delineate::core::pacs
