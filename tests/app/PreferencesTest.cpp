// Edit > Preferences… in the real window: the undo budget set there is kept in the settings,
// applied to the label map's undo at once (the oldest steps go first) and read again by the next
// window; values out of range in the settings fall back to the defaults. The theme turns the
// window dark or light; the 3D quality changes how finely the 3D view ray-casts; autosave writes
// the label map to its file from a copy while editing goes on; the AI servers page adds, sets
// and removes servers in the list the AI panel offers.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <algorithm>
#include <filesystem>

#include "EditingTestSupport.h"
#include "GuiTestSupport.h"
#include "app/gui/MainWindow.h"
#include "app/gui/ai/AiController.h"
#include "app/gui/ai/AiDock.h"
#include "app/gui/ai/AiServersPage.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/editing/LabelFileController.h"
#include "app/gui/editing/ToolController.h"
#include "app/gui/preferences/PreferencesDialog.h"
#include "app/gui/shell/Autosaver.h"
#include "app/gui/shell/ThemeController.h"
#include "core/document/Document.h"
#include "core/io/LabelMapFileIO.h"
#include "viewers/ViewLayout.h"
#include "viewers/VolumeView.h"

using namespace delineate;

namespace {

struct ForgetPreferences {
  ForgetPreferences() { QSettings().remove(QStringLiteral("preferences")); }
  ~ForgetPreferences() { QSettings().remove(QStringLiteral("preferences")); }
};

// The dialog's OK button.
void ok(app::PreferencesDialog* d) {
  d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
}

// Mean lightness of the window's left column (its docks: series, AI, segments), as drawn.
int drawnLightness(QWidget* window) {
  const QImage image = window->grab().toImage();
  long sum = 0, n = 0;
  for (int y = 80; y < image.height() - 40; y += 4) {
    for (int x = 0; x < std::min(240, image.width()); x += 4) {
      sum += QColor(image.pixel(x, y)).lightness();
      ++n;
    }
  }
  return n == 0 ? -1 : int(sum / n);
}

class PreferencesTest : public test::EditingWindowTest {
 protected:
  // Strokes number `first`, first + 1, ...: apart from each other, each paints voxels of its own.
  void strokes(int n, int first = 0) {
    session()->ensureLabelMap();
    window_->action(QStringLiteral("tool.brush"))->trigger();
    editing()->tools()->setBrushRadiusMm(2);
    for (int i = first; i < first + n; ++i) {
      const double x = (i % 4) * 8.0 - 12, y = (i / 4) * 8.0 - 8;
      stroke(view(0), {{x, y, 0}, {x + 2, y, 0}});
      ASSERT_TRUE(waitSettled());
    }
  }
};

}  // namespace

TEST_F(PreferencesTest, TheUndoBudgetIsKeptAppliedAndReadByTheNextWindow) {
  ForgetPreferences forget;
  window_->action(QStringLiteral("edit.preferences"))->trigger();
  app::PreferencesDialog* d = editing()->preferencesDialog();
  ASSERT_TRUE(d->isVisible());
  EXPECT_EQ(d->undoStepsBox()->value(), 200) << "the default";
  EXPECT_EQ(d->undoMegabytesBox()->value(), 512);
  d->undoStepsBox()->setValue(10);
  d->undoMegabytesBox()->setValue(64);
  d->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
  EXPECT_FALSE(d->isVisible());

  const core::UndoStack& undo = session()->document().undoStack();
  EXPECT_EQ(undo.maxEntries(), 10u);
  EXPECT_EQ(undo.maxBytes(), std::size_t(64) << 20);
  strokes(12);
  EXPECT_EQ(undo.count(), 10u) << "the two oldest strokes were dropped";

  EXPECT_EQ(app::Preferences::load().undoSteps, 10) << "kept for the next window";
  EXPECT_EQ(app::Preferences::load().undoMegabytes, 64);
  QSettings().setValue(QStringLiteral("preferences/undoSteps"), 3);  // below the minimum
  EXPECT_EQ(app::Preferences::load().undoSteps, 200);
}

TEST_F(PreferencesTest, TheReaderNameIsKeptAndNamesTheReaderUnlessASignInDoes) {
  ForgetPreferences forget;
  const QByteArray oldUser = qgetenv("USER");
  qputenv("USER", "login-9");
  EXPECT_EQ(app::readerName(), QStringLiteral("login-9")) << "nothing set: the login name";
  window_->action(QStringLiteral("edit.preferences"))->trigger();
  app::PreferencesDialog* d = editing()->preferencesDialog();
  EXPECT_TRUE(d->readerNameEdit()->text().isEmpty());
  EXPECT_EQ(d->readerNameEdit()->placeholderText(), QStringLiteral("login-9"));
  d->readerNameEdit()->setText(QStringLiteral("  Dr Pref "));
  ok(d);
  EXPECT_EQ(app::Preferences::load().readerName, QStringLiteral("Dr Pref"));
  EXPECT_EQ(app::readerName(), QStringLiteral("Dr Pref"));
  EXPECT_EQ(app::readerName(QStringLiteral("jdoe")), QStringLiteral("jdoe"))
      << "the AI server's sign-in names the reader there";
  window_->action(QStringLiteral("edit.preferences"))->trigger();
  EXPECT_EQ(d->readerNameEdit()->text(), QStringLiteral("Dr Pref")) << "shown when reopened";
  d->readerNameEdit()->clear();
  ok(d);
  EXPECT_EQ(app::readerName(), QStringLiteral("login-9"));
  oldUser.isNull() ? qunsetenv("USER") : qputenv("USER", oldUser);
}

TEST_F(PreferencesTest, DarkAndLightThemesTurnTheWindowAndAreKept) {
  ForgetPreferences forget;
  QWidget* panel = window_.get();
  const int before = drawnLightness(panel);
  EXPECT_GT(before, 150) << "Xvfb has no desktop preference: the platform's light palette";
  EXPECT_FALSE(editing()->theme()->dark());

  window_->action(QStringLiteral("edit.preferences"))->trigger();
  app::PreferencesDialog* d = editing()->preferencesDialog();
  EXPECT_EQ(d->themeBox()->currentData().toString(), QStringLiteral("desktop")) << "the default";
  d->themeBox()->setCurrentIndex(d->themeBox()->findData(QStringLiteral("dark")));
  ok(d);
  EXPECT_TRUE(editing()->theme()->dark());
  EXPECT_LT(QApplication::palette().color(QPalette::Window).lightness(), 80);
  const int dark = drawnLightness(panel);
  EXPECT_LT(dark, 90) << "the docks are drawn dark";
  EXPECT_LT(editing()->aiDock()->palette().color(QPalette::Window).lightness(), 80);
  EXPECT_GT(QApplication::palette().color(QPalette::WindowText).lightness(), 180)
      << "with light text";
  EXPECT_EQ(app::Preferences::load().theme, app::ThemeMode::Dark) << "kept for the next start";

  window_->action(QStringLiteral("edit.preferences"))->trigger();
  d->themeBox()->setCurrentIndex(d->themeBox()->findData(QStringLiteral("light")));
  ok(d);
  EXPECT_FALSE(editing()->theme()->dark());
  EXPECT_NEAR(drawnLightness(panel), before, 8) << "back to the light palette";
}

TEST_F(PreferencesTest, TheQualityOf3dRenderingChangesHowFinelyTheViewRayCasts) {
  ForgetPreferences forget;
  viewers::VolumeView* v = window_->views()->volumeView();
  ASSERT_NE(v, nullptr);
  ASSERT_TRUE(waitSettled());
  EXPECT_EQ(v->quality(), viewers::VolumeQuality::Balanced);
  const double balanced = v->sampleDistance();
  EXPECT_DOUBLE_EQ(v->imageSampleDistance(), 1.0);

  window_->action(QStringLiteral("edit.preferences"))->trigger();
  app::PreferencesDialog* d = editing()->preferencesDialog();
  d->qualityBox()->setCurrentIndex(d->qualityBox()->findData(QStringLiteral("best")));
  ok(d);
  EXPECT_EQ(v->quality(), viewers::VolumeQuality::Best);
  EXPECT_DOUBLE_EQ(v->sampleDistance(), balanced / 2) << "twice the samples per ray";

  window_->action(QStringLiteral("edit.preferences"))->trigger();
  d->qualityBox()->setCurrentIndex(d->qualityBox()->findData(QStringLiteral("fast")));
  ok(d);
  EXPECT_DOUBLE_EQ(v->sampleDistance(), balanced * 2);
  EXPECT_DOUBLE_EQ(v->imageSampleDistance(), 2.0) << "one ray per 2x2 screen pixels";
  EXPECT_TRUE(test::waitUntil([&] { return v->hasRenderedVolume(); }, 60000))
      << "a frame at the new quality is drawn";
  EXPECT_EQ(app::Preferences::load().volumeQuality, viewers::VolumeQuality::Fast);
}

TEST_F(PreferencesTest, AutosaveWritesTheLabelMapToItsFileWhileEditingGoesOn) {
  ForgetPreferences forget;
  const std::filesystem::path folder = dir_ / "labels";
  std::filesystem::create_directories(folder);
  const std::filesystem::path file = folder / "seg.nii.gz";
  strokes(1);
  ASSERT_TRUE(editing()->files()->saveTo(QString::fromStdString(file.string())));
  ASSERT_TRUE(waitSettled());
  const std::size_t first = countLabel();
  ASSERT_GT(first, 0u);

  window_->action(QStringLiteral("edit.preferences"))->trigger();
  app::PreferencesDialog* d = editing()->preferencesDialog();
  EXPECT_EQ(d->autosaveBox()->value(), 0) << "off by default";
  d->autosaveBox()->setValue(5);
  ok(d);
  app::Autosaver* autosave = editing()->autosaver();
  EXPECT_EQ(autosave->intervalMinutes(), 5);
  EXPECT_FALSE(autosave->saveNow()) << "nothing unsaved";

  strokes(2, 1);  // two more strokes: unsaved
  const auto map = session()->activeMap();
  ASSERT_TRUE(session()->isModified(*map));
  const std::size_t three = countLabel();
  ASSERT_GT(three, first);
  ASSERT_TRUE(test::waitUntil([&] { return autosave->saveNow(); }, 20000));
  ASSERT_TRUE(test::waitUntil([&] { return !autosave->busy(); }, 60000));
  EXPECT_EQ(autosave->saved(), 1);
  EXPECT_FALSE(session()->isModified(*map)) << "saved at the edit the copy was taken at";
  const core::LabelMap saved = core::readLabelMapFiles(file);
  std::size_t onDisk = 0;
  for (std::size_t i = 0; i < saved.voxelCount(); ++i) {
    onDisk += saved.data()[i] != 0;
  }
  EXPECT_EQ(onDisk, three) << "the file holds all three strokes";

  // A folder gone: said in the status bar, the map stays unsaved and untouched.
  strokes(1, 3);
  std::filesystem::remove_all(folder);
  QString failure;
  QObject::connect(autosave, &app::Autosaver::failed, [&](const QString& m) { failure = m; });
  ASSERT_TRUE(test::waitUntil([&] { return autosave->saveNow(); }, 20000));
  ASSERT_TRUE(test::waitUntil([&] { return !failure.isEmpty(); }, 60000));
  EXPECT_TRUE(failure.contains(QString::fromStdString(file.string()))) << failure.toStdString();
  EXPECT_TRUE(session()->isModified(*map));
  EXPECT_GT(countLabel(), three);
  EXPECT_TRUE(errors_.empty()) << "no dialog for an autosave";
}

TEST_F(PreferencesTest, TheAiServersPageAddsSetsAndRemovesTheServersThePanelOffers) {
  ForgetPreferences forget;
  test::ForgetServers servers;
  window_->action(QStringLiteral("edit.preferences"))->trigger();
  app::PreferencesDialog* d = editing()->preferencesDialog();
  d->showPage(QStringLiteral("servers"));
  app::AiServersPage* page = d->serversPage();
  ASSERT_NE(page, nullptr);
  EXPECT_EQ(d->pages()->currentWidget(), page);
  app::AiController* ai = editing()->ai();
  EXPECT_EQ(page->table()->rowCount(), 1) << "the built-in engine only";

  page->urlEdit()->setText(QStringLiteral("not a url"));
  page->addButton()->click();
  EXPECT_EQ(ai->backends().size(), 1u) << "refused";

  page->urlEdit()->setText(QStringLiteral("http://127.0.0.1:9"));
  page->addButton()->click();
  ASSERT_EQ(ai->backends().size(), 2u);
  EXPECT_EQ(page->table()->rowCount(), 2);
  EXPECT_EQ(editing()->aiDock()->backendCombo()->count(), 2) << "the AI panel offers it";
  EXPECT_TRUE(QSettings()
                  .value(QStringLiteral("ai/servers"))
                  .toStringList()
                  .join(" ")
                  .contains(QStringLiteral("http://127.0.0.1:9")));
  EXPECT_TRUE(ai->backends()[1].deidentify) << "de-identify is on by default";

  QTableWidgetItem* deid = page->table()->item(1, 2);
  ASSERT_NE(deid, nullptr);
  EXPECT_EQ(deid->checkState(), Qt::Checked);
  deid->setCheckState(Qt::Unchecked);
  EXPECT_FALSE(ai->backends()[1].deidentify);
  EXPECT_EQ(page->table()->item(1, 2)->checkState(), Qt::Unchecked);

  page->table()->selectRow(0);
  EXPECT_FALSE(page->removeButton()->isEnabled()) << "the built-in engine stays";
  page->table()->selectRow(1);
  ASSERT_TRUE(page->removeButton()->isEnabled());
  page->removeButton()->click();
  EXPECT_EQ(ai->backends().size(), 1u);
  EXPECT_EQ(ai->backendIndex(), 0);
  EXPECT_EQ(editing()->aiDock()->backendCombo()->count(), 1);
  EXPECT_TRUE(QSettings().value(QStringLiteral("ai/servers")).toStringList().isEmpty());
}
