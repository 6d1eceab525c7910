#include "core/sample/SampleRandom.h"

namespace delineate::core::sample {

__extension__ typedef unsigned __int128 Uint128;

namespace {
double fade(double t) {
  return t * t * t * (t * (t * 6 - 15) + 10);
}
double lattice(std::uint64_t seed, std::int64_t i, std::int64_t j, std::int64_t k) {
  return hashUniform(hashCombine(seed, i, j, k)) * 2.0 - 1.0;
}
}  // namespace

double valueNoise(std::uint64_t seed, double x, double y, double z) {
  const double fx = std::floor(x), fy = std::floor(y), fz = std::floor(z);
  const auto i = static_cast<std::int64_t>(fx), j = static_cast<std::int64_t>(fy),
             k = static_cast<std::int64_t>(fz);
  const double u = fade(x - fx), v = fade(y - fy), w = fade(z - fz);
  auto lerp = [](double a, double b, double t) { return a + (b - a) * t; };
  const double x00 = lerp(lattice(seed, i, j, k), lattice(seed, i + 1, j, k), u);
  const double x10 = lerp(lattice(seed, i, j + 1, k), lattice(seed, i + 1, j + 1, k), u);
  const double x01 = lerp(lattice(seed, i, j, k + 1), lattice(seed, i + 1, j, k + 1), u);
  const double x11 = lerp(lattice(seed, i, j + 1, k + 1), lattice(seed, i + 1, j + 1, k + 1), u);
  return lerp(lerp(x00, x10, v), lerp(x01, x11, v), w);
}

double fractalNoise(std::uint64_t seed, double x, double y, double z, int octaves) {
  double sum = 0, amp = 1, norm = 0;
  for (int o = 0; o < octaves; ++o) {
    sum += amp * valueNoise(seed + static_cast<std::uint64_t>(o) * 7919u, x, y, z);
    norm += amp;
    amp *= 0.5;
    x *= 2;
    y *= 2;
    z *= 2;
  }
  return sum / norm;
}

std::string deterministicUid(std::uint64_t seed, const std::string& name) {
  std::uint64_t h = mix64(seed);
  for (unsigned char c : name) {
    h = mix64(h ^ c);
  }
  const std::uint64_t lo = mix64(h ^ 0x1234567ull);
  // 2.25.<unsigned 128-bit integer>; keep it below 2^122 like a random UUID's value.
  Uint128 v = (static_cast<Uint128>(h >> 6) << 64) | lo;
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  } while (v != 0);
  return "2.25." + digits;
}

}  // namespace delineate::core::sample
