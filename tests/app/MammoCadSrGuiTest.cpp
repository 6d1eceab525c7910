// A Mammography CAD SR in the study folder, in the real window: picked up with the images, its
// marks drawn on the right pixels (on the test images' markers), an optional mark hidden until
// "Optional CAD marks" is on, a not-for-presentation mark never drawn; saved as a CAD SR from the
// app and opened again.
#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>

#include <QAction>
#include <QLabel>
#include <QTableWidget>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <map>

#include "MammoWindowFixture.h"
#include "app/gui/mammo/MammoFindingsController.h"
#include "app/gui/mammo/MammoFindingsPanel.h"
#include "app/gui/pacs/DicomNodeSettings.h"
#include "core/io/DicomHeader.h"
#include "core/io/NiftiWriter.h"
#include "core/jobs/ProgressSink.h"
#include "core/report/MammoCadSr.h"
#include "net/OrthancServer.h"

namespace delineate::test {

namespace {

namespace fs = std::filesystem;
using core::mammo::FindingMark;
using core::mammo::RenderingIntent;

// The marker square of a test view as image pixel indices (MammoTestStudy.h).
struct MarkerBox {
  double column0, row0;  // first pixel
};
MarkerBox markerOf(const std::string& laterality, const std::string& view) {
  const int depth0 = kMarkerDepth;
  const double column0 = laterality == "L" ? depth0 : kMammoColumns - depth0 - 20;
  return {column0, double(markerRow(view))};
}

// A mark around the marker of a view, 4 pixels larger on each side.
FindingMark markOn(const std::string& laterality, const std::string& view, std::string kind,
                   RenderingIntent intent) {
  const MarkerBox b = markerOf(laterality, view);
  FindingMark m;
  m.kind = std::move(kind);
  m.column = b.column0 + 9.5;
  m.row = b.row0 + 9.5;
  m.x0 = b.column0 - 4, m.y0 = b.row0 - 4, m.x1 = b.column0 + 23, m.y1 = b.row0 + 23;
  m.score = 0.75;
  m.intent = intent;
  return m;
}

struct PixelBox {
  int count = 0;
  int x0 = 1 << 20, y0 = 1 << 20, x1 = -1, y1 = -1;
  double centreX() const { return 0.5 * (x0 + x1); }
};

PixelBox pixelsWhere(const QImage& g, const std::function<bool(QRgb)>& predicate, int maxY,
                     int minY = 0) {
  PixelBox b;
  for (int y = minY; y < std::min(maxY, g.height()); ++y) {
    for (int x = 0; x < g.width(); ++x) {
      if (predicate(g.pixel(x, y))) {
        ++b.count;
        b.x0 = std::min(b.x0, x), b.x1 = std::max(b.x1, x);
        b.y0 = std::min(b.y0, y), b.y1 = std::max(b.y1, y);
      }
    }
  }
  return b;
}

// The marker's grey through the test window (4000 at centre 2048, width 4096).
bool markerGrey(QRgb p) {
  return std::abs(qGray(p) - 249) <= 1 && qRed(p) == qGreen(p) && qGreen(p) == qBlue(p);
}
// The marks' pen colours (MammoOverlays.cpp), also where anti-aliasing mixes them with grey.
bool massColour(QRgb p) {  // (255, 90, 60)
  return qRed(p) > qGreen(p) + 60 && qRed(p) > qBlue(p) + 60;
}
bool calcificationColour(QRgb p) {  // (80, 220, 255)
  return qGreen(p) > qRed(p) + 50 && qBlue(p) > qRed(p) + 50;
}
bool asymmetryColour(QRgb p) {  // (200, 140, 255)
  return qBlue(p) > qGreen(p) + 50 && qRed(p) > qGreen(p) + 20;
}

class MammoCadSrGuiTest : public MammoWindowTest {
 protected:
  int portShowing(const QString& title) const {
    for (int i = 0; i < view()->viewportCount(); ++i) {
      if (port(i)->image() && port(i)->image()->title == title) {
        return i;
      }
    }
    return -1;
  }

  // The marker's pixels and, above the marker's centre (away from the mark's label below it),
  // the pixels of the mark's colour in viewport i.
  void expectMarkAroundMarker(int i, const std::function<bool(QRgb)>& colour) {
    const QImage g = grab(i);
    // Clear of the captions, whose anti-aliased text has every grey.
    const PixelBox marker = pixelsWhere(g, markerGrey, g.height() - 40, 50);
    ASSERT_GT(marker.count, 100);
    const int middle = (marker.y0 + marker.y1) / 2;
    const PixelBox mark = pixelsWhere(g, colour, middle);
    ASSERT_GT(mark.count, 10);
    EXPECT_NEAR(mark.centreX(), 0.5 * (marker.x0 + marker.x1), 3.0);
    // The mark's top is 4 image pixels (and 4 screen pixels of margin) above the marker's.
    EXPECT_LT(mark.y0, marker.y0);
    EXPECT_GT(mark.y0, marker.y0 - 8 * fitScale(i) - 8);
  }
};

}  // namespace

TEST_F(MammoCadSrGuiTest, ACadReportInTheStudyIsDrawnWithItsRenderingIntents) {
  const fs::path study = dir_ / "study";
  writeTestStudy(study, "current", "20260502");
  std::map<std::string, std::string> uidOf;  // "R CC" -> SOP Instance UID
  std::vector<fs::path> views;
  for (const auto& e : fs::recursive_directory_iterator(study)) {
    if (e.is_regular_file()) {
      const core::DicomFileHeader h = core::readDicomHeader(e.path().string());
      uidOf[h.laterality + " " + h.viewPosition] = h.sopInstanceUid;
      views.push_back(e.path());
    }
  }
  ASSERT_EQ(uidOf.size(), 4u);
  core::mammo::StudyFindings cad;
  cad.source = "Vendor CAD 7";
  cad.images.push_back(
      {uidOf["R CC"], {markOn("R", "CC", "mass", RenderingIntent::Required)}, std::nullopt});
  cad.images.push_back({uidOf["L CC"],
                        {markOn("L", "CC", "calcification", RenderingIntent::Optional)},
                        std::nullopt});
  cad.images.push_back({uidOf["R MLO"],
                        {markOn("R", "MLO", "asymmetry", RenderingIntent::NotForPresentation)},
                        std::nullopt});
  core::report::writeMammographyCadSr(cad, views, study / "cad.dcm");

  ASSERT_TRUE(open({QString::fromStdString(study.string())}));
  app::MammoFindingsController* findings = mammo()->findings();
  ASSERT_TRUE(waitUntil([&] { return findings->findings().has_value(); }));
  const QString text = view()->findingsText();
  EXPECT_TRUE(text.contains(QStringLiteral("Vendor CAD 7"))) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("All algorithms succeeded; with findings")))
      << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("1 mark(s) (1 optional hidden)"))) << text.toStdString();

  const int rcc = portShowing(QStringLiteral("R CC"));
  const int lcc = portShowing(QStringLiteral("L CC"));
  const int rmlo = portShowing(QStringLiteral("R MLO"));
  ASSERT_GE(rcc, 0);
  ASSERT_GE(lcc, 0);
  ASSERT_GE(rmlo, 0);
  expectMarkAroundMarker(rcc, massColour);
  EXPECT_EQ(pixelsWhere(grab(lcc), calcificationColour, 1 << 20).count, 0);
  EXPECT_EQ(pixelsWhere(grab(rmlo), asymmetryColour, 1 << 20).count, 0);

  // The findings list: the two marks the reader may see (not the one not for presentation), the
  // optional one said to be hidden; choosing it turns optional marks on and steps to it.
  window_->action(QStringLiteral("mammo.findings.list"))->trigger();
  QTableWidget* list = findings->panel()->table();
  ASSERT_EQ(list->rowCount(), 2);
  EXPECT_TRUE(findings->panel()->header()->text().contains(QStringLiteral("Vendor CAD 7")));
  int optionalRow = -1;
  for (int r = 0; r < 2; ++r) {
    if (list->item(r, 1)->text() == QStringLiteral("calcification")) {
      optionalRow = r;
      EXPECT_EQ(list->item(r, 0)->text(), QStringLiteral("L CC"));
      EXPECT_EQ(list->item(r, 4)->text(), QStringLiteral("optional, hidden"));
    }
  }
  ASSERT_GE(optionalRow, 0);
  Q_EMIT list->cellClicked(optionalRow, 0);
  EXPECT_TRUE(view()->state()->optionalMarksShown());
  EXPECT_TRUE(window_->action(QStringLiteral("mammo.findings.optionalMarks"))->isChecked());
  EXPECT_TRUE(view()->findingsText().contains(QStringLiteral(": calcification 0.75")))
      << view()->findingsText().toStdString();
  EXPECT_EQ(list->item(optionalRow, 4)->text(), QStringLiteral("optional"));
  // Optional marks on: the calcification cluster appears on its marker; the other stays hidden.
  expectMarkAroundMarker(lcc, calcificationColour);
  EXPECT_EQ(pixelsWhere(grab(rmlo), asymmetryColour, 1 << 20).count, 0);
  EXPECT_TRUE(view()->findingsText().contains(QStringLiteral("2 mark(s)")))
      << view()->findingsText().toStdString();

  // Saved from the app as a CAD SR and opened again: the same marks.
  const QString saved = QString::fromStdString((dir_ / "saved-cad.dcm").string());
  ASSERT_TRUE(findings->saveFile(saved));
  findings->clear();
  ASSERT_FALSE(findings->findings().has_value());
  ASSERT_TRUE(findings->openFile(saved));
  ASSERT_EQ(findings->findings()->images.size(), 3u);
  expectMarkAroundMarker(rcc, massColour);
}

// A probability map as an image: a NIfTI on the images' grid fits every view, so it needs the
// view named; a DICOM Parametric Map names its image and lands there on its own. The heatmap is
// drawn warm over the marker it covers.
TEST_F(MammoCadSrGuiTest, AProbabilityImageBecomesTheHeatmapOfItsImage) {
  const fs::path study = dir_ / "study";
  writeTestStudy(study, "current", "20260502");
  std::map<std::string, std::string> uidOf;
  for (const auto& e : fs::recursive_directory_iterator(study)) {
    if (e.is_regular_file()) {
      const core::DicomFileHeader h = core::readDicomHeader(e.path().string());
      uidOf[h.laterality + " " + h.viewPosition] = h.sopInstanceUid;
    }
  }
  ASSERT_TRUE(open({QString::fromStdString(study.string())}));
  app::MammoFindingsController* findings = mammo()->findings();
  // Hot (0.9) over the R CC marker, 0 elsewhere.
  const MarkerBox b = markerOf("R", "CC");
  auto hot = [&](std::size_t c, std::size_t r) {
    return c >= b.column0 && c < b.column0 + 20 && r >= b.row0 && r < b.row0 + 20 ? 0.9 : 0.0;
  };
  core::ImageGeometry g;
  g.size = {std::size_t(kMammoColumns), std::size_t(kMammoRows), 1};
  auto voxels = std::make_shared<core::VoxelBuffer>(core::ScalarType::Float32, g.voxelCount());
  for (std::size_t r = 0; r < g.size[1]; ++r) {
    for (std::size_t c = 0; c < g.size[0]; ++c) {
      voxels->as<float>()[r * g.size[0] + c] = static_cast<float>(hot(c, r));
    }
  }
  core::NullProgress quiet;
  const fs::path nii = dir_ / "probability.nii.gz";
  core::writeNiftiFile(core::Volume(g, voxels, {}), nii, quiet);

  const QString file = QString::fromStdString(nii.string());
  findings->openHeatmapFile(file);  // fits all four views: refused, nothing shown
  ASSERT_TRUE(waitUntil([this] { return mammo()->settled(); }));
  EXPECT_FALSE(findings->findings().has_value());

  const int rcc = portShowing(QStringLiteral("R CC"));
  findings->openHeatmapFile(file, QStringLiteral("R CC"));
  ASSERT_TRUE(waitUntil([&] { return findings->findings().has_value(); }));
  ASSERT_EQ(findings->findings()->images.size(), 1u);
  EXPECT_EQ(findings->findings()->images[0].imageId, uidOf["R CC"]);
  // With and without the heatmap (the layout is the same): only warm changes, over the marker.
  const QImage with = grab(rcc);
  window_->action(QStringLiteral("mammo.findings.heatmap"))->setChecked(false);
  const QImage without = grab(rcc);
  window_->action(QStringLiteral("mammo.findings.heatmap"))->setChecked(true);
  PixelBox warm;
  int cold = 0;
  for (int y = 0; y < with.height(); ++y) {
    for (int x = 0; x < with.width(); ++x) {
      const QRgb a = with.pixel(x, y);
      if (a == without.pixel(x, y)) {
        continue;
      }
      if (qRed(a) > qBlue(a) + 10) {
        ++warm.count;
        warm.x0 = std::min(warm.x0, x), warm.x1 = std::max(warm.x1, x);
        warm.y0 = std::min(warm.y0, y), warm.y1 = std::max(warm.y1, y);
      } else {
        ++cold;
      }
    }
  }
  const PixelBox marker = pixelsWhere(without, markerGrey, without.height() - 40, 50);
  ASSERT_GT(warm.count, 100);
  EXPECT_LT(cold, warm.count / 50);  // anti-aliased edges at most
  EXPECT_NEAR(warm.centreX(), marker.centreX(), 2.0);
  EXPECT_NEAR(0.5 * (warm.y0 + warm.y1), 0.5 * (marker.y0 + marker.y1), 2.0);
  EXPECT_NEAR(warm.x1 - warm.x0, marker.x1 - marker.x0, 3);

  // A DICOM Parametric Map a quarter of the image's size that names L CC lands there unasked.
  DcmFileFormat ff;
  DcmDataset* ds = ff.getDataset();
  ds->putAndInsertString(DCM_SOPClassUID, "1.2.840.10008.5.1.4.1.1.30");
  ds->putAndInsertString(DCM_SOPInstanceUID, "1.2.826.0.1.3680043.10.1234.66.1");
  ds->putAndInsertUint16(DCM_Rows, kMammoRows / 4);
  ds->putAndInsertUint16(DCM_Columns, kMammoColumns / 4);
  ds->putAndInsertString(DCM_NumberOfFrames, "1");
  std::vector<Float32> quarter(std::size_t(kMammoRows / 4 * kMammoColumns / 4), 0.8f);
  ds->putAndInsertFloat32Array(DCM_FloatPixelData, quarter.data(), quarter.size());
  DcmItem* item = nullptr;
  ds->findOrCreateSequenceItem(DCM_ReferencedSeriesSequence, item, 0);
  DcmItem* instance = nullptr;
  item->findOrCreateSequenceItem(DCM_ReferencedInstanceSequence, instance, 0);
  instance->putAndInsertString(DCM_ReferencedSOPInstanceUID, uidOf["L CC"].c_str());
  const fs::path map = dir_ / "map.dcm";
  ASSERT_TRUE(ff.saveFile(map.c_str(), EXS_LittleEndianExplicit).good());
  findings->openHeatmapFile(QString::fromStdString(map.string()));
  ASSERT_TRUE(waitUntil([&] { return findings->findings()->images.size() == 2; }));
  const core::mammo::ImageFindings& lcc = findings->findings()->images[1];
  EXPECT_EQ(lcc.imageId, uidOf["L CC"]);
  ASSERT_TRUE(lcc.heatmap.has_value());
  EXPECT_DOUBLE_EQ(lcc.heatmap->step, 4.0);
  EXPECT_TRUE(findings->findings()->images[0].heatmap.has_value());  // R CC's stays
}

// Mammography > Send CAD report to PACS…: the findings shown reach a real PACS (Orthanc on
// 127.0.0.1, DIMSE) as a Mammography CAD SR of the study.
TEST_F(MammoCadSrGuiTest, TheFindingsReachThePacsAsACadReport) {
  if (!OrthancServer::installed()) {
    GTEST_SKIP() << "Orthanc is not installed (scripts/install-deps.sh)";
  }
  ForgetPacsNodes forget;
  OrthancServer pacs(dir_ / "pacs");
  ASSERT_TRUE(pacs.running());
  app::DicomNodeSettings settings;
  settings.nodes = {pacs.node()};
  settings.save();

  const fs::path study = dir_ / "study";
  writeTestStudy(study, "current", "20260502");
  ASSERT_TRUE(open({QString::fromStdString(study.string())}));
  app::MammoFindingsController* findings = mammo()->findings();
  findings->sendCadReport();  // nothing to send yet: said, nothing sent
  EXPECT_EQ(pacs.get("/instances").size(), 0u);
  window_->action(QStringLiteral("mammo.findings.detect"))->trigger();
  ASSERT_TRUE(waitUntil([&] { return findings->findings().has_value(); }, 60000));
  ASSERT_TRUE(waitUntil([this] { return mammo()->settled(); }));

  QString sentTo;
  QObject::connect(findings, &app::MammoFindingsController::cadReportSent,
                   [&](const QString& node) { sentTo = node; });
  window_->action(QStringLiteral("mammo.findings.sendCad"))->trigger();
  ASSERT_TRUE(waitUntil([&] { return !sentTo.isEmpty(); }, 30000));
  const nlohmann::json instances = pacs.get("/instances");
  ASSERT_EQ(instances.size(), 1u);
  const nlohmann::json tags =
      pacs.get("/instances/" + instances[0].get<std::string>() + "/simplified-tags");
  EXPECT_EQ(tags.value("SOPClassUID", ""), core::report::kMammographyCadSrClass);
  EXPECT_EQ(tags.value("StudyInstanceUID", ""), mammo()->hanging().currentStudy);
}

}  // namespace delineate::test
