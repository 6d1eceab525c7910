#pragma once
// When to try an upload again after a transient failure (a dropped connection, 5xx, 429):
// exponential backoff with full jitter — a uniform delay in [0, min(cap, base * 2^attempt)] — so
// that many workstations coming back after a campus outage do not hit the server in step. A
// server's Retry-After is a floor: never ask earlier than it said.
#include <optional>
#include <random>

namespace delineate::core::upload {

struct RetryPolicy {
  double baseSeconds = 1.0;
  double capSeconds = 300.0;
  // A Retry-After larger than this is taken as this (a misconfigured server must not park the
  // queue for days).
  double maxRetryAfterSeconds = 3600.0;
};

// The delay before attempt `attempt + 1`, `attempt` >= 0 counting the failures so far.
double retryDelaySeconds(const RetryPolicy& policy, int attempt,
                         std::optional<double> retryAfterSeconds, std::mt19937_64& rng);

}  // namespace delineate::core::upload
