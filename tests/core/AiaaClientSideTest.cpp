// Clara AIAA's client side without a server: the model list (GET /v1/models) and DEXTR3D's crop,
// resampling and paste-back, checked against hand-computed boxes, grids and values.
#include <gtest/gtest.h>

#include <cmath>

#include "core/Error.h"
#include "core/ai/AiaaModels.h"
#include "core/ai/Dextr3dCrop.h"

using namespace delineate::core;
using namespace delineate::core::ai;

TEST(AiaaModels, ListsModelsWithKindLabelsAndCropParameters) {
  const std::string body = R"([
    {"name": "clara_ct_annotation_spleen", "type": "annotation", "labels": ["spleen"],
     "padding": 12.5, "roi": [96, 96, 64], "sigma": 3, "version": 2},
    {"name": "clara_deepgrow_2d", "type": "deepgrow", "deepgrow": "2D", "labels": []},
    {"name": "clara_ct_seg_liver", "type": "segmentation", "labels": ["liver", "tumor"]},
    {"type": "segmentation"},
    42])";
  const std::vector<AiaaModel> models = parseAiaaModels(body, "http://aiaa:5000");
  ASSERT_EQ(models.size(), 3u) << "entries without a name are skipped";
  EXPECT_TRUE(models[0].isDextr3d());
  EXPECT_DOUBLE_EQ(models[0].paddingMm, 12.5);
  EXPECT_EQ(models[0].roi, (Size3{96, 96, 64}));
  EXPECT_EQ(models[0].version, "2");
  EXPECT_EQ(models[1].deepgrowDimension, 2);
  EXPECT_TRUE(models[1].isDeepgrow());
  EXPECT_DOUBLE_EQ(models[2].paddingMm, 20.0) << "the AIAA default";
  EXPECT_EQ(models[2].roi, (Size3{128, 128, 128}));

  const ServerInfo info = aiaaInfo(models, "http://aiaa:5000");
  ASSERT_EQ(info.models.size(), 3u);
  const ModelInfo* dextr = info.findModel("clara_ct_annotation_spleen");
  ASSERT_NE(dextr, nullptr);
  EXPECT_EQ(dextr->type, "dextr3d");
  const ModelInfo* grow = info.findModel("clara_deepgrow_2d");
  EXPECT_EQ(modelGroup(grow->type), ModelGroup::Deepgrow);
  EXPECT_EQ(grow->dimension, 2);
  const ModelInfo* liver = info.findModel("clara_ct_seg_liver");
  EXPECT_EQ(modelGroup(liver->type), ModelGroup::Automatic);
  ASSERT_EQ(liver->labels.size(), 2u);
  EXPECT_EQ(liver->labels[1].name, "tumor");
  EXPECT_EQ(liver->labels[1].value, 2);

  EXPECT_EQ(parseAiaaModels(R"({"name": "one", "type": "segmentation"})").size(), 1u);
  EXPECT_THROW(parseAiaaModels("<html>", "http://aiaa:5000"), Error);
  EXPECT_THROW(parseAiaaModels("\"models\"", "http://aiaa:5000"), Error);
  EXPECT_NO_THROW(parseAiaaModels(R"([{"name": "x", "roi": [0, -1, "a"], "padding": "no"}])"));
}

namespace {

ImageGeometry anisotropic() {
  ImageGeometry g;
  g.size = {60, 50, 30};
  g.spacing = {0.8, 0.8, 2.0};
  g.origin = {-10, 5, 20};
  // Rotated 90 degrees about z: index i runs along +y, j along -x.
  g.direction = {0, -1, 0, 1, 0, 0, 0, 0, 1};
  return g;
}

std::vector<VoxelIndex> sixPoints() {
  return {{20, 25, 15}, {40, 25, 15}, {30, 15, 15}, {30, 35, 15}, {30, 25, 10}, {30, 25, 20}};
}

}  // namespace

TEST(Dextr3dCrop, TheBoxIsThePointsPaddedInMillimetresWithinTheImage) {
  const ImageGeometry g = anisotropic();
  // 4 mm of padding: 5 voxels in i and j (0.8 mm), 2 in k (2 mm).
  const Dextr3dCrop c = planDextr3dCrop(g, sixPoints(), 4.0, {32, 32, 16});
  EXPECT_EQ(c.box.lo, (Size3{15, 10, 8}));
  EXPECT_EQ(c.box.hi, (Size3{46, 41, 23}));
  EXPECT_EQ(c.grid.size, (Size3{32, 32, 16}));
  EXPECT_NEAR(c.grid.spacing[0], 0.8 * 31 / 32, 1e-12);
  EXPECT_NEAR(c.grid.spacing[2], 2.0 * 15 / 16, 1e-12);
  EXPECT_EQ(c.grid.direction, g.direction);
  // Same physical extent: the crop's outer voxel faces are the box's.
  for (int a = 0; a < 3; ++a) {
    EXPECT_NEAR(c.toImage(a, -0.5), double(c.box.lo[a]) - 0.5, 1e-12);
    EXPECT_NEAR(c.toImage(a, double(c.roi[a]) - 0.5), double(c.box.hi[a]) - 0.5, 1e-12);
    EXPECT_NEAR(c.toCrop(a, c.toImage(a, 7.25)), 7.25, 1e-12);
  }
  // The crop's voxel (0,0,0) is where the image's continuous index says.
  const Vec3 first = g.indexToWorld({c.toImage(0, 0), c.toImage(1, 0), c.toImage(2, 0)});
  for (int a = 0; a < 3; ++a) {
    EXPECT_NEAR(c.grid.origin[a], first[a], 1e-9);
  }
  // Padding that runs over the image's edge is clamped.
  const Dextr3dCrop wide = planDextr3dCrop(g, sixPoints(), 40.0, {16, 16, 16});
  EXPECT_EQ(wide.box.lo, (Size3{0, 0, 0}));
  EXPECT_EQ(wide.box.hi, g.size);

  auto five = sixPoints();
  five.pop_back();
  EXPECT_THROW(planDextr3dCrop(g, five, 4.0, {32, 32, 16}), Error);
  auto outside = sixPoints();
  outside[0] = {60, 0, 0};
  EXPECT_THROW(planDextr3dCrop(g, outside, 4.0, {32, 32, 16}), Error);
  EXPECT_THROW(planDextr3dCrop(g, sixPoints(), 4.0, {32, 0, 16}), Error);
}

TEST(Dextr3dCrop, ResamplingIsExactOnALinearRampAndPointsMapIntoTheCrop) {
  const ImageGeometry g = anisotropic();
  auto voxels = std::make_shared<VoxelBuffer>(ScalarType::Int16, g.voxelCount());
  auto* v = voxels->as<std::int16_t>();
  const auto ramp = [](double i, double j, double k) { return 3 * i - 2 * j + 5 * k; };
  for (std::size_t k = 0, n = 0; k < g.size[2]; ++k) {
    for (std::size_t j = 0; j < g.size[1]; ++j) {
      for (std::size_t i = 0; i < g.size[0]; ++i, ++n) {
        v[n] = static_cast<std::int16_t>(ramp(double(i), double(j), double(k)));
      }
    }
  }
  const Volume image(g, voxels, VolumeInfo{});
  const Dextr3dCrop c = planDextr3dCrop(g, sixPoints(), 4.0, {32, 32, 16});
  const VolumePtr crop = resampleCrop(image, c);
  ASSERT_EQ(crop->scalarType(), ScalarType::Float32);
  EXPECT_TRUE(crop->geometry().sameGrid(c.grid));
  for (const Size3& at : {Size3{0, 0, 0}, Size3{31, 31, 15}, Size3{13, 7, 9}}) {
    const double expect =
        ramp(c.toImage(0, double(at[0])), c.toImage(1, double(at[1])), c.toImage(2, double(at[2])));
    EXPECT_NEAR(crop->valueAt(at[0], at[1], at[2]), expect, 1e-3)
        << at[0] << "," << at[1] << "," << at[2];
  }
  const std::vector<VoxelIndex> in = pointsInCrop(sixPoints(), c);
  ASSERT_EQ(in.size(), 6u);
  // (20, 25, 15): i (20 - 15 + 0.5) * 32 / 31 - 0.5 = 5.18 -> 5; j (25 - 10 + 0.5) * 32/31 - 0.5
  // = 15.5 -> 16; k (15 - 8 + 0.5) * 16 / 15 - 0.5 = 7.5 -> 8.
  EXPECT_EQ(in[0], (VoxelIndex{5, 16, 8}));
}

TEST(Dextr3dCrop, AMaskOnTheCropPastesBackOntoTheImage) {
  const ImageGeometry g = anisotropic();
  const Dextr3dCrop c = planDextr3dCrop(g, sixPoints(), 4.0, {62, 62, 30});
  // A box in image indices [22, 38) x [18, 32) x [12, 19), drawn on the crop at its voxels'
  // image positions, comes back as the same box.
  const auto inBox = [](double i, double j, double k) {
    return i >= 21.5 && i < 37.5 && j >= 17.5 && j < 31.5 && k >= 11.5 && k < 18.5;
  };
  LabelMap mask("mask", c.grid);
  for (std::size_t k = 0; k < c.roi[2]; ++k) {
    for (std::size_t j = 0; j < c.roi[1]; ++j) {
      for (std::size_t i = 0; i < c.roi[0]; ++i) {
        if (inBox(c.toImage(0, double(i)), c.toImage(1, double(j)), c.toImage(2, double(k)))) {
          mask.mutableData()[mask.index(i, j, k)] = 1;
        }
      }
    }
  }
  LabelMap back("back", g);
  back.mutableData()[back.index(0, 0, 0)] = 7;  // outside the crop: untouched
  pasteCrop(mask, c, back);
  std::size_t wrong = 0, inside = 0;
  for (std::size_t k = 0; k < g.size[2]; ++k) {
    for (std::size_t j = 0; j < g.size[1]; ++j) {
      for (std::size_t i = 1; i < g.size[0]; ++i) {
        const bool want = inBox(double(i), double(j), double(k));
        inside += want;
        wrong += (back.at(i, j, k) == 1) != want;
      }
    }
  }
  EXPECT_EQ(inside, 16u * 14u * 7u);
  EXPECT_EQ(wrong, 0u);
  EXPECT_EQ(back.at(0, 0, 0), 7);
  LabelMap small("small", anisotropic());
  EXPECT_THROW(pasteCrop(small, c, back), Error);
}
