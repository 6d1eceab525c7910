#include "core/upload/RetryPolicy.h"

#include <algorithm>
#include <cmath>

namespace delineate::core::upload {

double retryDelaySeconds(const RetryPolicy& policy, int attempt,
                         std::optional<double> retryAfterSeconds, std::mt19937_64& rng) {
  const double ceiling =
      std::min(policy.capSeconds, policy.baseSeconds * std::ldexp(1.0, std::clamp(attempt, 0, 60)));
  const double jittered = std::uniform_real_distribution<double>(0.0, ceiling)(rng);
  if (!retryAfterSeconds) {
    return jittered;
  }
  const double floor = std::clamp(*retryAfterSeconds, 0.0, policy.maxRetryAfterSeconds);
  return std::max(floor, jittered);
}

}  // namespace delineate::core::upload
