#include "core/metrics/SignedDistanceField.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "core/Error.h"
#include "core/jobs/ParallelFor.h"
#include "core/metrics/OverlapCounts.h"
#include "core/metrics/ParabolaEnvelope.h"

namespace delineate::core {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// A box of the grid with its own strides (i fastest).
struct Domain {
  Size3 lo{};
  Size3 n{};
  std::size_t stride[3] = {1, 0, 0};
  explicit Domain(const VoxelBox& box) : lo(box.lo) {
    for (int a = 0; a < 3; ++a) {
      n[a] = box.hi[a] - box.lo[a];
    }
    stride[1] = n[0];
    stride[2] = n[0] * n[1];
  }
  std::size_t count() const { return n[0] * n[1] * n[2]; }
};

// Calls line(first) with the index of the first voxel of every line of the domain along axis
// `a`, in parallel over the outer of the two other axes.
void forEachLine(const Domain& d, int a, unsigned threads, ProgressSink& progress,
                 const std::function<void(std::size_t)>& line) {
  const int inner = a == 0 ? 1 : 0;
  const int outer = a == 2 ? 1 : 2;
  parallelFor(d.n[outer], threads, progress, [&](std::size_t o) {
    for (std::size_t m = 0; m < d.n[inner]; ++m) {
      line(o * d.stride[outer] + m * d.stride[inner]);
    }
  });
}

// The first axis of the transform for the faces perpendicular to axis `a`: along each line of
// the domain in that direction, the squared distance (mm^2) from each voxel centre to the
// nearest face between a voxel of the label and one not of it (half-integer positions). The
// domain holds every voxel of the label, so beyond its ends the line is not of the label.
void facePass(const LabelMap& map, std::uint16_t label, const Domain& d, int a, double spacing,
              unsigned threads, ProgressSink& progress, float* out) {
  const Size3& size = map.geometry().size;
  const std::size_t mapStride[3] = {1, size[0], size[0] * size[1]};
  const std::size_t n = d.n[a];
  const std::size_t step = d.stride[a];
  forEachLine(d, a, threads, progress, [&](std::size_t first) {
    // The line's first voxel in the map.
    const std::size_t i = first % d.n[0], j = first / d.n[0] % d.n[1], k = first / d.stride[2];
    const std::uint16_t* voxels = map.data() + map.index(d.lo[0] + i, d.lo[1] + j, d.lo[2] + k);
    auto in = [&](std::size_t x) { return voxels[x * mapStride[a]] == label; };
    // Positions doubled, so that faces are integers: the face between voxels x and x + 1 is at
    // 2x + 1. The distance to the nearest face before each voxel, then to the nearest after.
    bool previous = false, seen = false;  // the voxel before the line is not of the label
    long face = 0;
    for (std::size_t x = 0; x < n; ++x) {
      const bool current = in(x);
      if (current != previous) {
        face = 2 * long(x) - 1;
        seen = true;
      }
      previous = current;
      out[first + x * step] = seen ? float(2 * long(x) - face) : kInf;
    }
    bool following = false;  // nor is the voxel after it
    seen = false;
    for (std::size_t x = n; x-- > 0;) {
      const bool current = in(x);
      if (current != following) {
        face = 2 * long(x) + 1;
        seen = true;
      }
      following = current;
      float& v = out[first + x * step];
      const float doubled = seen ? std::min(v, float(face - 2 * long(x))) : v;
      const double mm = 0.5 * double(doubled) * spacing;
      v = doubled < kInf ? float(mm * mm) : kInf;
    }
  });
}

// The later axes of the transform: the lower envelope of parabolas along axis `a`, in place.
void envelopePass(const Domain& d, int a, double w, unsigned threads, ProgressSink& progress,
                  float* f) {
  forEachLine(d, a, threads, progress, [&](std::size_t first) {
    thread_local ParabolaEnvelope envelope;
    if (envelope.build(f + first, d.n[a], d.stride[a], w)) {
      envelope.writeAll(f + first, d.n[a], d.stride[a]);
    }  // else no face on this line yet: it stays infinite
  });
}

VoxelBox clampedToGrid(const VoxelBox& box, const Size3& size) {
  VoxelBox out;
  for (int a = 0; a < 3; ++a) {
    out.lo[a] = std::min(box.lo[a], size[a]);
    out.hi[a] = std::min(box.hi[a], size[a]);
  }
  return out;
}

}  // namespace

double DistanceField::at(double i, double j, double k) const {
  if (box.empty() || mm.size() != box.count()) {
    return std::numeric_limits<double>::infinity();
  }
  const double p[3] = {i, j, k};
  std::size_t n[3], lo[3], hi[3];
  double t[3];
  for (int a = 0; a < 3; ++a) {
    n[a] = box.hi[a] - box.lo[a];
    double x = p[a] - double(box.lo[a]);
    x = x > 0 ? std::min(x, double(n[a] - 1)) : 0.0;  // NaN goes to 0
    lo[a] = std::min(std::size_t(x), n[a] - 1);
    hi[a] = std::min(lo[a] + 1, n[a] - 1);
    t[a] = x - double(lo[a]);
  }
  double sum = 0;
  for (int c = 0; c < 8; ++c) {
    double weight = 1;
    std::size_t index = 0, stride = 1;
    for (int a = 0; a < 3; ++a) {
      const bool upper = (c >> a) & 1;
      weight *= upper ? t[a] : 1.0 - t[a];
      index += (upper ? hi[a] : lo[a]) * stride;
      stride *= n[a];
    }
    if (weight > 0) {  // skipping zero weights keeps an infinite field infinite, not NaN
      sum += weight * double(mm[index]);
    }
  }
  return sum;
}

DistanceField signedDistanceField(const LabelMap& map, std::uint16_t label, const VoxelBox& box,
                                  ProgressSink& progress) {
  if (label == 0) {
    throw Error(ErrorKind::InvalidInput, map.name(),
                "label 0 is the background and has no distance field");
  }
  DistanceField field;
  field.grid = map.geometry();
  field.box = clampedToGrid(box, field.grid.size);
  if (field.box.empty()) {
    field.box = {};
    return field;
  }
  SubProgress finding(progress, 0.0, 0.1);
  const VoxelBox labelBox = countOverlaps(map, map, finding).find(label).referenceBox;
  if (labelBox.empty()) {
    field.mm.assign(field.box.count(), kInf);
    progress.report(1.0, "Distance field");
    return field;
  }

  VoxelBox whole = field.box;
  whole.include(labelBox);
  const Domain d(whole);
  const Vec3& spacing = field.grid.spacing;
  const unsigned threads = hardwareThreads();
  std::vector<float> best(d.count());
  std::vector<float> work;
  int passes = 0;
  auto passDone = [&] { progress.report(0.1 + 0.85 * double(++passes) / 9.0, "Distance field"); };
  for (int a = 0; a < 3; ++a) {
    // The faces perpendicular to axis a: along a first, then the envelopes along the others.
    float* f = best.data();
    if (a > 0) {
      work.resize(d.count());
      f = work.data();
    }
    facePass(map, label, d, a, spacing[std::size_t(a)], threads, progress, f);
    passDone();
    for (int b = 0; b < 3; ++b) {
      if (b != a) {
        const double h = spacing[std::size_t(b)];
        envelopePass(d, b, h * h, threads, progress, f);
        passDone();
      }
    }
    if (a > 0) {
      std::transform(best.begin(), best.end(), work.begin(), best.begin(),
                     [](float x, float y) { return std::min(x, y); });
    }
  }
  std::vector<float>().swap(work);

  // The box's voxels: signed, in mm.
  const Domain out(field.box);
  field.mm.resize(out.count());
  parallelFor(out.n[2], threads, progress, [&](std::size_t k) {
    for (std::size_t j = 0; j < out.n[1]; ++j) {
      const std::size_t gi = field.box.lo[0], gj = field.box.lo[1] + j, gk = field.box.lo[2] + k;
      const std::uint16_t* row = map.data() + map.index(gi, gj, gk);
      const float* from = best.data() + (gi - d.lo[0]) + d.stride[1] * (gj - d.lo[1]) +
                          d.stride[2] * (gk - d.lo[2]);
      float* to = field.mm.data() + out.stride[1] * j + out.stride[2] * k;
      for (std::size_t i = 0; i < out.n[0]; ++i) {
        const float distance = std::sqrt(from[i]);
        to[i] = row[i] == label ? -distance : distance;
      }
    }
  });
  progress.report(1.0, "Distance field");
  return field;
}

}  // namespace delineate::core
