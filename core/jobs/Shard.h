#pragma once
// One shard of work split over N processes or machines (`--shard K/N` of delineate-cli eval and
// dataset snapshot): K from 1 to N on the command line and in reports, 0-based here.
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace delineate::core {

struct Shard {
  std::size_t index = 0;  // 0-based
  std::size_t count = 1;
};

// "K/N" with 1 <= K <= N and nothing after it; nullopt otherwise.
inline std::optional<Shard> parseShard(const std::string& text) {
  unsigned long k = 0, n = 0;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%lu/%lu%c", &k, &n, &tail) != 2 || k < 1 || k > n) {
    return std::nullopt;
  }
  return Shard{k - 1, n};
}

inline std::string shardText(const Shard& s) {
  return std::to_string(s.index + 1) + "/" + std::to_string(s.count);
}

// Why `shards` are not one whole split (every shard of the first's count exactly once): "shard
// K/N does not fit the split of M or is given twice", "shards missing: 3/4"; empty when they are.
inline std::string shardSetProblem(const std::vector<Shard>& shards) {
  if (shards.empty()) {
    return "no shards to merge";
  }
  const std::size_t count = shards.front().count;
  std::set<std::size_t> seen;
  for (const Shard& s : shards) {
    if (s.count != count || s.index >= count || !seen.insert(s.index).second) {
      return "shard " + shardText(s) + " does not fit the split of " + std::to_string(count) +
             " or is given twice";
    }
  }
  std::string missing;
  for (std::size_t k = 0; k < count; ++k) {
    if (!seen.count(k)) {
      missing += (missing.empty() ? "" : ", ") + shardText({k, count});
    }
  }
  return missing.empty() ? std::string() : "shards missing: " + missing;
}

}  // namespace delineate::core
