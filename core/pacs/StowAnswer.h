#pragma once
// What a STOW-RS answer says about each instance sent (PS3.18 10.5.3): the DICOM JSON object's
// ReferencedSOPSequence (0008,1199) lists what was stored, FailedSOPSequence (0008,1198) what was
// not, each item naming its SOP Instance UID (0008,1155) and, for failures, a FailureReason
// (0008,1197). An instance counts as stored only when the answer lists it as referenced and not
// as failed: a server may answer 200 while it stored nothing (it found no parts in the body).
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace delineate::core::pacs {

struct StowOutcome {
  bool stored = false;
  std::uint16_t failureReason = 0;  // from FailedSOPSequence; 0 when the answer gave none
  std::string message;              // why not stored, for the report
};

// One outcome per UID of `sent`. `status` is the HTTP status, `body` the answer (may be empty or
// not JSON, e.g. an error page: then nothing counts as stored and the message says so).
std::map<std::string, StowOutcome> stowOutcomes(int status, std::string_view body,
                                                const std::vector<std::string>& sent);

}  // namespace delineate::core::pacs
