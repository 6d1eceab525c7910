// The report docks in the real window: the mammography report read first (no AI values, marks or
// heatmap until the reader's own assessment is recorded and the AI revealed; both assessments
// kept), per-finding editing with its provenance, undo and redo by key and button with their
// audit; the measurement report of a CT with segments (values as core measures them, a deleted
// segment's row kept and marked broken, signing without an impression refused, JSON round trip
// through File > Open report, broken files named with their line). Screenshots of both docks go
// to DELINEATE_SCREENSHOT_DIR.
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QKeyEvent>
#include <QListWidget>
#include <QPushButton>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTreeWidget>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>

#include "EditingTestSupport.h"
#include "GuiTestSupport.h"
#include "MammoTestStudy.h"
#include "TempDir.h"
#include "app/gui/MainWindow.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/editing/SegmentsDock.h"
#include "app/gui/editing/ToolController.h"
#include "app/gui/mammo/MammoFeature.h"
#include "app/gui/mammo/MammoFindingEditor.h"
#include "app/gui/mammo/MammoFindingsController.h"
#include "app/gui/mammo/MammoReadFirstBox.h"
#include "app/gui/mammo/MammoReportPanel.h"
#include "app/gui/reports/MeasurementReportPanel.h"
#include "app/gui/reports/ReportFeature.h"
#include "core/measure/SegmentMeasurements.h"
#include "core/report/AuditTrail.h"
#include "core/report/MammographyReportJson.h"
#include "viewers/mammo/MammoReadingView.h"
#include "viewers/mammo/MammoViewport.h"

namespace delineate::test {

namespace {

namespace cr = core::report;

const QString kEdited = QStringLiteral("edited (differs from the AI)");

// Sends a key as the window system does: first ShortcutOverride (true when a widget claims the
// key before the window's shortcuts), then press and release to the focus widget.
bool shortcutKey(QWidget* focus, int key, Qt::KeyboardModifiers mods) {
  QKeyEvent override(QEvent::ShortcutOverride, key, mods);
  override.ignore();
  QApplication::sendEvent(focus, &override);
  if (!override.isAccepted()) {
    return false;
  }
  QKeyEvent press(QEvent::KeyPress, key, mods);
  QApplication::sendEvent(focus, &press);
  QKeyEvent release(QEvent::KeyRelease, key, mods);
  QApplication::sendEvent(focus, &release);
  return true;
}

void saveScreenshot(QWidget* w, const char* name) {
  QDir().mkpath(QStringLiteral(DELINEATE_SCREENSHOT_DIR));
  EXPECT_TRUE(w->grab().save(QStringLiteral(DELINEATE_SCREENSHOT_DIR "/") + name));
}

// The provenance column of a field's row ("" when the row is missing).
QString provenanceOf(QTreeWidget* tree, const QString& path) {
  for (int i = 0; i < tree->topLevelItemCount(); ++i) {
    if (tree->topLevelItem(i)->text(0) == path) {
      return tree->topLevelItem(i)->text(3);
    }
  }
  return {};
}

std::vector<cr::AuditEntry> auditTrail() {
  return cr::readAuditTrail(app::MammoReportPanel::auditFile().toStdString());
}

bool hasAction(const std::vector<cr::AuditEntry>& trail, const std::string& action) {
  return std::any_of(trail.begin(), trail.end(),
                     [&](const cr::AuditEntry& e) { return e.action == action; });
}

class ReportPanelMammoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DELINEATE_REQUIRE_GUI();
    QStandardPaths::setTestModeEnabled(true);
    QFile::remove(app::MammoReportPanel::auditFile());
    window_ = std::make_unique<app::MainWindow>(
        app::MainWindowOptions{.interactive = false, .rememberRecent = false});
    window_->resize(1500, 950);
    window_->show();
    writeSampleMammoStudy(dir_ / "sample");
    ASSERT_TRUE(mammo()->open({QString::fromStdString((dir_ / "sample").string())},
                              QStringLiteral("mammo-4up")));
    ASSERT_TRUE(waitUntil([this] { return mammo()->settled(); }, 60000));
    window_->action(QStringLiteral("mammo.report"))->trigger();
  }
  void TearDown() override {
    window_.reset();
    QFile::remove(app::MammoReportPanel::auditFile());
  }

  app::MammoFeature* mammo() const { return window_->mammo(); }
  app::MammoReportPanel* panel() const { return mammo()->reportPanel(); }
  viewers::MammoViewport* leftCc() const { return mammo()->view()->viewport(1); }

  bool detect() {
    mammo()->findings()->detect();
    return waitUntil([this] { return mammo()->findings()->findings().has_value(); }, 60000) &&
           waitUntil([this] { return mammo()->settled(); });
  }

  // Red-orange CAD mark outline pixels in the L CC viewport.
  int markPixels() const {
    const QImage g = leftCc()->grab().toImage().convertToFormat(QImage::Format_RGB32);
    int n = 0;
    for (int y = 0; y < g.height(); ++y) {
      for (int x = 0; x < g.width(); ++x) {
        const QRgb p = g.pixel(x, y);
        n += qRed(p) > 230 && qGreen(p) > 70 && qGreen(p) < 110 && qBlue(p) < 80 ? 1 : 0;
      }
    }
    return n;
  }

  int rowsWith(int column, const QString& text) const {
    int n = 0;
    for (int i = 0; i < panel()->fields()->topLevelItemCount(); ++i) {
      n += panel()->fields()->topLevelItem(i)->text(column) == text ? 1 : 0;
    }
    return n;
  }

  TempDir dir_;
  std::unique_ptr<app::MainWindow> window_;
};

class ReportPanelMeasurementTest : public EditingWindowTest {
 protected:
  void SetUp() override {
    QStandardPaths::setTestModeEnabled(true);
    QFile::remove(app::MammoReportPanel::auditFile());
    EditingWindowTest::SetUp();
  }
  void TearDown() override {
    EditingWindowTest::TearDown();
    QFile::remove(app::MammoReportPanel::auditFile());
  }

  app::MeasurementReportPanel* panel() const { return window_->reports()->measurementPanel(); }
  QTableWidget* table() const { return panel()->table(); }

  // Runs create (or update) and waits for its job.
  bool measure(bool update) {
    bool done = false;
    const auto c =
        QObject::connect(panel(), &app::MeasurementReportPanel::measured, [&done] { done = true; });
    const bool started = update ? panel()->update() : panel()->createFromSegments();
    const bool ok = started && waitUntil([&] { return done; }, 60000);
    QObject::disconnect(c);
    return ok;
  }

  int rowOf(const QString& name) const {
    for (int i = 0; i < table()->rowCount(); ++i) {
      if (table()->item(i, app::MeasurementReportPanel::Name)->text() == name) {
        return i;
      }
    }
    return -1;
  }
};

}  // namespace

TEST_F(ReportPanelMammoTest, ReadFirstHidesTheAiUntilTheOwnAssessmentIsRecordedThenShowsBoth) {
  panel()->readFirstCheck()->setChecked(true);
  ASSERT_TRUE(detect());
  // The reading view draws no mark and names no AI result.
  EXPECT_EQ(markPixels(), 0);
  EXPECT_FALSE(mammo()->view()->findingsText().contains(QStringLiteral("AI:")))
      << mammo()->view()->findingsText().toStdString();
  EXPECT_TRUE(mammo()->view()->findingsText().contains(QStringLiteral("hidden")));

  ASSERT_TRUE(panel()->draftFromFindings());
  ASSERT_TRUE(panel()->report()->readFirst().enabled);
  EXPECT_FALSE(panel()->report()->aiVisible());
  // The dock shows no AI value: one row saying so, no finding to edit.
  EXPECT_EQ(panel()->fields()->topLevelItemCount(), 1);
  EXPECT_EQ(rowsWith(3, QStringLiteral("AI-proposed")), 0);
  EXPECT_EQ(panel()->findingEditor()->list()->count(), 0);
  EXPECT_FALSE(
      panel()->statusText().contains(QStringLiteral("demonstration"), Qt::CaseInsensitive));
  EXPECT_EQ(markPixels(), 0);
  app::MammoReadFirstBox* box = panel()->readFirstBox();
  ASSERT_TRUE(box->isVisible());
  EXPECT_FALSE(box->revealButton()->isEnabled());  // not before an own assessment
  saveScreenshot(window_.get(), "report-mammo-read-first.png");

  // The reader's own BI-RADS 4, recorded, then the AI revealed.
  box->assessmentCombo()->setCurrentIndex(box->assessmentCombo()->findData(QStringLiteral("4")));
  box->recordButton()->click();
  ASSERT_EQ(panel()->report()->readFirst().ownAssessment, cr::AssessmentCategory::Suspicious);
  ASSERT_TRUE(box->revealButton()->isEnabled());
  box->revealButton()->click();
  ASSERT_TRUE(panel()->report()->aiVisible());
  EXPECT_GT(rowsWith(3, QStringLiteral("AI-proposed")), 3);
  EXPECT_GT(panel()->findingEditor()->list()->count(), 0);
  ASSERT_TRUE(waitUntil([this] { return markPixels() > 30; }, 10000));
  EXPECT_TRUE(mammo()->view()->findingsText().contains(QStringLiteral("NOT A DIAGNOSIS")));
  EXPECT_FALSE(box->recordButton()->isEnabled());  // the own assessment is fixed now

  // The final assessment differs from the own one; both are shown and kept.
  ASSERT_TRUE(panel()->setAssessment(cr::AssessmentCategory::Incomplete));
  EXPECT_TRUE(box->text().contains(QStringLiteral("before the AI: BI-RADS 4")))
      << box->text().toStdString();
  EXPECT_TRUE(box->text().contains(QStringLiteral("Final assessment: BI-RADS 0")))
      << box->text().toStdString();
  EXPECT_EQ(panel()->report()->readFirst().ownAssessment, cr::AssessmentCategory::Suspicious);
  saveScreenshot(window_.get(), "report-mammo-revealed.png");
  const auto trail = auditTrail();
  EXPECT_TRUE(hasAction(trail, "own-assessment"));
  EXPECT_TRUE(hasAction(trail, "reveal-ai"));
}

TEST_F(ReportPanelMammoTest, APerFindingEditIsEditedUndoneToAiProposedAndRedone) {
  ASSERT_TRUE(detect());
  ASSERT_TRUE(panel()->draftFromFindings());
  app::MammoFindingEditor* editor = panel()->findingEditor();
  panel()->tabs()->setCurrentWidget(editor);
  ASSERT_GT(editor->list()->count(), 0);
  ASSERT_GT(editor->list()->count(), 1);
  EXPECT_EQ(mammo()->view()->state()->currentMark(), -1);
  editor->list()->setCurrentRow(1);
  const int id = editor->selectedFinding();
  ASSERT_GT(id, 0);
  // Selecting the finding highlights its CAD mark, as stepping to it would.
  EXPECT_GE(mammo()->view()->state()->currentMark(), 0);
  EXPECT_TRUE(mammo()->view()->findingsText().contains(QStringLiteral(" · mark ")))
      << mammo()->view()->findingsText().toStdString();
  auto finding = [&]() -> const cr::MammoFinding& {
    for (const cr::MammoFinding& f : panel()->report()->content().findings) {
      if (f.id == id) {
        return f;
      }
    }
    throw std::runtime_error("the finding is gone");
  };
  const QString kindPath = QStringLiteral("findings/F%1/kind").arg(id);
  EXPECT_EQ(provenanceOf(panel()->fields(), kindPath), QStringLiteral("AI-proposed"));

  // A kind other than the AI's: the descriptors of the new kind become editable, the others not.
  const auto aiKind = finding().kind.value();
  const bool toMass = aiKind == cr::FindingKind::Calcification;
  QComboBox* kind = editor->kindCombo();
  const int wanted =
      kind->findData(toMass ? QStringLiteral("mass") : QStringLiteral("calcification"));
  ASSERT_GE(wanted, 0);
  kind->setCurrentIndex(wanted);
  Q_EMIT kind->activated(wanted);
  EXPECT_EQ(provenanceOf(panel()->fields(), kindPath), kEdited);
  EXPECT_EQ(editor->selectedFinding(), id);
  EXPECT_EQ(editor->calcificationMorphologyCombo()->isEnabled(), !toMass);
  EXPECT_EQ(editor->massShapeCombo()->isEnabled(), toMass);
  EXPECT_TRUE(panel()->differencesText().contains(kindPath))
      << panel()->differencesText().toStdString();
  saveScreenshot(window_.get(), "report-mammo-finding-editor.png");

  // Ctrl+Z in the dock (not the segmentation's Edit > Undo) restores the AI's proposal.
  panel()->fields()->setFocus();
  ASSERT_TRUE(shortcutKey(panel()->fields(), Qt::Key_Z, Qt::ControlModifier));
  EXPECT_EQ(provenanceOf(panel()->fields(), kindPath), QStringLiteral("AI-proposed"));
  EXPECT_EQ(finding().kind.value(), aiKind);
  ASSERT_TRUE(panel()->redoButton()->isEnabled());
  panel()->redoButton()->click();
  EXPECT_EQ(provenanceOf(panel()->fields(), kindPath), kEdited);
  ASSERT_TRUE(shortcutKey(panel()->fields(), Qt::Key_Z, Qt::ControlModifier));
  ASSERT_TRUE(shortcutKey(panel()->fields(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier));
  EXPECT_EQ(provenanceOf(panel()->fields(), kindPath), kEdited);
  // Ctrl+Y, Edit > Redo's other key, redoes the report too, not a segmentation edit.
  ASSERT_TRUE(shortcutKey(panel()->fields(), Qt::Key_Z, Qt::ControlModifier));
  ASSERT_TRUE(shortcutKey(panel()->fields(), Qt::Key_Y, Qt::ControlModifier));
  EXPECT_EQ(provenanceOf(panel()->fields(), kindPath), kEdited);

  // Accept the finding's remaining proposals; add the reader's own; remove it again.
  editor->acceptButton()->click();
  EXPECT_EQ(provenanceOf(panel()->fields(), QStringLiteral("findings/F%1/laterality").arg(id)),
            QStringLiteral("AI value accepted unchanged"));
  const int before = editor->list()->count();
  editor->addButton()->click();
  ASSERT_EQ(editor->list()->count(), before + 1);
  const int added = editor->selectedFinding();
  EXPECT_EQ(provenanceOf(panel()->fields(), QStringLiteral("findings/F%1/kind").arg(added)),
            QStringLiteral("entered by the reader"));
  editor->removeButton()->click();
  EXPECT_EQ(editor->list()->count(), before);
  EXPECT_TRUE(
      provenanceOf(panel()->fields(), QStringLiteral("findings/F%1/kind").arg(added)).isEmpty());

  const auto trail = auditTrail();
  EXPECT_TRUE(hasAction(trail, "undo-edit"));
  EXPECT_TRUE(hasAction(trail, "redo-edit"));

  // After signing nothing is undone.
  ASSERT_TRUE(panel()->acceptAll());
  ASSERT_TRUE(panel()->setComposition(cr::BreastComposition::B));
  ASSERT_TRUE(panel()->sign(QStringLiteral("Test Reader")).isEmpty());
  EXPECT_FALSE(panel()->undoButton()->isEnabled());
  EXPECT_FALSE(panel()->undo());
  EXPECT_TRUE(panel()->report()->locked());
}

TEST_F(ReportPanelMammoTest, AReportFileOpensInTheDockAndABrokenOneIsNamedWithItsLine) {
  ASSERT_TRUE(detect());
  ASSERT_TRUE(panel()->draftFromFindings());
  ASSERT_TRUE(panel()->setComposition(cr::BreastComposition::C));
  const QString saved = QString::fromStdString((dir_ / "mammo-report.json").string());
  ASSERT_TRUE(panel()->save(saved));
  const cr::MammographyReport kept = *panel()->report();
  panel()->clear();
  QStringList failures;
  QObject::connect(window_.get(), &app::MainWindow::loadFailed,
                   [&](const QString& m) { failures << m; });
  EXPECT_TRUE(window_->openPath(saved));
  ASSERT_TRUE(panel()->report().has_value());
  EXPECT_EQ(*panel()->report(), kept);
  EXPECT_TRUE(mammo()->reportDock()->isVisible());

  std::ofstream(dir_ / "broken.json") << "{\"format\": \"delineate-report-mammography\",\n"
                                         "  \"version\": 1,\n  \"content\": {,\n}";
  EXPECT_FALSE(
      window_->reports()->openReport(QString::fromStdString((dir_ / "broken.json").string())));
  ASSERT_EQ(failures.size(), 1);
  EXPECT_TRUE(failures.back().contains(QStringLiteral("broken.json:3")))
      << failures.back().toStdString();
  EXPECT_EQ(*panel()->report(), kept);  // the report shown stays
}

TEST_F(ReportPanelMeasurementTest, SegmentsAreMeasuredUpdatedSignedAndRoundTripped) {
  window_->action("tool.brush")->trigger();
  editing()->tools()->setBrushRadiusMm(10);
  const double z = centre()[2];
  stroke(view(0), {{-20, 0, z}, {-19, 0, z}});
  const std::uint16_t second = editing()->segmentsDock()->addSegment();
  stroke(view(0), {{30, 0, z}, {31, 0, z}});
  ASSERT_TRUE(waitSettled());
  ASSERT_GT(countLabel(second), 0u);

  window_->action(QStringLiteral("report.measurements"))->trigger();
  QDockWidget* dock = window_->reports()->measurementDock();
  EXPECT_TRUE(dock->isVisible());
  EXPECT_EQ(dock->windowTitle(), QStringLiteral("Measurement report"));
  ASSERT_TRUE(measure(false));
  ASSERT_TRUE(panel()->report().has_value());

  core::NullProgress quiet;
  const auto expected =
      core::measureSegments(*session()->activeMap(), session()->image().get(), quiet);
  ASSERT_EQ(expected.size(), 2u);
  ASSERT_EQ(table()->rowCount(), 2);
  for (const auto& m : expected) {
    const int row = rowOf(QString::fromStdString(m.name));
    ASSERT_GE(row, 0) << m.name;
    EXPECT_EQ(table()->item(row, app::MeasurementReportPanel::Volume)->text(),
              QString::number(m.volumeMl, 'f', 2));
    EXPECT_EQ(table()->item(row, app::MeasurementReportPanel::Mean)->text(),
              QString::number(m.mean, 'f', 1));
    EXPECT_EQ(table()->item(row, app::MeasurementReportPanel::Diameter)->text(),
              QString::number(m.largestDiameterMm, 'f', 1));
    EXPECT_EQ(table()->item(row, app::MeasurementReportPanel::Link)->text(),
              QStringLiteral("linked"));
  }

  // Delete the second segment, update: its row stays with its values, marked broken.
  const QString secondName = QString::fromStdString(session()->activeMap()->segment(second)->name);
  const int secondRow = rowOf(secondName);
  const QString volume = table()->item(secondRow, app::MeasurementReportPanel::Volume)->text();
  ASSERT_TRUE(editing()->segmentsDock()->deleteSegment(second));
  ASSERT_TRUE(waitSettled());
  ASSERT_EQ(session()->activeMap()->segment(second), nullptr);
  ASSERT_TRUE(measure(true));
  ASSERT_EQ(table()->rowCount(), 2);
  const int broken = rowOf(secondName);
  ASSERT_GE(broken, 0);
  EXPECT_TRUE(table()
                  ->item(broken, app::MeasurementReportPanel::Link)
                  ->text()
                  .startsWith(QStringLiteral("broken")));
  EXPECT_EQ(table()->item(broken, app::MeasurementReportPanel::Volume)->text(), volume);
  EXPECT_TRUE(panel()->report()->rows()[static_cast<std::size_t>(broken)].link.broken);

  // Signing without an impression lists it.
  const QStringList missing = panel()->sign(QStringLiteral("Test Reader"));
  EXPECT_TRUE(missing.contains(QStringLiteral("impression"))) << missing.join(", ").toStdString();
  EXPECT_FALSE(panel()->report()->locked());

  // Notes: undone and redone (also by key in the dock).
  ASSERT_TRUE(panel()->setNotes(QStringLiteral("Two lesions; one removed from the map."),
                                QStringLiteral("Follow-up CT in 6 months.")));
  EXPECT_EQ(panel()->report()->notes().impression.provenance(), cr::Provenance::Manual);
  ASSERT_TRUE(shortcutKey(table(), Qt::Key_Z, Qt::ControlModifier));
  EXPECT_TRUE(panel()->report()->notes().impression.empty());
  panel()->redoButton()->click();
  EXPECT_FALSE(panel()->report()->notes().impression.empty());
  saveScreenshot(window_.get(), "report-measurement-dock.png");

  const QString saved = QString::fromStdString((dir_ / "measurements.json").string());
  ASSERT_TRUE(panel()->save(saved));
  const cr::MeasurementReport kept = *panel()->report();
  ASSERT_TRUE(panel()->setNotes(QStringLiteral("changed"), QString()));
  QStringList failures;
  QObject::connect(window_.get(), &app::MainWindow::loadFailed,
                   [&](const QString& m) { failures << m; });
  EXPECT_TRUE(window_->openPath(saved));  // File > Open / the command line take report files
  ASSERT_TRUE(panel()->report().has_value());
  EXPECT_EQ(*panel()->report(), kept);
  EXPECT_TRUE(failures.isEmpty());
  EXPECT_NE(window_->volume(), nullptr);  // the image stays

  std::ofstream(dir_ / "unknown.json")
      << "{\n  \"format\": \"something-else\",\n  \"version\": 1\n}";
  EXPECT_FALSE(
      window_->reports()->openReport(QString::fromStdString((dir_ / "unknown.json").string())));
  ASSERT_EQ(failures.size(), 1);
  EXPECT_TRUE(failures.back().contains(QStringLiteral("unknown.json:2")))
      << failures.back().toStdString();
  EXPECT_TRUE(failures.back().contains(QStringLiteral("unknown report format")));
  EXPECT_EQ(*panel()->report(), kept);

  ASSERT_TRUE(panel()->sign(QStringLiteral("Test Reader")).isEmpty());
  EXPECT_TRUE(panel()->report()->locked());
  EXPECT_FALSE(panel()->undoButton()->isEnabled());
  EXPECT_TRUE(panel()->addAddendum(QStringLiteral("Reviewed with the surgeon."),
                                   QStringLiteral("Test Reader")));
  const auto trail = auditTrail();
  EXPECT_TRUE(hasAction(trail, "create"));
  EXPECT_TRUE(hasAction(trail, "undo-edit"));
  EXPECT_TRUE(hasAction(trail, "sign"));
  EXPECT_TRUE(hasAction(trail, "addendum"));
}

}  // namespace delineate::test
