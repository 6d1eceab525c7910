#include "annotation/ops/PolygonMask.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace delineate::annotation {

using core::Vec3;

namespace {

using Vec2 = std::array<double, 2>;

struct RowSpan {
  std::size_t j, k, i0, i1;  // i0..i1 inclusive
};

// Even-odd test of one point (ray towards +x).
bool insidePolygon(const std::vector<Vec2>& poly, const Vec2& p) {
  bool inside = false;
  for (std::size_t a = 0, b = poly.size() - 1; a < poly.size(); b = a++) {
    const Vec2& A = poly[a];
    const Vec2& B = poly[b];
    if ((A[1] > p[1]) != (B[1] > p[1]) &&
        p[0] < A[0] + (p[1] - A[1]) * (B[0] - A[0]) / (B[1] - A[1])) {
      inside = !inside;
    }
  }
  return inside;
}

// Parameters t where the line P0 + t dP crosses the polygon's edges, sorted. A point at t lies
// inside when an odd number of crossings lie below t.
std::vector<double> crossings(const std::vector<Vec2>& poly, const Vec2& p0, const Vec2& dp) {
  std::vector<double> ts;
  const double len2 = dp[0] * dp[0] + dp[1] * dp[1];
  auto w = [&](const Vec2& q) { return dp[0] * (q[1] - p0[1]) - dp[1] * (q[0] - p0[0]); };
  auto t = [&](const Vec2& q) { return (dp[0] * (q[0] - p0[0]) + dp[1] * (q[1] - p0[1])) / len2; };
  for (std::size_t a = 0, b = poly.size() - 1; a < poly.size(); b = a++) {
    const double wa = w(poly[a]), wb = w(poly[b]);
    if ((wa > 0) != (wb > 0)) {
      const double ta = t(poly[a]), tb = t(poly[b]);
      ts.push_back(ta + (tb - ta) * wa / (wa - wb));
    }
  }
  std::sort(ts.begin(), ts.end());
  return ts;
}

}  // namespace

BoxMask polygonMask(const core::ImageGeometry& g, const std::vector<Vec3>& outline,
                    const Vec3& sliceNormal, bool throughAllSlices) {
  if (outline.size() < 3 || g.voxelCount() == 0) {
    return {};
  }
  const Vec3 n = core::normalized(sliceNormal);
  // In-plane axes u, v: u perpendicular to n and to the world axis least aligned with it.
  int least = 0;
  for (int a = 1; a < 3; ++a) {
    if (std::abs(n[a]) < std::abs(n[least])) {
      least = a;
    }
  }
  Vec3 e{0, 0, 0};
  e[least] = 1;
  const Vec3 u = core::normalized(core::cross(n, e));
  const Vec3 v = core::cross(n, u);
  const Vec3 o = outline[0];
  auto rel = [&](const Vec3& p) { return Vec3{p[0] - o[0], p[1] - o[1], p[2] - o[2]}; };
  std::vector<Vec2> poly;
  poly.reserve(outline.size());
  for (const Vec3& p : outline) {
    poly.push_back({core::dot(rel(p), u), core::dot(rel(p), v)});
  }
  double half = 0;
  for (int a = 0; a < 3; ++a) {
    half += 0.5 * std::abs(core::dot(g.axis(a), n)) * g.spacing[a];
  }

  // Rows to visit: the whole volume through all slices, else the outline's bounds +- half.
  long from[3] = {0, 0, 0};
  long to[3] = {long(g.size[0]) - 1, long(g.size[1]) - 1, long(g.size[2]) - 1};
  if (!throughAllSlices) {
    Vec3 wlo = outline[0], whi = outline[0];
    for (const Vec3& p : outline) {
      for (int a = 0; a < 3; ++a) {
        wlo[a] = std::min(wlo[a], p[a] - half);
        whi[a] = std::max(whi[a], p[a] + half);
      }
    }
    double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
    for (int corner = 0; corner < 8; ++corner) {
      const Vec3 ijk =
          g.worldToIndex({(corner & 1) ? whi[0] : wlo[0], (corner & 2) ? whi[1] : wlo[1],
                          (corner & 4) ? whi[2] : wlo[2]});
      for (int a = 0; a < 3; ++a) {
        lo[a] = std::min(lo[a], ijk[a]);
        hi[a] = std::max(hi[a], ijk[a]);
      }
    }
    for (int a = 0; a < 3; ++a) {
      from[a] = std::max(from[a], long(std::floor(lo[a])) - 1);
      to[a] = std::min(to[a], long(std::ceil(hi[a])) + 1);
      if (from[a] > to[a]) {
        return {};
      }
    }
  }

  const Vec3 stepWorld{g.axis(0)[0] * g.spacing[0], g.axis(0)[1] * g.spacing[0],
                       g.axis(0)[2] * g.spacing[0]};
  const Vec2 dp{core::dot(stepWorld, u), core::dot(stepWorld, v)};
  const double dd = core::dot(stepWorld, n);
  const bool alongNormal = dp[0] * dp[0] + dp[1] * dp[1] < 1e-18;
  std::vector<RowSpan> spans;
  core::VoxelBox box;
  for (long k = from[2]; k <= to[2]; ++k) {
    for (long j = from[1]; j <= to[1]; ++j) {
      const Vec3 c0 = rel(g.indexToWorld({0.0, double(j), double(k)}));
      const Vec2 p0{core::dot(c0, u), core::dot(c0, v)};
      const double d0 = core::dot(c0, n);
      // The i-range within the slab.
      double ilo = double(from[0]), ihi = double(to[0]);
      if (!throughAllSlices) {
        if (std::abs(dd) < 1e-12) {
          if (std::abs(d0) > half) {
            continue;
          }
        } else {
          const double a = (-half - d0) / dd, b = (half - d0) / dd;
          ilo = std::max(ilo, std::ceil(std::min(a, b)));
          ihi = std::min(ihi, std::floor(std::max(a, b)));
        }
      }
      if (ilo > ihi) {
        continue;
      }
      auto add = [&](double a, double b) {
        a = std::max(a, ilo);
        b = std::min(b, ihi);
        if (a <= b) {
          const std::size_t i0 = std::size_t(a), i1 = std::size_t(b);
          spans.push_back({std::size_t(j), std::size_t(k), i0, i1});
          box.include(i0, std::size_t(j), std::size_t(k));
          box.include(i1, std::size_t(j), std::size_t(k));
        }
      };
      if (alongNormal) {
        if (insidePolygon(poly, p0)) {
          add(ilo, ihi);
        }
        continue;
      }
      // Inside: t in (t[2m], t[2m+1]].
      const std::vector<double> ts = crossings(poly, p0, dp);
      for (std::size_t c = 0; c + 1 < ts.size(); c += 2) {
        add(std::floor(ts[c]) + 1, std::floor(ts[c + 1]));
      }
    }
  }
  BoxMask mask(box);
  for (const RowSpan& s : spans) {
    std::uint8_t* p = mask.bits.data() + mask.index(s.i0, s.j, s.k);
    std::fill(p, p + (s.i1 - s.i0 + 1), std::uint8_t{1});
  }
  return mask;
}

}  // namespace delineate::annotation
