#pragma once
// Shared helpers for the tests of annotation/ops and the tools built on them: small label maps,
// images and masks made from predicates.
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "annotation/EditContext.h"
#include "annotation/ops/BoxMask.h"
#include "core/model/LabelMap.h"
#include "core/model/Volume.h"

namespace delineate::annotation::testing {

using Pred = std::function<bool(long, long, long)>;

inline core::ImageGeometry grid(core::Size3 size, core::Vec3 spacing = {1, 1, 1}) {
  core::ImageGeometry g;
  g.size = size;
  g.spacing = spacing;
  return g;
}

// A mask over `box` set where pred(i, j, k) holds (volume indices).
inline BoxMask maskOf(const core::VoxelBox& box, const Pred& pred) {
  BoxMask m(box);
  for (std::size_t k = box.lo[2]; k < box.hi[2]; ++k) {
    for (std::size_t j = box.lo[1]; j < box.hi[1]; ++j) {
      for (std::size_t i = box.lo[0]; i < box.hi[0]; ++i) {
        m.set(i, j, k, pred(long(i), long(j), long(k)) ? 1 : 0);
      }
    }
  }
  return m;
}

// Voxels of `box` where the mask differs from pred (0 when they agree everywhere; the mask is 0
// outside its own box).
inline std::size_t mismatches(const BoxMask& m, const core::VoxelBox& box, const Pred& pred) {
  std::size_t n = 0;
  for (std::size_t k = box.lo[2]; k < box.hi[2]; ++k) {
    for (std::size_t j = box.lo[1]; j < box.hi[1]; ++j) {
      for (std::size_t i = box.lo[0]; i < box.hi[0]; ++i) {
        n += (m.at(i, j, k) != 0) != pred(long(i), long(j), long(k));
      }
    }
  }
  return n;
}

inline bool inCube(long i, long j, long k, long lo, long hi) {
  return i >= lo && i < hi && j >= lo && j < hi && k >= lo && k < hi;
}

// An Int16 image on `g` with value f(i, j, k).
inline core::VolumePtr imageOf(const core::ImageGeometry& g,
                               const std::function<double(long, long, long)>& f) {
  auto voxels = std::make_shared<core::VoxelBuffer>(core::ScalarType::Int16, g.voxelCount());
  auto* p = voxels->as<std::int16_t>();
  for (std::size_t k = 0; k < g.size[2]; ++k) {
    for (std::size_t j = 0; j < g.size[1]; ++j) {
      for (std::size_t i = 0; i < g.size[0]; ++i) {
        *p++ = static_cast<std::int16_t>(f(long(i), long(j), long(k)));
      }
    }
  }
  return std::make_shared<core::Volume>(g, voxels, core::VolumeInfo{});
}

// An edit context over an empty label map with segments 1 "A", 2 "B" and 3 "Locked" (locked).
struct OpsFixture {
  core::UndoStack undo;
  EditContext ctx;
  std::vector<core::VoxelBox> notified;

  explicit OpsFixture(core::Size3 size = {32, 32, 32}, core::Vec3 spacing = {1, 1, 1}) {
    ctx.labels = std::make_shared<core::LabelMap>(
        "labels", grid(size, spacing),
        std::vector<core::Segment>{{.label = 1, .name = "A"},
                                   {.label = 2, .name = "B"},
                                   {.label = 3, .name = "Locked", .locked = true}});
    ctx.undo = &undo;
    ctx.changed = [this](const core::VoxelBox& b) { notified.push_back(b); };
  }
  core::LabelMap& map() { return *ctx.labels; }
  // Sets voxels where pred holds to `label`, bypassing undo (test setup).
  void paint(std::uint16_t label, const Pred& pred) {
    const core::Size3& n = map().geometry().size;
    for (std::size_t k = 0; k < n[2]; ++k) {
      for (std::size_t j = 0; j < n[1]; ++j) {
        for (std::size_t i = 0; i < n[0]; ++i) {
          if (pred(long(i), long(j), long(k))) {
            map().mutableData()[map().index(i, j, k)] = label;
          }
        }
      }
    }
  }
  std::size_t count(std::uint16_t label) const {
    std::size_t c = 0;
    for (std::size_t v = 0; v < ctx.labels->voxelCount(); ++v) {
      c += ctx.labels->data()[v] == label;
    }
    return c;
  }
  std::vector<std::uint16_t> snapshot() const {
    return {ctx.labels->data(), ctx.labels->data() + ctx.labels->voxelCount()};
  }
};

// Deterministic noise of SD 1 (a sum of four uniforms, about Gaussian) from a voxel's index;
// `salt` gives another field.
inline double voxelNoise(long i, long j, long k, std::uint64_t salt = 0) {
  std::uint64_t h = std::uint64_t(i) * 73856093u ^ std::uint64_t(j) * 19349663u ^
                    std::uint64_t(k) * 83492791u ^ (0x9e3779b97f4a7c15ull + salt);
  double sum = 0;
  for (int r = 0; r < 4; ++r) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    sum += double(h >> 11) / 9007199254740992.0;
  }
  return (sum - 2.0) * 1.7320508075688772;  // sqrt(3)
}

}  // namespace delineate::annotation::testing
