// The reading view's pixel path: the multi-resolution pyramid, drawing a viewport from it, which
// edge the chest wall is stored against, and where the linked zoom puts each mirrored image.
#include <gtest/gtest.h>

#include <numeric>

#include "core/Error.h"
#include "core/jobs/ProgressSink.h"
#include "core/mammo/ChestWallSide.h"
#include "core/mammo/ImagePyramid.h"
#include "core/mammo/PyramidRenderer.h"
#include "core/mammo/ReadingGeometry.h"
#include "core/sample/SampleCase.h"
#include "core/sample/SampleVolumes.h"

using namespace delineate::core;
using namespace delineate::core::mammo;

namespace {

VolumePtr ramp(std::size_t columns, std::size_t rows) {
  ImageGeometry g;
  g.size = {columns, rows, 1};
  std::vector<float> v(columns * rows);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < columns; ++c) {
      v[r * columns + c] = static_cast<float>(c + 1000 * (r % 7));
    }
  }
  return sample::uint16Volume(g, v, {});
}

std::vector<std::uint8_t> identityTable() {
  std::vector<std::uint8_t> t(65536);
  for (std::size_t i = 0; i < t.size(); ++i) {
    t[i] = static_cast<std::uint8_t>(i * 37 % 251);
  }
  return t;
}

}  // namespace

TEST(ImagePyramid, SharesTheUInt16FrameAndHalvesToTheSmallestLevel) {
  const VolumePtr v = ramp(1001, 700);
  auto p = ImagePyramid::create(v);
  EXPECT_EQ(p->level(0).pixels, v->data<std::uint16_t>());  // no copy
  NullProgress progress;
  p->buildLevels(progress);
  ASSERT_TRUE(p->complete());
  ASSERT_EQ(p->levelCount(), 3u);  // 1001x700, 501x350, 251x175
  EXPECT_EQ(p->level(1).columns, 501u);
  EXPECT_EQ(p->level(2).rows, 175u);
  EXPECT_EQ(p->level(2).factor, 4u);
  // 2x2 mean: columns 2,3 of rows 0 and 1 hold 2,3 and 1002,1003.
  EXPECT_EQ(p->level(1).pixels[1], (2 + 3 + 1002 + 1003 + 2) / 4);
  // The odd last column averages with itself.
  EXPECT_EQ(p->level(1).pixels[500], (1000 + 2000 + 1) / 2);
  EXPECT_EQ(p->ownedBytes(), (501u * 350 + 251 * 175) * 2);
  EXPECT_EQ(&p->levelFor(1.0), &p->level(0));
  EXPECT_EQ(&p->levelFor(0.5), &p->level(1));
  EXPECT_EQ(&p->levelFor(0.3), &p->level(1));
  EXPECT_EQ(&p->levelFor(0.01), &p->level(2));
}

TEST(ImagePyramid, NonNegativeInt16IsSharedAndNegativeIsShifted) {
  ImageGeometry g;
  g.size = {3, 1, 1};
  for (const bool negative : {false, true}) {
    auto buffer = std::make_shared<VoxelBuffer>(ScalarType::Int16, 3);
    std::int16_t* v = buffer->as<std::int16_t>();
    v[0] = negative ? -1000 : 0;
    v[1] = 4095;
    v[2] = 12;
    auto volume = std::make_shared<Volume>(g, buffer, VolumeInfo{});
    auto p = ImagePyramid::create(volume);
    EXPECT_EQ(static_cast<const void*>(p->level(0).pixels) == static_cast<const void*>(v),
              !negative);
    EXPECT_EQ(p->ownedBytes(), negative ? 6u : 0u);
    for (int i = 0; i < 3; ++i) {
      EXPECT_DOUBLE_EQ(p->valueOf(p->level(0).pixels[i]), v[i]) << i;
    }
  }
}

TEST(ImagePyramid, CancellingStopsTheBuild) {
  auto p = ImagePyramid::create(ramp(2048, 2048));
  CancelToken token;
  token.cancel();
  NullProgress progress(token);
  EXPECT_THROW(p->buildLevels(progress), CancelledError);
  EXPECT_FALSE(p->complete());
}

TEST(ImagePyramid, FloatImagesAreQuantisedOverTheirRange) {
  ImageGeometry g;
  g.size = {4, 1, 1};
  auto buffer = std::make_shared<VoxelBuffer>(ScalarType::Float32, 4);
  float* f = buffer->as<float>();
  f[0] = -1.5f;
  f[1] = 0.f;
  f[2] = 2.f;
  f[3] = 100.f;
  auto v = std::make_shared<Volume>(g, buffer, VolumeInfo{});
  auto p = ImagePyramid::create(v);
  EXPECT_NEAR(p->valueOf(p->level(0).pixels[0]), -1.5, 1e-9);
  EXPECT_NEAR(p->valueOf(p->level(0).pixels[3]), 100.0, 1e-9);
  EXPECT_NEAR(p->valueOf(p->level(0).pixels[2]), 2.0, p->step());
}

TEST(PyramidRenderer, AtOneToOneItDrawsExactlyWhatTheFullFramePathDraws) {
  auto p = ImagePyramid::create(ramp(640, 480));
  NullProgress progress;
  p->buildLevels(progress);
  const auto table = identityTable();
  for (const bool mirror : {false, true}) {
    ViewTransform t{1.0, 200.0, 150.0, mirror};
    std::vector<std::uint8_t> a(300 * 200), b(300 * 200), scratch;
    renderPyramid(*p, table.data(), t, {a.data(), 300, 200, 300}, 7);
    renderFullFrame(*p, table.data(), t, {b.data(), 300, 200, 300}, scratch, 7);
    EXPECT_EQ(a, b);
    // Screen pixel (0, 0) samples image point (50.5 or 349.5, 50.5).
    const std::size_t column = mirror ? 349 : 50;
    EXPECT_EQ(a[0], table[column + 1000 * (50 % 7)]);
  }
}

TEST(PyramidRenderer, ZoomedOutItDrawsFromTheCoarseLevelAndPaintsTheBackgroundOutside) {
  auto p = ImagePyramid::create(ramp(1024, 1024));
  NullProgress progress;
  p->buildLevels(progress);
  const auto table = identityTable();
  // A quarter scale: level 2 (4x4 means); the whole image is 256 screen pixels wide, centred in
  // a 400 pixel target, so 72 background pixels on each side.
  ViewTransform t{0.25, 512, 512, false};
  std::vector<std::uint8_t> out(400 * 400);
  renderPyramid(*p, table.data(), t, {out.data(), 400, 400, 400}, 3);
  EXPECT_EQ(out[200 * 400 + 71], 3);
  EXPECT_EQ(out[200 * 400 + 328], 3);
  const PyramidLevel& l2 = p->level(2);
  EXPECT_EQ(out[200 * 400 + 72], table[l2.pixels[128 * l2.columns + 0]]);
}

TEST(ChestWallSide, FoundFromTheTissueAndFromTheConventionWhenFlat) {
  NullProgress progress;
  for (const char* side : {"R", "L"}) {
    const auto mammo = sample::makeMammogram(7, side, "CC", false);
    auto p = ImagePyramid::create(mammo.image);
    p->buildLevels(progress);
    const ChestWall expected = side[0] == 'R' ? ChestWall::Right : ChestWall::Left;
    EXPECT_EQ(storedChestWall(*p, false, Laterality::Unknown), expected) << side;
    // Stored the other way round (MONOCHROME1: tissue dark) the answer flips.
    EXPECT_NE(storedChestWall(*p, true, Laterality::Unknown), expected) << side;
  }
  auto flat = ImagePyramid::create(ramp(8, 8));
  EXPECT_EQ(storedChestWall(*flat, false, Laterality::Right), ChestWall::Right);
}

TEST(ReadingGeometry, FacingBreastsAreMirroredAndAlignedAtTheChestWall) {
  const PlacedImage right{1000, 1300, 0.1, ChestWall::Right};  // stored with the wall on the right
  const PlacedImage left{1000, 1300, 0.1, ChestWall::Left};
  const int w = 400, h = 600;
  // 4-up: the right breast's wall against the right edge, the left breast's against the left.
  const ViewTransform r = placeImage(right, ChestWall::Right, {}, w, h);
  const ViewTransform l = placeImage(left, ChestWall::Left, {}, w, h);
  EXPECT_FALSE(r.mirror);
  EXPECT_FALSE(l.mirror);
  EXPECT_NEAR(r.toScreen(1000, 650, w, h)[0], w, 1e-9);  // wall column on the right edge
  EXPECT_NEAR(l.toScreen(0, 650, w, h)[0], 0, 1e-9);
  EXPECT_NEAR(r.toScreen(1000, 650, w, h)[1], h / 2.0, 1e-9);
  EXPECT_NEAR(r.scale, 400.0 / 1000.0, 1e-12);  // fit: width limits (400/100 mm vs 600/130 mm)
  // Asked the other way round, the image is mirrored and still flush with the asked edge.
  const ViewTransform rm = placeImage(right, ChestWall::Left, {}, w, h);
  EXPECT_TRUE(rm.mirror);
  EXPECT_NEAR(rm.toScreen(1000, 650, w, h)[0], 0, 1e-9);

  // Linked zoom and pan: the same depth and height in both breasts at the viewports' centres.
  LinkedZoom z{8.0, 30.0, 70.0};
  const ViewTransform rz = placeImage(right, ChestWall::Right, z, w, h);
  const ViewTransform lz = placeImage(left, ChestWall::Left, z, w, h);
  const auto rc = rz.toImage(w / 2.0, h / 2.0, w, h);
  const auto lc = lz.toImage(w / 2.0, h / 2.0, w, h);
  EXPECT_NEAR(chestWallMm(right, rc[0], rc[1])[0], 30.0, 1e-9);
  EXPECT_NEAR(chestWallMm(left, lc[0], lc[1])[0], 30.0, 1e-9);
  EXPECT_NEAR(chestWallMm(left, lc[0], lc[1])[1], 70.0, 1e-9);
  EXPECT_NEAR(rz.scale, 0.8, 1e-12);
}
