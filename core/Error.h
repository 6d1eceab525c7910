#pragma once
// Typed errors that carry what went wrong and where (a file, a server, a series).
#include <stdexcept>
#include <string>

namespace delineate::core {

enum class ErrorKind {
  InvalidInput,  // the data is malformed or inconsistent
  Unsupported,   // valid, but a feature we do not handle (transfer syntax, pixel type, ...)
  Io,            // the operating system refused (missing file, full disk, permissions)
  TooLarge,      // sizes overflow or exceed what the file or the machine can hold
  Cancelled,     // the user cancelled the job
  Network,       // a server could not be reached or answered badly
  Internal,      // a bug: an invariant did not hold
};

const char* toString(ErrorKind kind);

class Error : public std::runtime_error {
 public:
  // `where` names the file, folder or server the error is about; may be empty.
  Error(ErrorKind kind, std::string where, const std::string& what);

  ErrorKind kind() const { return kind_; }
  const std::string& where() const { return where_; }
  // The message without the `where` prefix.
  const std::string& detail() const { return detail_; }

 private:
  ErrorKind kind_;
  std::string where_;
  std::string detail_;
};

class CancelledError : public Error {
 public:
  CancelledError() : Error(ErrorKind::Cancelled, {}, "cancelled") {}
};

}  // namespace delineate::core
