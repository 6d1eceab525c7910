// The built-in engine behind the AI backend interface: the models it lists, a click and six
// extreme points on a ball, and the messages for requests it cannot serve.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "annotation/engine/ClickSimulator.h"
#include "annotation/engine/ExtremePointSegmenter.h"
#include "annotation/engine/LocalEngineBackend.h"
#include "core/Error.h"
#include "core/sample/SampleCase.h"

using namespace delineate;

namespace {

struct Ball {
  core::VolumePtr image;
  annotation::BoxMask truth;
};

Ball makeBall() {
  core::ImageGeometry g;
  g.size = {40, 40, 30};
  g.spacing = {1.0, 1.0, 1.5};
  auto voxels = std::make_shared<core::VoxelBuffer>(core::ScalarType::Int16, g.voxelCount());
  Ball b;
  b.truth = annotation::BoxMask(core::VoxelBox::whole(g.size));
  std::mt19937 rng(3);
  std::normal_distribution<double> noise(0, 10);
  for (std::size_t k = 0, n = 0; k < g.size[2]; ++k) {
    for (std::size_t j = 0; j < g.size[1]; ++j) {
      for (std::size_t i = 0; i < g.size[0]; ++i, ++n) {
        const double dx = double(i) - 20, dy = double(j) - 18, dz = (double(k) - 15) * 1.5;
        const bool in = dx * dx + dy * dy + dz * dz <= 100;
        voxels->as<std::int16_t>()[n] = static_cast<std::int16_t>((in ? 200 : 50) + noise(rng));
        b.truth.bits[n] = in;
      }
    }
  }
  b.image = std::make_shared<const core::Volume>(g, voxels, core::VolumeInfo{});
  return b;
}

double diceOf(const core::LabelMap& labels, const annotation::BoxMask& truth) {
  annotation::BoxMask m(truth.box);
  for (std::size_t i = 0; i < labels.voxelCount(); ++i) {
    m.bits[i] = labels.data()[i] != 0;
  }
  return annotation::dice(m, truth);
}

}  // namespace

TEST(LocalEngineBackend, ListsAClickModelAndAnExtremePointModel) {
  annotation::LocalEngineBackend engine;
  core::NullProgress progress;
  const auto info = engine.info(progress);
  ASSERT_NE(info.findModel(annotation::LocalEngineBackend::kClickModel), nullptr);
  ASSERT_NE(info.findModel(annotation::LocalEngineBackend::kExtremeModel), nullptr);
  EXPECT_EQ(info.modelsIn(core::ai::ModelGroup::Deepgrow).size(), 1u);
}

TEST(LocalEngineBackend, OneClickAndSixExtremePointsBothGiveTheBall) {
  const Ball ball = makeBall();
  annotation::LocalEngineBackend engine;
  core::NullProgress progress;
  core::ai::InferRequest r;
  r.image = ball.image;
  r.model = annotation::LocalEngineBackend::kClickModel;
  r.label = "Ball";
  r.foreground = {{20, 18, 15}};
  const auto clicked = engine.infer(r, progress);
  EXPECT_GT(diceOf(*clicked.labels, ball.truth), 0.9);
  EXPECT_EQ(clicked.labels->segments().at(0).name, "Ball");
  EXPECT_TRUE(clicked.timings.serverSeconds.has_value());

  r.model = annotation::LocalEngineBackend::kExtremeModel;
  r.foreground.clear();
  for (const core::Size3& p : annotation::ExtremePointSegmenter::extremePointsOf(ball.truth)) {
    r.extremePoints.push_back({static_cast<std::int64_t>(p[0]), static_cast<std::int64_t>(p[1]),
                               static_cast<std::int64_t>(p[2])});
  }
  EXPECT_GT(diceOf(*engine.infer(r, progress).labels, ball.truth), 0.85);
}

TEST(LocalEngineBackend, RequestsItCannotServeSayWhy) {
  const Ball ball = makeBall();
  annotation::LocalEngineBackend engine;
  core::NullProgress progress;
  core::ai::InferRequest r;
  r.image = ball.image;
  r.model = "spleen_ct";
  r.foreground = {{20, 18, 15}};
  try {
    engine.infer(r, progress);
    FAIL();
  } catch (const core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("spleen_ct"), std::string::npos) << e.what();
  }
  r.model = annotation::LocalEngineBackend::kExtremeModel;
  r.extremePoints = {{1, 1, 1}};
  EXPECT_THROW(engine.infer(r, progress), core::Error);
  r.model = annotation::LocalEngineBackend::kClickModel;
  r.foreground = {{500, 0, 0}};
  EXPECT_THROW(engine.infer(r, progress), core::Error);
}

TEST(LocalEngineBackend, TheAutomaticDemoModelSegmentsTheSampleBrainWithoutClicks) {
  annotation::LocalEngineBackend engine;
  core::NullProgress progress;
  const auto info = engine.info(progress);
  const auto automatic = info.modelsIn(core::ai::ModelGroup::Automatic);
  ASSERT_EQ(automatic.size(), 1u);
  EXPECT_EQ(automatic[0]->name, annotation::LocalEngineBackend::kBrainMrModel);
  ASSERT_EQ(automatic[0]->labels.size(), 4u);
  EXPECT_EQ(automatic[0]->labels[2].name, "Left hippocampus");
  EXPECT_NE(automatic[0]->description.find("not for clinical use"), std::string::npos);

  const core::sample::SampleCase c = core::sample::makeBrainMr(20261121);
  core::ai::InferRequest r;
  r.model = annotation::LocalEngineBackend::kBrainMrModel;
  r.image = c.image;
  const core::ai::InferResult result = engine.infer(r, progress);
  ASSERT_NE(result.labels, nullptr);
  ASSERT_EQ(result.labels->segments().size(), 4u);
  EXPECT_EQ(result.labels->segments()[0].name, "White matter");
  EXPECT_EQ(result.params["label_names"]["Lateral ventricles"], 2);
  // White matter (the sample's label 1) and the ventricles (its label 3), voxel by voxel.
  const auto* truth = c.labels->data<std::uint16_t>();
  for (const auto& [ours, theirs] : {std::pair<int, int>{1, 1}, {2, 3}}) {
    std::size_t both = 0, a = 0, b = 0;
    for (std::size_t i = 0; i < result.labels->voxelCount(); ++i) {
      const bool x = result.labels->data()[i] == ours, y = truth[i] == theirs;
      both += x && y;
      a += x;
      b += y;
    }
    EXPECT_GT(2.0 * double(both) / double(a + b), 0.9) << "label " << ours;
  }
}
