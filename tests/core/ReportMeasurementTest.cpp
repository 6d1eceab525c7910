// The MR/CT measurement report: rows are core/measure's values; a deleted segment keeps its values
// and marks the link broken; notes and sign-off.
#include <gtest/gtest.h>

#include "core/measure/SegmentMeasurements.h"
#include "core/report/MeasurementReport.h"

using namespace delineate::core;
using namespace delineate::core::report;

namespace {

struct Scene {
  std::unique_ptr<LabelMap> labels;
  std::unique_ptr<Volume> image;
};

// 20 x 20 x 10 voxels of 0.5 x 0.5 x 2 mm; "Lesion" (1) a 4 x 4 x 2 box, "Node" (2) a 2 x 3 x 1
// box; the image value is the column index + 100.
Scene scene() {
  ImageGeometry g;
  g.size = {20, 20, 10};
  g.spacing = {0.5, 0.5, 2.0};
  Scene s;
  s.labels = std::make_unique<LabelMap>(
      "labels", g,
      std::vector<Segment>{{.label = 1, .name = "Lesion"}, {.label = 2, .name = "Node"}});
  auto voxels = std::make_shared<VoxelBuffer>(ScalarType::Int16, g.voxelCount());
  for (std::size_t k = 0; k < 10; ++k) {
    for (std::size_t j = 0; j < 20; ++j) {
      for (std::size_t i = 0; i < 20; ++i) {
        const std::size_t n = s.labels->index(i, j, k);
        voxels->as<std::int16_t>()[n] = std::int16_t(100 + i);
        if (i >= 2 && i < 6 && j >= 2 && j < 6 && k >= 3 && k < 5) {
          s.labels->mutableData()[n] = 1;
        } else if (i >= 10 && i < 12 && j >= 10 && j < 13 && k == 7) {
          s.labels->mutableData()[n] = 2;
        }
      }
    }
  }
  s.image = std::make_unique<Volume>(g, voxels, VolumeInfo{});
  return s;
}

}  // namespace

TEST(ReportMeasurement, RowsAreTheValuesOfSegmentMeasurements) {
  const Scene s = scene();
  NullProgress progress;
  const MeasurementReport report = MeasurementReport::measure(*s.labels, s.image.get(), progress);
  const auto expected = measureSegments(*s.labels, s.image.get(), progress);
  ASSERT_EQ(report.rows().size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const MeasurementRow& row = report.rows()[i];
    EXPECT_EQ(row.name, expected[i].name);
    EXPECT_EQ(row.label, expected[i].label);
    EXPECT_EQ(row.volumeMl, expected[i].volumeMl);
    EXPECT_EQ(row.mean, expected[i].mean);
    EXPECT_EQ(row.sd, expected[i].sd);
    EXPECT_EQ(row.largestDiameterMm, expected[i].largestDiameterMm);
    EXPECT_EQ(row.link, ReportLink::toSegment("labels", expected[i].label));
  }
  // 32 voxels of 0.5 ml / 1000: 0.016 ml; mean of columns 2..5 + 100.
  EXPECT_NEAR(report.rows()[0].volumeMl, 32 * 0.5 / 1000, 1e-12);
  EXPECT_NEAR(*report.rows()[0].mean, 103.5, 1e-12);

  const MeasurementReport noImage = MeasurementReport::measure(*s.labels, nullptr, progress);
  EXPECT_FALSE(noImage.rows()[0].mean);
}

TEST(ReportMeasurement, DeletedSegmentKeepsItsValuesAndMarksTheLinkBroken) {
  Scene s = scene();
  NullProgress progress;
  MeasurementReport report = MeasurementReport::measure(*s.labels, s.image.get(), progress);
  const MeasurementRow node = report.rows()[1];

  // The reader deletes "Node": its voxels and its table entry.
  for (std::size_t n = 0; n < s.labels->voxelCount(); ++n) {
    if (s.labels->data()[n] == 2) {
      s.labels->mutableData()[n] = 0;
    }
  }
  std::erase_if(s.labels->segments(), [](const Segment& seg) { return seg.label == 2; });
  const auto changes =
      report.update("Dr Reader", "2026-03-04T12:00:00Z", *s.labels, s.image.get(), progress);

  ASSERT_EQ(report.rows().size(), 2u);
  const MeasurementRow& kept = report.rows()[1];
  EXPECT_TRUE(kept.link.broken);
  EXPECT_EQ(kept.volumeMl, node.volumeMl);
  EXPECT_EQ(kept.mean, node.mean);
  EXPECT_EQ(kept.largestDiameterMm, node.largestDiameterMm);
  EXPECT_FALSE(report.rows()[0].link.broken);
  ASSERT_EQ(changes.size(), 1u);
  EXPECT_EQ(changes[0].field, "rows/labels#2/link");
  EXPECT_EQ(changes[0].newValue, "segment labels#2 (broken)");
}

TEST(ReportMeasurement, NeedsAnImpressionToSignAndThenIsLocked) {
  const Scene s = scene();
  NullProgress progress;
  MeasurementReport report = MeasurementReport::measure(*s.labels, s.image.get(), progress);
  try {
    report.sign("Dr Reader", "t");
    FAIL() << "signed without an impression";
  } catch (const MissingFieldsError& e) {
    EXPECT_EQ(e.missing(), std::vector<std::string>{"impression"});
  }
  report.edit("Dr Reader", "t1",
              [](MeasurementNotes& n) { n.impression.set("Solitary lesion, 0.016 ml."); });
  report.sign("Dr Reader", "t2");
  EXPECT_THROW(report.update("Dr Reader", "t3", *s.labels, s.image.get(), progress),
               ReportLockedError);
  EXPECT_THROW(report.edit("Dr Reader", "t3", [](MeasurementNotes&) {}), ReportLockedError);
  report.addAddendum("Volume confirmed.", "Dr Other", "t4");
  EXPECT_EQ(report.signOff().addenda().size(), 1u);
}
