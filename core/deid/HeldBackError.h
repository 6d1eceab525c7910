#pragma once
// An image refused before anything was sent, because the server's policy holds it back
// (OutboundPolicy): its own type so that a caller can warn rather than report a failure.
#include <string>
#include <utility>

#include "core/Error.h"

namespace delineate::core::deid {

class HeldBackError : public Error {
 public:
  HeldBackError(std::string server, const std::string& what)
      : Error(ErrorKind::InvalidInput, std::move(server), what) {}
};

}  // namespace delineate::core::deid
