#pragma once
// DICOM unique identifiers in the UUID-derived form "2.25.<128-bit integer>" (PS3.5 B.2): random
// ones for new objects, and deterministic ones derived from a parent UID and a name so that
// writing the same volume twice gives identical files.
#include <string>

namespace delineate::core {

// A fresh random UID.
std::string newDicomUid();

// The same UID for the same (parent, name); different for different inputs.
std::string derivedDicomUid(const std::string& parent, const std::string& name);

// The UID of 128 bits given as (at least) 32 hex digits, e.g. the start of a keyed hash: the same
// bits give the same UID. Throws std::invalid_argument on fewer or non-hex digits.
std::string dicomUidFromHex(const std::string& hex);
// True when `uid` is a syntactically valid UID: 1-64 characters, dot-separated numbers without
// leading zeros.
bool isValidDicomUid(const std::string& uid);

}  // namespace delineate::core
