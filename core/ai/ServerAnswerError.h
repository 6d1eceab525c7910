#pragma once
// A server's non-2xx answer as an exception: the user's message (core::Error, kind Network, where =
// the server) plus what a caller needs to decide whether and when to try again — the HTTP status
// and the server's Retry-After. Connection failures stay plain core::Error(Network).
#include <chrono>
#include <optional>
#include <string>

#include "core/Error.h"

namespace delineate::core::ai {

class ServerAnswerError : public Error {
 public:
  ServerAnswerError(std::string server, const std::string& what, int httpStatus,
                    std::optional<double> retryAfterSeconds = std::nullopt);

  int httpStatus() const { return httpStatus_; }
  std::optional<double> retryAfterSeconds() const { return retryAfterSeconds_; }
  // 408, 429 and 5xx: the same request may succeed later.
  bool transient() const;

 private:
  int httpStatus_;
  std::optional<double> retryAfterSeconds_;
};

// Retry-After (RFC 9110 §10.2.3): delay-seconds, or an HTTP-date measured from `now`; nullopt when
// absent or unreadable. A date in the past gives 0.
std::optional<double> parseRetryAfter(
    const std::string& value,
    std::chrono::system_clock::time_point now = std::chrono::system_clock::now());

}  // namespace delineate::core::ai
