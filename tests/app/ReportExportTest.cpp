// Export from the report docks in the real window, and structured reports opened read-only:
// the measurement report of a DICOM CT as a TID 1500 SR and as a PDF with the segments' key
// images (an SR of an image not read from DICOM refused, naming why), the mammography report as
// a BI-RADS SR referring to the study's views and as a PDF; our SR and another system's opened
// with File > Open report in the read-only view.
#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmsr/dsrdoc.h>

#include <QAction>
#include <QDir>
#include <QLabel>
#include <QStandardPaths>
#include <QTreeWidget>
#include <filesystem>
#include <memory>

#include "EditingTestSupport.h"
#include "GuiTestSupport.h"
#include "MammoTestStudy.h"
#include "RunCommand.h"
#include "TempDir.h"
#include "app/gui/MainWindow.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/editing/SegmentsDock.h"
#include "app/gui/editing/ToolController.h"
#include "app/gui/mammo/MammoFeature.h"
#include "app/gui/mammo/MammoFindingsController.h"
#include "app/gui/mammo/MammoReportPanel.h"
#include "app/gui/reports/MeasurementReportPanel.h"
#include "app/gui/reports/ReportExportButton.h"
#include "app/gui/reports/ReportFeature.h"
#include "app/gui/reports/SrDocumentView.h"
#include "core/report/MammographyReportSr.h"
#include "core/report/MeasurementReportSr.h"

namespace delineate::test {

namespace {

namespace cr = core::report;
namespace fs = std::filesystem;

struct Exported {
  QString file, error;
  QStringList notes;
};

// Starts an export and waits for its job.
std::optional<Exported> exportAndWait(app::ReportExportButton* button, cr::ExportFormat format,
                                      const fs::path& out) {
  std::optional<Exported> result;
  const auto c = QObject::connect(
      button, &app::ReportExportButton::exported,
      [&result](const QString& file, const QStringList& notes, const QString& error) {
        result = Exported{file, error, notes};
      });
  const bool started = button->exportTo(format, QString::fromStdString(out.string()));
  const bool done = started && waitUntil([&] { return result.has_value(); }, 60000);
  QObject::disconnect(c);
  return done ? result : std::nullopt;
}

std::string pdfText(const fs::path& pdf) {
  std::string text;
  runCommand("pdftotext -layout '" + pdf.string() + "' -", &text);
  return text;
}

// A Basic Text SR from another system.
void writeForeignSr(const fs::path& out) {
  DSRDocument doc(DSRTypes::DT_BasicTextSR);
  doc.setPatientName("Roe^Richard");
  doc.setManufacturer("Other Vendor");
  DSRDocumentTree& t = doc.getTree();
  t.addContentItem(DSRTypes::RT_isRoot, DSRTypes::VT_Container);
  t.getCurrentContentItem().setConceptName(
      DSRCodedEntryValue("18748-4", "LN", "Diagnostic Imaging Report"));
  t.addContentItem(DSRTypes::RT_contains, DSRTypes::VT_Text, DSRTypes::AM_belowCurrent);
  t.getCurrentContentItem().setConceptName(DSRCodedEntryValue("121073", "DCM", "Impression"));
  t.getCurrentContentItem().setStringValue("No change since the prior study.");
  DcmFileFormat file;
  ASSERT_TRUE(doc.write(*file.getDataset()).good());
  ASSERT_TRUE(file.saveFile(out.c_str(), EXS_LittleEndianExplicit).good());
}

class ReportExportCtTest : public EditingWindowTest {
 protected:
  explicit ReportExportCtTest(bool dicom = true) { loadAsDicom_ = dicom; }
  void SetUp() override {
    QStandardPaths::setTestModeEnabled(true);
    EditingWindowTest::SetUp();
  }
  app::MeasurementReportPanel* panel() const { return window_->reports()->measurementPanel(); }

  // Two segments drawn, then the report created.
  void drawAndMeasure() {
    window_->action("tool.brush")->trigger();
    editing()->tools()->setBrushRadiusMm(10);
    const double z = centre()[2];
    stroke(view(0), {{-20, 0, z}, {-19, 0, z}});
    editing()->segmentsDock()->addSegment();
    stroke(view(0), {{30, 0, z}, {31, 0, z}});
    ASSERT_TRUE(waitSettled());
    window_->action(QStringLiteral("report.measurements"))->trigger();
    bool done = false;
    const auto c =
        QObject::connect(panel(), &app::MeasurementReportPanel::measured, [&done] { done = true; });
    ASSERT_TRUE(panel()->createFromSegments());
    ASSERT_TRUE(waitUntil([&] { return done; }, 60000));
    QObject::disconnect(c);
    ASSERT_TRUE(panel()->report().has_value());
  }
};

class ReportExportNiftiTest : public ReportExportCtTest {
 protected:
  ReportExportNiftiTest() : ReportExportCtTest(false) {}
};

}  // namespace

TEST_F(ReportExportCtTest, MeasurementReportExportsAsSrAndAsPdfWithKeyImages) {
  drawAndMeasure();
  const auto report = *panel()->report();
  const auto sr = exportAndWait(panel()->exportButton(), cr::ExportFormat::Sr, dir_ / "m.dcm");
  ASSERT_TRUE(sr);
  ASSERT_TRUE(sr->error.isEmpty()) << sr->error.toStdString();
  const cr::MeasurementReportSrContent content = cr::readMeasurementReportSr(dir_ / "m.dcm");
  ASSERT_EQ(content.groups.size(), report.rows().size());
  for (std::size_t i = 0; i < content.groups.size(); ++i) {
    EXPECT_EQ(content.groups[i].trackingId, report.rows()[i].name);
    ASSERT_TRUE(content.groups[i].volume);
    EXPECT_DOUBLE_EQ(content.groups[i].volume->value, report.rows()[i].volumeMl);
  }
  EXPECT_FALSE(content.referencedImages.empty());

  const auto pdf = exportAndWait(panel()->exportButton(), cr::ExportFormat::Pdf, dir_ / "m.pdf");
  ASSERT_TRUE(pdf);
  ASSERT_TRUE(pdf->error.isEmpty()) << pdf->error.toStdString();
  const std::string text = pdfText(dir_ / "m.pdf");
  EXPECT_NE(text.find("Measurement report"), std::string::npos) << text;
  EXPECT_NE(text.find("DRAFT"), std::string::npos) << text;
  EXPECT_NE(text.find(report.rows()[0].name + ": axial slice"), std::string::npos) << text;
  EXPECT_NE(text.find(report.rows()[1].name + ": axial slice"), std::string::npos) << text;
  EXPECT_TRUE(panel()->statusText().contains(QStringLiteral("Exported to")));
}

TEST_F(ReportExportNiftiTest, AnSrOfAnImageNotReadFromDicomIsRefusedAndThePdfStillWorks) {
  drawAndMeasure();
  const auto before = *panel()->report();
  const auto sr = exportAndWait(panel()->exportButton(), cr::ExportFormat::Sr, dir_ / "m.dcm");
  ASSERT_TRUE(sr);
  EXPECT_TRUE(sr->error.contains(QStringLiteral("not read from DICOM"))) << sr->error.toStdString();
  EXPECT_FALSE(fs::exists(dir_ / "m.dcm"));
  EXPECT_TRUE(*panel()->report() == before);
  const auto json = exportAndWait(panel()->exportButton(), cr::ExportFormat::Json, dir_ / "m.json");
  ASSERT_TRUE(json && json->error.isEmpty());
  EXPECT_TRUE(fs::exists(dir_ / "m.json"));
}

// The sample mammography study in the reading view, its demonstration findings drafted into a
// report.
class ReportExportMammoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DELINEATE_REQUIRE_GUI();
    QStandardPaths::setTestModeEnabled(true);
    window = std::make_unique<app::MainWindow>(
        app::MainWindowOptions{.interactive = false, .rememberRecent = false});
    window->resize(1500, 950);
    window->show();
    writeSampleMammoStudy(dir / "sample");
    mammo = window->mammo();
    ASSERT_TRUE(mammo->open({QString::fromStdString((dir / "sample").string())},
                            QStringLiteral("mammo-4up")));
    ASSERT_TRUE(waitUntil([&] { return mammo->settled(); }, 60000));
    window->action(QStringLiteral("mammo.report"))->trigger();
    mammo->findings()->detect();
    ASSERT_TRUE(waitUntil([&] { return mammo->findings()->findings().has_value(); }, 60000));
    ASSERT_TRUE(mammo->reportPanel()->draftFromFindings());
    ASSERT_FALSE(mammo->reportPanel()->report()->content().findings.empty());
  }

  TempDir dir;
  std::unique_ptr<app::MainWindow> window;
  app::MammoFeature* mammo = nullptr;
};

TEST_F(ReportExportMammoTest, FindingsReplacedBreakAndRepairTheReportsMarkLinks) {
  app::MammoReportPanel* panel = mammo->reportPanel();
  const core::mammo::StudyFindings original = *mammo->findings()->findings();
  const cr::MammoFinding first = panel->report()->content().findings.front();
  // The drafted links name the images by SOP Instance UID, as the findings do.
  EXPECT_EQ(first.link.imageId.rfind("/", 0), std::string::npos) << first.link.imageId;

  core::mammo::StudyFindings fewer = original;
  for (auto& image : fewer.images) {
    if (image.imageId == first.link.imageId) {
      image.marks.clear();  // another run without that image's marks
    }
  }
  mammo->findings()->setFindings(fewer);
  const auto linkOf = [&](int id) {
    for (const cr::MammoFinding& f : panel->report()->content().findings) {
      if (f.id == id) {
        return f.link;
      }
    }
    return cr::ReportLink{};
  };
  EXPECT_TRUE(linkOf(first.id).broken);
  EXPECT_EQ(panel->report()->content().findings.front().sizeMm, first.sizeMm);  // values kept

  mammo->findings()->setFindings(original);  // the marks are back: repaired
  EXPECT_FALSE(linkOf(first.id).broken);
  ASSERT_TRUE(panel->undo());  // undoable like any change
  EXPECT_TRUE(linkOf(first.id).broken);
}

TEST_F(ReportExportMammoTest, MammographyReportExportsAsSrAndPdfAndOpensReadOnly) {
  const auto report = *mammo->reportPanel()->report();

  app::ReportExportButton* button = mammo->reportPanel()->exportButton();
  const auto sr = exportAndWait(button, cr::ExportFormat::Sr, dir / "mammo.dcm");
  ASSERT_TRUE(sr);
  ASSERT_TRUE(sr->error.isEmpty()) << sr->error.toStdString();
  const cr::MammographySrContent content = cr::readMammographyReportSr(dir / "mammo.dcm");
  EXPECT_TRUE(content.values == cr::mammographySrValues(report));
  EXPECT_EQ(content.referencedImages.size(), 4u);
  EXPECT_EQ(content.findingImages.size(), report.content().findings.size());

  const auto pdf = exportAndWait(button, cr::ExportFormat::Pdf, dir / "mammo.pdf");
  ASSERT_TRUE(pdf);
  ASSERT_TRUE(pdf->error.isEmpty()) << pdf->error.toStdString();
  const std::string text = pdfText(dir / "mammo.pdf");
  EXPECT_NE(text.find("DEMONSTRATION FINDINGS, NOT A DIAGNOSIS"), std::string::npos) << text;
  EXPECT_NE(text.find("Key images"), std::string::npos) << text;

  // Our SR, opened read-only.
  ASSERT_TRUE(window->openPath(QString::fromStdString((dir / "mammo.dcm").string())));
  app::SrDocumentView* view = window->reports()->structuredReportView();
  ASSERT_NE(view, nullptr);
  EXPECT_TRUE(view->header()->text().contains(QStringLiteral("mammography report")));
  EXPECT_TRUE(view->banner()->text().contains(QStringLiteral("Written by this program")));
  EXPECT_TRUE(view->tree()
                  ->findItems(QStringLiteral("Overall Assessment"),
                              Qt::MatchStartsWith | Qt::MatchRecursive)
                  .size() > 0);
  view->close();

  // Another system's, with what was read.
  writeForeignSr(dir / "foreign.dcm");
  ASSERT_TRUE(window->openPath(QString::fromStdString((dir / "foreign.dcm").string())));
  view = window->reports()->structuredReportView();
  ASSERT_NE(view, nullptr);
  EXPECT_TRUE(view->banner()->text().contains(QStringLiteral("another system")));
  EXPECT_EQ(view->tree()
                ->findItems(QStringLiteral("No change since the prior study."),
                            Qt::MatchExactly | Qt::MatchRecursive, 1)
                .size(),
            1);
  QDir().mkpath(QStringLiteral(DELINEATE_SCREENSHOT_DIR));
  EXPECT_TRUE(view->grab().save(QStringLiteral(DELINEATE_SCREENSHOT_DIR "/report-sr-foreign.png")));
}

}  // namespace delineate::test
