// Key images of the report PDFs: a mammography view with its findings' CAD marks boxed in their
// colours, an MR/CT slice through a segment's largest cross-section with its outline, and a full
// mammography and brain MR report PDF built from them (the synthetic studies of core/sample). Set
// DELINEATE_KEEP_REPORT_PDF to a folder to keep the PDFs and their rendered pages there.
#include <gtest/gtest.h>

#include <cstdlib>

#include "RunCommand.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/jobs/ProgressSink.h"
#include "core/mammo/DisplayLut.h"
#include "core/report/KeyImage.h"
#include "core/report/MammographyDraft.h"
#include "core/report/ReportPdf.h"
#include "core/sample/SampleCase.h"
#include "core/sample/SampleWriter.h"

using namespace delineate::core;
using namespace delineate::core::report;
namespace fs = std::filesystem;

namespace {

// A synthetic L CC and L MLO (1280 x 1664 at 0.13 mm, chest wall on the left edge), a CAD mark
// on each view's mass (label 1 of the ground truth: its bounding box), and the report drafted
// from them.
struct MgStudy {
  std::vector<sample::SampleCase> cases;
  std::vector<mammo::MammoView> views;
  std::vector<std::shared_ptr<mammo::ImagePyramid>> pyramids;
  mammo::StudyFindings findings;
  MammographyReport report;
};

const MgStudy& mgStudy() {
  static const MgStudy study = [] {
    MgStudy s;
    s.findings.source = "Built-in demonstration detector (not a diagnosis)";
    s.findings.demonstration = true;
    s.findings.riskScore = 0.7;
    std::vector<ImageFacts> facts;
    for (const char* view : {"CC", "MLO"}) {
      s.cases.push_back(sample::makeMammogram(sample::kDefaultSeed, "L", view, false));
      const sample::SampleCase& c = s.cases.back();
      mammo::MammoView v;
      v.id = c.name + "-" + view;
      v.laterality = mammo::Laterality::Left;
      v.view = mammo::parseViewCode(view);
      s.views.push_back(v);
      auto pyramid = mammo::ImagePyramid::create(c.image);
      NullProgress progress;
      pyramid->buildLevels(progress);
      s.pyramids.push_back(pyramid);
      const auto& g = c.labels->geometry();
      const auto* labels = c.labels->data<std::uint16_t>();
      double x0 = 1e9, y0 = 1e9, x1 = -1, y1 = -1;
      for (std::size_t r = 0; r < g.size[1]; ++r) {
        for (std::size_t col = 0; col < g.size[0]; ++col) {
          if (labels[r * g.size[0] + col] == 1) {
            x0 = std::min(x0, double(col)), x1 = std::max(x1, double(col + 1));
            y0 = std::min(y0, double(r)), y1 = std::max(y1, double(r + 1));
          }
        }
      }
      s.findings.images.push_back(
          {v.id, {{"mass", (x0 + x1) / 2, (y0 + y1) / 2, x0, y0, x1, y1, 0.83}}, {}});
      ImageFacts f;
      f.imageId = v.id;
      f.view = v;
      f.columns = g.size[0];
      f.rows = g.size[1];
      f.spacingMm = g.spacing[0];
      f.chestWall = mammo::ChestWall::Left;
      facts.push_back(f);
    }
    s.report = draftFromFindings(s.findings, facts);
    return s;
  }();
  return study;
}

KeyImage mgKeyImage(std::size_t view, int width, int height) {
  const MgStudy& s = mgStudy();
  return mammographyKeyImage(s.report, s.views[view], s.findings.images[view], *s.pyramids[view],
                             mammo::defaultDisplaySettings(*s.cases[view].image), width, height);
}

double meanGrey(const KeyImage& image, int x0, int y0, int x1, int y1) {
  double sum = 0;
  for (int y = y0; y < y1; ++y) {
    for (int x = x0; x < x1; ++x) {
      sum += image.pixel(x, y)[1];
    }
  }
  return sum / ((x1 - x0) * (y1 - y0));
}

// A 40 x 30 x 10 volume (1 x 1 x 2 mm), value 10 * column; segment 3 "Tumour" a 4 x 4 square on
// slice 2 at columns 30..33 and a 10 x 10 square (the largest) on slice 6 at columns 10..19, rows
// 8..17.
struct MrScene {
  std::unique_ptr<LabelMap> labels;
  std::unique_ptr<Volume> image;
};

MrScene mrScene(const Mat3& direction = {1, 0, 0, 0, 1, 0, 0, 0, 1}) {
  ImageGeometry g;
  g.size = {40, 30, 10};
  g.spacing = {1, 1, 2};
  g.direction = direction;
  MrScene s;
  s.labels = std::make_unique<LabelMap>(
      "tumour-map", g,
      std::vector<Segment>{{.label = 3, .name = "Tumour", .color = {200, 30, 220}}});
  auto voxels = std::make_shared<VoxelBuffer>(ScalarType::Int16, g.voxelCount());
  for (std::size_t k = 0; k < 10; ++k) {
    for (std::size_t j = 0; j < 30; ++j) {
      for (std::size_t i = 0; i < 40; ++i) {
        const std::size_t n = s.labels->index(i, j, k);
        voxels->as<std::int16_t>()[n] = std::int16_t(10 * i);
        const bool small = k == 2 && i >= 30 && i < 34 && j >= 8 && j < 12;
        const bool large = k == 6 && i >= 10 && i < 20 && j >= 8 && j < 18;
        s.labels->mutableData()[n] = small || large ? 3 : 0;
      }
    }
  }
  s.image = std::make_unique<Volume>(g, voxels, VolumeInfo{});
  return s;
}

MeasurementRow tumourRow() {
  MeasurementRow row;
  row.name = "Tumour";
  row.label = 3;
  return row;
}

}  // namespace

TEST(KeyImage, MammographyViewBoxesEachLinkedMarkInItsFindingColour) {
  const MgStudy& s = mgStudy();
  ASSERT_EQ(s.report.content().findings.size(), 2u);
  const KeyImage image = mgKeyImage(0, 300, 400);
  // Fitted: 1280 x 1664 into 300 x 400 keeps the aspect (scale 300 / 1280).
  EXPECT_EQ(image.width, 300);
  EXPECT_EQ(image.height, 390);
  EXPECT_EQ(image.caption, "L CC: F1 Mass");
  const double scale = 300.0 / 1280;
  const mammo::FindingMark& m = s.findings.images[0].marks[0];
  const auto colour = findingColor(1);
  // The box's left edge (drawn just outside the mark's box) at the mark's middle row.
  const int row = int(m.row * scale);
  const int left = int(std::floor(m.x0 * scale)) - 2;
  int coloured = 0;
  for (int x = left - 3; x <= left + 3; ++x) {
    coloured += image.pixel(x, row) == colour;
  }
  EXPECT_GE(coloured, 2);
  // Inside the box the breast shows, unpainted.
  EXPECT_NE(image.pixel(int(m.column * scale), row), colour);
  // The breast (against the chest wall, left) is bright; the air beyond the nipple is dark.
  EXPECT_GT(meanGrey(image, 5, 150, 40, 240), 100);
  EXPECT_LT(meanGrey(image, 270, 5, 295, 30), 20);
  // The MLO view carries F2 only, in its own colour.
  const KeyImage mlo = mgKeyImage(1, 300, 400);
  EXPECT_EQ(mlo.caption, "L MLO: F2 Mass");
  int f2 = 0, f1 = 0;
  for (int y = 0; y < mlo.height; ++y) {
    for (int x = 0; x < mlo.width; ++x) {
      f2 += mlo.pixel(x, y) == findingColor(2);
      f1 += mlo.pixel(x, y) == findingColor(1);
    }
  }
  EXPECT_GT(f2, 100);
  EXPECT_EQ(f1, 0);
  EXPECT_THROW(mgKeyImage(0, 0, 100), Error);
}

TEST(KeyImage, MeasurementSliceIsTheLargestCrossSectionWithTheSegmentOutlined) {
  const MrScene s = mrScene();
  const KeyImage image = measurementKeyImage(tumourRow(), *s.labels, *s.image, 160, 160);
  EXPECT_EQ(image.width, 160);  // 40 x 30 mm at 4 pixels per mm
  EXPECT_EQ(image.height, 120);
  EXPECT_EQ(image.caption, "Tumour: axial slice 7 of 10 (largest cross-section, 100 mm\u00B2)");
  const std::array<std::uint8_t, 3> colour{200, 30, 220};
  EXPECT_EQ(image.pixel(40, 52), colour);   // the square's left edge (column 10, row 13)
  EXPECT_EQ(image.pixel(79, 52), colour);   // its right edge (column 19)
  EXPECT_EQ(image.pixel(60, 32), colour);   // its top edge (row 8)
  EXPECT_NE(image.pixel(60, 52), colour);   // inside: the image
  EXPECT_NE(image.pixel(125, 40), colour);  // where slice 3's small square would be
  // Windowed over the slice's values: dark on the left, bright on the right.
  EXPECT_LT(image.pixel(2, 100)[0], 20);
  EXPECT_GT(image.pixel(157, 100)[0], 235);
  EXPECT_LT(image.pixel(50, 100)[0], image.pixel(100, 100)[0]);

  // A grid whose columns run to the patient's right is mirrored: patient right stays on the left.
  const MrScene flipped = mrScene({-1, 0, 0, 0, 1, 0, 0, 0, 1});
  const KeyImage mirrored =
      measurementKeyImage(tumourRow(), *flipped.labels, *flipped.image, 160, 160);
  EXPECT_EQ(mirrored.pixel(159 - 40, 52), colour);
  EXPECT_NE(mirrored.pixel(40, 52), colour);

  MeasurementRow gone = tumourRow();
  gone.label = 9;
  try {
    measurementKeyImage(gone, *s.labels, *s.image, 160, 160);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "tumour-map");
  }
}

TEST(ReportPdf, MammographyAndBrainMrReportsWithKeyImages) {
  delineate::test::TempDir dir;
  const MgStudy& s = mgStudy();
  MammographyReport report = s.report;
  report.setSubject({"DOE^JANE", "PID-4711", "19650304", "1.2.3.4", "ACC-2026-0042"});
  report.edit("reader", "2026-01-02T03:00:00Z", [](MammographyContent& c) {
    acceptAllProposals(c);
    c.composition.set(BreastComposition::C);
    c.findings[0].massShape.set(MassShape::Irregular);
    c.findings[0].massMargin.set(MassMargin::Spiculated);
    c.assessmentOverall.set(AssessmentCategory::Suspicious);
    c.assessmentLeft.set(AssessmentCategory::Suspicious);
    c.assessmentRight.set(AssessmentCategory::Negative);
    c.management.set(standardManagement(AssessmentCategory::Suspicious));
  });
  const fs::path mg = dir / "mammography-report.pdf";
  writeMammographyReportPdf(report, {mgKeyImage(0, 600, 800), mgKeyImage(1, 600, 800)}, mg);

  const sample::SampleCase brain = sample::makeBrainMr(sample::kDefaultSeed);
  auto voxels = std::make_shared<VoxelBuffer>(ScalarType::UInt16, brain.labels->voxels().count());
  std::copy_n(brain.labels->data<std::uint16_t>(), voxels->count(), voxels->as<std::uint16_t>());
  const LabelMap labels("brain-labels", brain.labels->geometry(), voxels, brain.segments);
  NullProgress progress;
  MeasurementReport measurement = MeasurementReport::measure(labels, brain.image.get(), progress);
  measurement.setSubject({"ROE^RICHARD", "PID-0815", "19720101", "1.2.3.5", "ACC-2026-0043"});
  std::vector<KeyImage> keys;
  for (const MeasurementRow& row : measurement.rows()) {
    if (row.name == "Lateral ventricles" || row.name == "Left hippocampus head") {
      keys.push_back(measurementKeyImage(row, labels, *brain.image, 500, 500));
    }
  }
  ASSERT_EQ(keys.size(), 2u);
  const fs::path mr = dir / "measurement-report.pdf";
  writeMeasurementReportPdf(measurement, keys, mr);

  for (const fs::path& pdf : {mg, mr}) {
    std::string text;
    ASSERT_EQ(delineate::test::runCommand("pdftotext -layout '" + pdf.string() + "' -", &text), 0);
    EXPECT_NE(text.find("DRAFT"), std::string::npos) << text;
    const std::string caption = keys[0].caption.substr(0, keys[0].caption.find(" ("));
    EXPECT_NE(text.find(pdf == mg ? "L MLO: F2 Mass" : caption), std::string::npos) << text;
    if (const char* keep = std::getenv("DELINEATE_KEEP_REPORT_PDF")) {
      fs::create_directories(keep);
      fs::copy_file(pdf, fs::path(keep) / pdf.filename(), fs::copy_options::overwrite_existing);
      delineate::test::runCommand("pdftoppm -r 72 -png '" + pdf.string() + "' '" +
                                  (fs::path(keep) / pdf.stem()).string() + "'");
    }
  }
}
