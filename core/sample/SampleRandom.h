#pragma once
// Deterministic, platform-independent randomness for synthetic data: the same seed gives the same
// voxels on every machine (std::normal_distribution does not promise that).
#include <cmath>
#include <cstdint>
#include <numbers>
#include <string>

namespace delineate::core::sample {

inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

inline std::uint64_t hashCombine(std::uint64_t seed, std::int64_t a, std::int64_t b = 0,
                                 std::int64_t c = 0) {
  std::uint64_t h = mix64(seed);
  h = mix64(h ^ static_cast<std::uint64_t>(a));
  h = mix64(h ^ static_cast<std::uint64_t>(b) * 0x100000001b3ull);
  return mix64(h ^ static_cast<std::uint64_t>(c) * 0xc6a4a7935bd1e995ull);
}

// Uniform in [0, 1).
inline double hashUniform(std::uint64_t h) {
  return static_cast<double>(h >> 11) * 0x1.0p-53;
}

// Standard normal from a hash (Box-Muller on two derived uniforms).
inline double hashGaussian(std::uint64_t h) {
  const double u1 = hashUniform(mix64(h)) + 1e-12;
  const double u2 = hashUniform(mix64(h ^ 0x5bd1e995ull));
  return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

// Smooth value noise in [-1, 1] on a unit lattice (quintic-faded trilinear interpolation).
double valueNoise(std::uint64_t seed, double x, double y, double z);

// Sum of `octaves` value-noise layers, each at twice the frequency and half the amplitude.
double fractalNoise(std::uint64_t seed, double x, double y, double z, int octaves);

// A deterministic DICOM UID under the 2.25 root, derived from `seed` and `name`.
std::string deterministicUid(std::uint64_t seed, const std::string& name);

}  // namespace delineate::core::sample
