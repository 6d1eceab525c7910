#include "core/io/DicomUid.h"

#include <stdexcept>

#include <array>
#include <cstdint>
#include <random>

namespace delineate::core {

namespace {

// 128-bit value as four 32-bit limbs, most significant first.
using U128 = std::array<std::uint32_t, 4>;

std::string toDecimal(U128 v) {
  std::string digits;
  for (;;) {
    bool zero = true;
    std::uint64_t remainder = 0;
    for (auto& limb : v) {
      const std::uint64_t cur = (remainder << 32) | limb;
      limb = static_cast<std::uint32_t>(cur / 10);
      remainder = cur % 10;
      zero = zero && limb == 0;
    }
    digits.insert(digits.begin(), static_cast<char>('0' + remainder));
    if (zero) {
      break;
    }
  }
  return digits;
}

// Marks the value as an RFC 9562 UUID (version 8: custom; variant 10).
std::string uuidUid(U128 v) {
  v[1] = (v[1] & 0xffff0fffu) | 0x00008000u;
  v[2] = (v[2] & 0x3fffffffu) | 0x80000000u;
  return "2.25." + toDecimal(v);
}

std::uint64_t fnv1a(const std::string& s, std::uint64_t basis) {
  std::uint64_t h = basis;
  for (unsigned char c : s) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

std::uint64_t mix(std::uint64_t x) {  // splitmix64 finaliser
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

}  // namespace

std::string dicomUidFromHex(const std::string& hex) {
  if (hex.size() < 32) {
    throw std::invalid_argument("a UID needs 128 bits (32 hex digits)");
  }
  U128 v{};
  for (std::size_t i = 0; i < 4; ++i) {
    std::size_t used = 0;
    v[i] = static_cast<std::uint32_t>(std::stoul(hex.substr(8 * i, 8), &used, 16));
    if (used != 8) {
      throw std::invalid_argument("not hex: " + hex.substr(8 * i, 8));
    }
  }
  return uuidUid(v);
}

std::string newDicomUid() {
  static thread_local std::mt19937_64 rng{
      std::random_device{}() ^ (static_cast<std::uint64_t>(std::random_device{}()) << 32)};
  const std::uint64_t a = rng();
  const std::uint64_t b = rng();
  return uuidUid({static_cast<std::uint32_t>(a >> 32), static_cast<std::uint32_t>(a),
                  static_cast<std::uint32_t>(b >> 32), static_cast<std::uint32_t>(b)});
}

std::string derivedDicomUid(const std::string& parent, const std::string& name) {
  const std::string key = parent + '\x1f' + name;
  const std::uint64_t a = mix(fnv1a(key, 0xcbf29ce484222325ull));
  const std::uint64_t b = mix(fnv1a(key, 0x84222325cbf29ce4ull) ^ a);
  return uuidUid({static_cast<std::uint32_t>(a >> 32), static_cast<std::uint32_t>(a),
                  static_cast<std::uint32_t>(b >> 32), static_cast<std::uint32_t>(b)});
}

bool isValidDicomUid(const std::string& uid) {
  if (uid.empty() || uid.size() > 64 || uid.front() == '.' || uid.back() == '.') {
    return false;
  }
  bool componentStart = true;
  for (std::size_t i = 0; i < uid.size(); ++i) {
    const char c = uid[i];
    if (c == '.') {
      if (componentStart) {
        return false;  // empty component
      }
      componentStart = true;
      continue;
    }
    if (c < '0' || c > '9') {
      return false;
    }
    if (componentStart && c == '0' && i + 1 < uid.size() && uid[i + 1] != '.') {
      return false;  // leading zero
    }
    componentStart = false;
  }
  return true;
}

}  // namespace delineate::core
