#include "core/mammo/DisplayLut.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

namespace delineate::core::mammo {

namespace {

std::string upper(std::string s) {
  for (char& c : s) {
    c = char(std::toupper(static_cast<unsigned char>(c)));
  }
  return s;
}

// Round to nearest (halves up) of a value already in [0, 255].
inline std::uint8_t grey(double y) {
  return static_cast<std::uint8_t>(std::min(255.0, std::floor(y + 0.5)));
}

// PS3.3 C.11.2.1.2.1: LINEAR, output range 0..255.
inline std::uint8_t linear(double x, double c, double w) {
  if (x <= c - 0.5 - (w - 1) / 2) {
    return 0;
  }
  if (x > c - 0.5 + (w - 1) / 2) {
    return 255;
  }
  return grey(((x - (c - 0.5)) / (w - 1) + 0.5) * 255);
}

// C.11.2.1.3.2: LINEAR_EXACT.
inline std::uint8_t linearExact(double x, double c, double w) {
  if (x <= c - w / 2) {
    return 0;
  }
  if (x > c + w / 2) {
    return 255;
  }
  return grey(((x - c) / w + 0.5) * 255);
}

// C.11.2.1.3.1: SIGMOID.
inline std::uint8_t sigmoid(double x, double c, double w) {
  return grey(255 / (1 + std::exp(-4 * (x - c) / w)));
}

// The entry of a VOI LUT for x: firstValue -> entries[0], outside -> the first or last entry.
inline std::uint8_t tableEntry(double x, double first, const std::vector<std::uint8_t>& entries) {
  const double i = std::floor(x - first);
  if (!(i > 0)) {  // also NaN
    return entries.front();
  }
  if (i >= static_cast<double>(entries.size() - 1)) {
    return entries.back();
  }
  return entries[static_cast<std::size_t>(i)];
}

// Fills out[0..n) with f(first + i) for a non-decreasing f onto 0..255 (the window functions
// are, as computed in floating point too: each step is monotone): for each grey level, a binary
// search for the first entry that reaches it, then a run of that level. About 4000 evaluations
// instead of one per entry, so even SIGMOID (one exp each) builds 65536 entries in microseconds,
// with exactly the values map() gives.
template <class F>
void fillMonotone(std::uint8_t* out, int n, double first, F f) {
  int start = 0;
  for (int level = 1; level <= 255 && start < n; ++level) {
    int a = start;
    int b = n;  // the first index at or above `level` lies in [a, b] (b: none)
    while (a < b) {
      const int mid = a + (b - a) / 2;
      if (f(first + mid) >= level) {
        b = mid;
      } else {
        a = mid + 1;
      }
    }
    std::fill(out + start, out + a, static_cast<std::uint8_t>(level - 1));
    start = a;
  }
  std::fill(out + start, out + n, static_cast<std::uint8_t>(255));
}

}  // namespace

DisplaySettings defaultDisplaySettings(const Volume& volume) {
  const VolumeInfo& info = volume.info();
  DisplaySettings s;
  s.function = info.voiFunction;
  // The loader appends "Auto" and "Full range" after the file's own windows: a file with a VOI
  // LUT table but no window of its own opens with its table.
  const bool fileWindow = !info.windows.empty() && info.windows.front().name != "Auto" &&
                          info.windows.front().name != "Full range";
  if (!info.voiLuts.empty() && !fileWindow) {
    s.voiLut = 0;
  } else if (!info.windows.empty()) {
    s.center = info.windows.front().center;
    s.width = info.windows.front().width;
  } else {
    const auto [lo, hi] = volume.valueRange();
    s.center = (lo + hi) / 2;
    s.width = std::max(1.0, hi - lo + 1);
  }
  return s;
}

std::uint8_t DisplayLut::evaluate(double x) const {
  switch (kind_) {
    case Kind::LinearExact:
      return linearExact(x, center_, width_);
    case Kind::Sigmoid:
      return sigmoid(x, center_, width_);
    case Kind::Table:
      return tableEntry(x, firstValue_, *entries_);
    case Kind::Linear:
      break;
  }
  return linear(x, center_, width_);
}

std::uint8_t DisplayLut::map(double value) const {
  if (std::isnan(value)) {
    value = -std::numeric_limits<double>::infinity();
  }
  const std::uint8_t g = evaluate(value);
  return inverted_ ? static_cast<std::uint8_t>(255 - g) : g;
}

DisplayLut DisplayLut::build(const VolumeInfo& info, ScalarType type, const DisplaySettings& s) {
  DisplayLut lut;
  lut.inverted_ = (info.photometric == "MONOCHROME1") != s.invert;
  lut.center_ = std::isfinite(s.center) ? s.center : 0.0;
  lut.width_ = std::isfinite(s.width) ? s.width : 1.0;
  const std::string function = upper(s.function);
  if (s.voiLut >= 0 && static_cast<std::size_t>(s.voiLut) < info.voiLuts.size() &&
      !info.voiLuts[static_cast<std::size_t>(s.voiLut)].data.empty()) {
    const VoiLutTable& t = info.voiLuts[static_cast<std::size_t>(s.voiLut)];
    // Output [0, 2^bits - 1] onto 0..255; entries above the top are shown as the top.
    const unsigned bits = std::clamp(t.bits, 1u, 16u);
    const double top = std::ldexp(1.0, static_cast<int>(bits)) - 1;
    auto entries = std::make_shared<std::vector<std::uint8_t>>(t.data.size());
    for (std::size_t i = 0; i < t.data.size(); ++i) {
      (*entries)[i] = grey(std::min(static_cast<double>(t.data[i]), top) * 255 / top);
    }
    lut.kind_ = Kind::Table;
    lut.entries_ = std::move(entries);
    lut.firstValue_ = std::isfinite(t.firstValue) ? t.firstValue : 0.0;
  } else if (function == "LINEAR_EXACT") {
    lut.kind_ = Kind::LinearExact;
    lut.width_ = std::max(lut.width_, 0.0);
  } else if (function == "SIGMOID") {
    lut.kind_ = Kind::Sigmoid;
    lut.width_ = std::max(lut.width_, 1e-9);  // a step at the centre
  } else {
    lut.kind_ = Kind::Linear;
    lut.width_ = std::max(lut.width_, 1.0);
  }

  std::size_t entries = 0;
  switch (type) {
    case ScalarType::UInt8:
      entries = 256;
      break;
    case ScalarType::Int8:
      entries = 256;
      lut.offset_ = -128;
      break;
    case ScalarType::UInt16:
      entries = 65536;
      break;
    case ScalarType::Int16:
      entries = 65536;
      lut.offset_ = -32768;
      break;
    default:
      return lut;  // function only: map()
  }
  auto table = std::make_shared<std::vector<std::uint8_t>>(entries);
  std::uint8_t* out = table->data();
  const double first = lut.offset_;
  const auto n = static_cast<int>(entries);
  // The same functions as map(), without dispatch per entry.
  const double c = lut.center_;
  const double w = lut.width_;
  switch (lut.kind_) {
    case Kind::Linear:
      fillMonotone(out, n, first, [c, w](double x) { return linear(x, c, w); });
      break;
    case Kind::LinearExact:
      fillMonotone(out, n, first, [c, w](double x) { return linearExact(x, c, w); });
      break;
    case Kind::Sigmoid:
      fillMonotone(out, n, first, [c, w](double x) { return sigmoid(x, c, w); });
      break;
    case Kind::Table: {  // a VOI LUT need not be monotone: one lookup per entry
      const std::vector<std::uint8_t>& e = *lut.entries_;
      const double f0 = lut.firstValue_;
      for (int i = 0; i < n; ++i) {
        out[i] = tableEntry(first + i, f0, e);
      }
      break;
    }
  }
  if (lut.inverted_) {
    for (int i = 0; i < n; ++i) {
      out[i] = static_cast<std::uint8_t>(255 - out[i]);
    }
  }
  lut.table_ = std::move(table);
  return lut;
}

}  // namespace delineate::core::mammo
