#pragma once
// The one place where DCMTK's OFCondition becomes a typed Error naming the file.
#include <string>
#include <string_view>

#include "core/Error.h"

class OFCondition;

namespace delineate::core {

// An Error for a failed DCMTK call: `file` is the file (or folder) concerned, `doing` a short
// phrase ("reading the header", "decoding frame 3"). The kind follows the condition: memory
// exhaustion -> TooLarge, unsupported encodings -> Unsupported, file access -> Io, the network
// module's (associations, DIMSE, TCP) -> Network, else InvalidInput. For those `file` names the
// DICOM node.
Error dicomError(const OFCondition& condition, const std::string& file, std::string_view doing);

// Throws dicomError(...) when `condition` is bad.
void checkDicom(const OFCondition& condition, const std::string& file, std::string_view doing);

}  // namespace delineate::core
