#include "annotation/tools/BrushTool.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>

using namespace delineate;
using namespace delineate::annotation;
using core::Vec3;

namespace {

struct Fixture {
  core::UndoStack undo;
  EditContext ctx;
  explicit Fixture(core::Size3 size = {40, 40, 20}, core::Vec3 spacing = {1, 1, 2}) {
    core::ImageGeometry g;
    g.size = size;
    g.spacing = spacing;
    ctx.labels = std::make_shared<core::LabelMap>(
        "labels", g,
        std::vector<core::Segment>{{.label = 1, .name = "A"}, {.label = 2, .name = "B"}});
    ctx.undo = &undo;
  }
  std::size_t count(std::uint16_t label) const {
    std::size_t n = 0;
    for (std::size_t v = 0; v < ctx.labels->voxelCount(); ++v) {
      n += ctx.labels->data()[v] == label;
    }
    return n;
  }
};

PointerEvent at(PointerAction a, Vec3 world, Vec3 normal = {0, 0, 1}) {
  PointerEvent e;
  e.action = a;
  e.world = world;
  e.sliceNormal = normal;
  return e;
}

void click(BrushTool& tool, Vec3 p, Vec3 normal = {0, 0, 1}) {
  tool.pointer(at(PointerAction::Press, p, normal));
  tool.pointer(at(PointerAction::Release, p, normal));
}

}  // namespace

TEST(BrushTool, AxialDiscPaintsOneSliceWithinTheRadius) {
  Fixture f;
  BrushTool brush(f.ctx);
  brush.shape().radiusMm = 5;
  click(brush, {20, 20, 10});  // voxel (20, 20, 5)
  // Exactly the voxel centres within 5 mm on slice 5: the lattice points of a radius-5 disc.
  std::size_t expected = 0;
  for (int y = -5; y <= 5; ++y) {
    for (int x = -5; x <= 5; ++x) {
      expected += x * x + y * y <= 25;
    }
  }
  EXPECT_EQ(f.count(1), expected);
  EXPECT_EQ(f.ctx.labels->at(20, 20, 5), 1);
  EXPECT_EQ(f.ctx.labels->at(25, 20, 5), 1);
  EXPECT_EQ(f.ctx.labels->at(26, 20, 5), 0);
  EXPECT_EQ(f.ctx.labels->at(20, 20, 4), 0);
  EXPECT_EQ(f.ctx.labels->at(20, 20, 6), 0);
  EXPECT_EQ(f.undo.count(), 1u);
}

TEST(BrushTool, SphereRespectsAnisotropicSpacing) {
  Fixture f;
  BrushTool brush(f.ctx);
  brush.shape() = {4.0, true};
  click(brush, {20, 20, 10});
  EXPECT_EQ(f.ctx.labels->at(20, 20, 7), 1);  // 4 mm above: slice 7 (2 mm slices)
  EXPECT_EQ(f.ctx.labels->at(20, 20, 3), 1);
  EXPECT_EQ(f.ctx.labels->at(20, 20, 8), 0);
  EXPECT_EQ(f.ctx.labels->at(24, 20, 5), 1);
  EXPECT_EQ(f.ctx.labels->at(23, 23, 5), 0);  // 4.24 mm away
}

TEST(BrushTool, AStrokeIsContiguousAndOneUndoStep) {
  Fixture f;
  BrushTool brush(f.ctx);
  brush.shape().radiusMm = 1;
  brush.pointer(at(PointerAction::Press, {2, 10, 10}));
  brush.pointer(at(PointerAction::Move, {37, 10, 10}));  // a fast drag: one event far away
  brush.pointer(at(PointerAction::Move, {37, 30, 10}));
  brush.pointer(at(PointerAction::Release, {37, 30, 10}));
  for (std::size_t i = 2; i <= 37; ++i) {
    ASSERT_EQ(f.ctx.labels->at(i, 10, 5), 1) << "gap at x=" << i;
  }
  for (std::size_t j = 10; j <= 30; ++j) {
    ASSERT_EQ(f.ctx.labels->at(37, j, 5), 1) << "gap at y=" << j;
  }
  EXPECT_EQ(f.undo.count(), 1u);
  f.undo.undo();
  EXPECT_EQ(f.count(1), 0u);
  f.undo.redo();
  EXPECT_GT(f.count(1), 50u);
}

TEST(BrushTool, EraserAndIntensityRangeAndCancel) {
  Fixture f;
  // An image whose right half is bright.
  auto voxels =
      std::make_shared<core::VoxelBuffer>(core::ScalarType::Int16, f.ctx.labels->voxelCount());
  for (std::size_t k = 0; k < 20; ++k) {
    for (std::size_t j = 0; j < 40; ++j) {
      for (std::size_t i = 0; i < 40; ++i) {
        voxels->as<std::int16_t>()[f.ctx.labels->index(i, j, k)] = i >= 20 ? 500 : 0;
      }
    }
  }
  f.ctx.image =
      std::make_shared<core::Volume>(f.ctx.labels->geometry(), voxels, core::VolumeInfo{});
  f.ctx.intensityRange = std::pair{400.0, 600.0};
  BrushTool brush(f.ctx);
  brush.shape().radiusMm = 6;
  click(brush, {20, 20, 10});
  EXPECT_EQ(f.ctx.labels->at(19, 20, 5), 0);
  EXPECT_EQ(f.ctx.labels->at(21, 20, 5), 1);
  f.ctx.intensityRange.reset();

  BrushTool eraser(f.ctx, true);
  eraser.shape().radiusMm = 2;
  click(eraser, {22, 20, 10});
  EXPECT_EQ(f.ctx.labels->at(22, 20, 5), 0);
  EXPECT_EQ(f.ctx.labels->at(25, 20, 5), 1);

  const std::size_t before = f.count(1);
  brush.pointer(at(PointerAction::Press, {10, 10, 10}));
  brush.pointer(at(PointerAction::Move, {15, 15, 10}));
  EXPECT_GT(f.count(1), before);  // visible while drawing
  brush.pointer(at(PointerAction::Cancel, {15, 15, 10}));
  EXPECT_EQ(f.count(1), before);
  EXPECT_EQ(f.undo.count(), 2u);
}

TEST(BrushTool, ObliquePlaneDiscHasNoHolesAndOneVoxelThickness) {
  Fixture f({40, 40, 40}, {1, 1, 1});
  BrushTool brush(f.ctx);
  brush.shape().radiusMm = 8;
  const double s = std::sin(std::numbers::pi / 6), c = std::cos(std::numbers::pi / 6);
  click(brush, {20, 20, 20}, {0, s, c});  // plane tilted 30 degrees about x
  // Every point of the disc, sampled finely, lands on a painted voxel.
  const Vec3 u{1, 0, 0}, v{0, c, -s};
  for (double a = -7; a <= 7; a += 0.25) {
    for (double b = -7; b <= 7; b += 0.25) {
      if (a * a + b * b > 49) {
        continue;
      }
      const long i = std::lround(20 + a * u[0] + b * v[0]);
      const long j = std::lround(20 + a * u[1] + b * v[1]);
      const long k = std::lround(20 + a * u[2] + b * v[2]);
      ASSERT_EQ(f.ctx.labels->at(i, j, k), 1) << a << "," << b;
    }
  }
  // ... and it is thin: far fewer voxels than the ball.
  EXPECT_LT(f.count(1), 3.14 * 64 * 2.0);
}

TEST(BrushTool, RadiusShortcutStaysInBounds) {
  Fixture f;
  BrushTool brush(f.ctx);
  for (int n = 0; n < 50; ++n) {
    brush.scaleRadius(1.25);
  }
  EXPECT_DOUBLE_EQ(brush.shape().radiusMm, 100.0);
  for (int n = 0; n < 80; ++n) {
    brush.scaleRadius(0.8);
  }
  EXPECT_DOUBLE_EQ(brush.shape().radiusMm, 0.5);
}
