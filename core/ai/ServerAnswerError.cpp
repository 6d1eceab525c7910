#include "core/ai/ServerAnswerError.h"

#include <cctype>
#include <ctime>

namespace delineate::core::ai {

ServerAnswerError::ServerAnswerError(std::string server, const std::string& what, int httpStatus,
                                     std::optional<double> retryAfterSeconds)
    : Error(ErrorKind::Network, std::move(server), what),
      httpStatus_(httpStatus),
      retryAfterSeconds_(retryAfterSeconds) {}

bool ServerAnswerError::transient() const {
  return httpStatus_ == 408 || httpStatus_ == 429 || (httpStatus_ >= 500 && httpStatus_ <= 599);
}

std::optional<double> parseRetryAfter(const std::string& value,
                                      std::chrono::system_clock::time_point now) {
  std::size_t begin = 0, end = value.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(value[begin]))) {
    ++begin;
  }
  while (end > begin && std::isspace(static_cast<unsigned char>(value[end - 1]))) {
    --end;
  }
  const std::string text = value.substr(begin, end - begin);
  if (text.empty()) {
    return std::nullopt;
  }
  bool digits = text.size() <= 9;
  for (char c : text) {
    digits = digits && std::isdigit(static_cast<unsigned char>(c));
  }
  if (digits) {
    return std::stod(text);
  }
  // IMF-fixdate, e.g. "Sun, 06 Nov 1994 08:49:37 GMT" (the only date form senders may use).
  std::tm tm{};
  const char* rest = strptime(text.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  if (rest == nullptr || *rest != '\0') {
    return std::nullopt;
  }
  const std::time_t when = timegm(&tm);
  const double delta =
      std::chrono::duration<double>(std::chrono::system_clock::from_time_t(when) - now).count();
  return delta > 0 ? delta : 0.0;
}

}  // namespace delineate::core::ai
