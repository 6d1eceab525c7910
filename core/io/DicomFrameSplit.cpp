#include "core/io/DicomFrameSplit.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <functional>
#include <numeric>

namespace delineate::core {

namespace {

constexpr double kSamePositionMm = 0.01;

// Slices grouped by position (along the slice normal, then in-plane), in any group order.
std::vector<std::vector<std::size_t>> groupByPosition(
    const std::vector<DicomSlicePlacement>& slices) {
  std::vector<std::vector<std::size_t>> groups;
  if (slices.empty() || !slices.front().orientation) {
    return groups;
  }
  const auto& o = *slices.front().orientation;
  const Vec3 normal = cross(Vec3{o[0], o[1], o[2]}, Vec3{o[3], o[4], o[5]});
  std::vector<std::size_t> idx(slices.size());
  std::iota(idx.begin(), idx.end(), 0);
  for (const auto& s : slices) {
    if (!s.position) {
      return {};
    }
  }
  auto along = [&](std::size_t i) { return dot(*slices[i].position, normal); };
  std::stable_sort(idx.begin(), idx.end(),
                   [&](std::size_t a, std::size_t b) { return along(a) < along(b); });
  for (std::size_t i = 0; i < idx.size();) {
    std::vector<std::size_t> group{idx[i]};
    std::size_t j = i + 1;
    while (j < idx.size() && along(idx[j]) - along(idx[i]) < kSamePositionMm) {
      const Vec3& a = *slices[idx[j]].position;
      const Vec3& b = *slices[idx[i]].position;
      const Vec3 d{a[0] - b[0], a[1] - b[1], a[2] - b[2]};
      if (std::sqrt(dot(d, d)) >= kSamePositionMm) {
        return {};  // same plane, another place in it: no stack of repeats
      }
      group.push_back(idx[j]);
      ++j;
    }
    groups.push_back(std::move(group));
    i = j;
  }
  return groups;
}

// A key orders frames lexicographically; its first value is what the frame axis shows.
using FrameKey = std::array<double, 4>;

std::optional<FrameKey> single(const std::optional<double>& v) {
  if (!v) {
    return std::nullopt;
  }
  return FrameKey{*v, 0, 0, 0};
}

struct Candidate {
  std::function<std::optional<FrameKey>(const DicomFrameKeys&)> key;
  const char* name;
  const char* unit;
  double scale;   // to the unit shown
  bool relative;  // shown relative to the first frame (times of day)
};

}  // namespace

std::optional<double> dicomTimeSeconds(const std::string& tm) {
  std::string s;
  for (char c : tm) {
    if (c != ':' && !std::isspace(static_cast<unsigned char>(c))) {
      s += c;
    }
  }
  if (s.size() < 2 || !std::all_of(s.begin(), s.begin() + 2, [](char c) {
        return std::isdigit(static_cast<unsigned char>(c));
      })) {
    return std::nullopt;
  }
  // Two digits at `at` (absent minutes count 0); nullopt for anything but digits.
  auto two = [&](std::size_t at) -> std::optional<double> {
    if (at >= s.size()) {
      return 0.0;
    }
    if (at + 2 > s.size() || !std::isdigit(static_cast<unsigned char>(s[at])) ||
        !std::isdigit(static_cast<unsigned char>(s[at + 1]))) {
      return std::nullopt;
    }
    return (s[at] - '0') * 10.0 + (s[at + 1] - '0');
  };
  const auto hours = two(0);
  const auto minutes = two(2);
  if (!hours || !minutes) {
    return std::nullopt;  // a malformed TM (found by fuzzing: "1A" once threw from std::stod)
  }
  double seconds = *hours * 3600 + *minutes * 60;
  if (s.size() >= 6) {
    const std::string rest = s.substr(4);
    char* end = nullptr;
    const double v = std::strtod(rest.c_str(), &end);
    if (end == rest.c_str()) {
      return std::nullopt;
    }
    seconds += v;
  }
  return seconds;
}

std::optional<DicomFrameSplit> splitDicomFrames(const std::vector<DicomSlicePlacement>& slices,
                                                const std::vector<DicomFrameKeys>& keys) {
  if (slices.size() != keys.size() || slices.size() < 2) {
    return std::nullopt;
  }
  const auto groups = groupByPosition(slices);
  if (groups.empty()) {
    return std::nullopt;
  }
  const std::size_t n = groups.front().size();
  if (n < 2 ||
      std::any_of(groups.begin(), groups.end(), [&](const auto& g) { return g.size() != n; })) {
    return std::nullopt;
  }
  // Diffusion with several directions per b-value: b-value, then the gradient direction.
  auto diffusion = [](const DicomFrameKeys& k) -> std::optional<FrameKey> {
    if (!k.bValue || !k.gradient) {
      return std::nullopt;
    }
    const auto& g = *k.gradient;
    return FrameKey{*k.bValue, g[0], g[1], g[2]};
  };
  const Candidate candidates[] = {
      {[](const DicomFrameKeys& k) { return single(k.temporalPosition); }, "time point", "", 1,
       false},
      {[](const DicomFrameKeys& k) { return single(k.bValue); }, "b-value", "s/mm²", 1, false},
      {diffusion, "diffusion b-value", "s/mm²", 1, false},
      {[](const DicomFrameKeys& k) { return single(k.echoTime); }, "echo time", "ms", 1, false},
      {[](const DicomFrameKeys& k) { return single(k.triggerTime); }, "trigger time", "ms", 1,
       false},
      {[](const DicomFrameKeys& k) { return single(k.acquisitionSeconds); }, "time", "s", 1, true},
  };
  for (const Candidate& c : candidates) {
    // Every slice has the key, and at every position the N values are distinct.
    std::vector<std::vector<std::pair<FrameKey, std::size_t>>> ranked;
    bool usable = true;
    for (const auto& group : groups) {
      std::vector<std::pair<FrameKey, std::size_t>> values;
      for (std::size_t i : group) {
        const auto v = c.key(keys[i]);
        if (!v || !std::all_of(v->begin(), v->end(), [](double x) { return std::isfinite(x); })) {
          usable = false;
          break;
        }
        values.emplace_back(*v, i);
      }
      if (!usable) {
        break;
      }
      std::sort(values.begin(), values.end());
      for (std::size_t r = 1; r < values.size(); ++r) {
        if (values[r].first == values[r - 1].first) {
          usable = false;
        }
      }
      if (!usable) {
        break;
      }
      ranked.push_back(std::move(values));
    }
    if (!usable) {
      continue;
    }
    DicomFrameSplit split;
    split.axis.name = c.name;
    split.axis.unit = c.unit;
    split.frames.assign(n, {});
    for (std::size_t r = 0; r < n; ++r) {
      double sum = 0;
      for (const auto& values : ranked) {
        split.frames[r].push_back(values[r].second);
        sum += values[r].first[0];
      }
      split.axis.values.push_back(c.scale * sum / static_cast<double>(ranked.size()));
    }
    if (c.relative) {
      const double first = split.axis.values.front();
      for (double& v : split.axis.values) {
        v -= first;
      }
    }
    if (std::string(c.name) == "time point") {
      split.axis.values.clear();  // identifiers only number the time points
    }
    return split;
  }
  return std::nullopt;
}

}  // namespace delineate::core
