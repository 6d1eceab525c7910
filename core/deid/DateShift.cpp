#include "core/deid/DateShift.h"

#include <chrono>

namespace delineate::core::deid {

namespace {

namespace chr = std::chrono;

std::optional<std::string> shiftOne(std::string_view date, int days) {
  if (date.size() != 8) {
    return std::nullopt;
  }
  for (char c : date) {
    if (c < '0' || c > '9') {
      return std::nullopt;
    }
  }
  const auto number = [&](std::size_t at, std::size_t n) {
    int v = 0;
    for (std::size_t i = at; i < at + n; ++i) {
      v = v * 10 + (date[i] - '0');
    }
    return v;
  };
  const chr::year_month_day ymd{chr::year(number(0, 4)), chr::month(unsigned(number(4, 2))),
                                chr::day(unsigned(number(6, 2)))};
  if (!ymd.ok()) {
    return std::nullopt;
  }
  const chr::year_month_day shifted{chr::sys_days(ymd) + chr::days(days)};
  const int year = int(shifted.year());
  if (year < 1 || year > 9999) {
    return std::nullopt;
  }
  std::string out(8, '0');
  const auto put = [&](std::size_t end, unsigned value, int digits) {
    for (int i = 1; i <= digits; ++i, value /= 10) {
      out[end - std::size_t(i)] = static_cast<char>('0' + value % 10);
    }
  };
  put(4, unsigned(year), 4);
  put(6, unsigned(shifted.month()), 2);
  put(8, unsigned(shifted.day()), 2);
  return out;
}

// Applies `one` to each '\'-separated value, trimming DICOM's padding spaces.
template <typename F>
std::optional<std::string> eachValue(std::string_view value, F one) {
  std::string out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = value.find('\\', start);
    std::string_view v =
        value.substr(start, end == std::string_view::npos ? value.npos : end - start);
    while (!v.empty() && v.back() == ' ') {
      v.remove_suffix(1);
    }
    while (!v.empty() && v.front() == ' ') {
      v.remove_prefix(1);
    }
    const auto shifted = one(v);
    if (!shifted) {
      return std::nullopt;
    }
    out += *shifted;
    if (end == std::string_view::npos) {
      return out;
    }
    out += '\\';
    start = end + 1;
  }
}

}  // namespace

std::optional<std::string> shiftDicomDate(std::string_view value, int days) {
  return eachValue(value, [days](std::string_view v) { return shiftOne(v, days); });
}

std::optional<std::string> shiftDicomDateTime(std::string_view value, int days) {
  return eachValue(value, [days](std::string_view v) -> std::optional<std::string> {
    if (v.size() < 8) {
      return std::nullopt;
    }
    const auto date = shiftOne(v.substr(0, 8), days);
    if (!date) {
      return std::nullopt;
    }
    return *date + std::string(v.substr(8));
  });
}

}  // namespace delineate::core::deid
