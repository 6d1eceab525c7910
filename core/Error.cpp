#include "core/Error.h"

namespace delineate::core {

const char* toString(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::InvalidInput:
      return "invalid input";
    case ErrorKind::Unsupported:
      return "unsupported";
    case ErrorKind::Io:
      return "I/O error";
    case ErrorKind::TooLarge:
      return "too large";
    case ErrorKind::Cancelled:
      return "cancelled";
    case ErrorKind::Network:
      return "network error";
    case ErrorKind::Internal:
      return "internal error";
  }
  return "error";
}

namespace {
std::string compose(const std::string& where, const std::string& what) {
  return where.empty() ? what : where + ": " + what;
}
}  // namespace

Error::Error(ErrorKind kind, std::string where, const std::string& what)
    : std::runtime_error(compose(where, what)),
      kind_(kind),
      where_(std::move(where)),
      detail_(what) {}

}  // namespace delineate::core
