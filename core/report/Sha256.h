#pragma once
// SHA-256 (FIPS 180-4) of a byte string, as 64 lowercase hex digits: the audit trail's chain hash.
#include <string>
#include <string_view>

namespace delineate::core::report {

std::string sha256Hex(std::string_view data);

}  // namespace delineate::core::report
