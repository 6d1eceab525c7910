// Edit > Preferences… in the real window: the undo budget set there is kept in the settings,
// applied to the label map's undo at once (the oldest steps go first) and read again by the next
// window; values out of range in the settings fall back to the defaults.
#include <gtest/gtest.h>

#include <QAction>
#include <QDialogButtonBox>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>

#include "EditingTestSupport.h"
#include "GuiTestSupport.h"
#include "app/gui/EditSession.h"
#include "app/gui/EditingFeature.h"
#include "app/gui/MainWindow.h"
#include "app/gui/PreferencesDialog.h"
#include "app/gui/ToolController.h"
#include "core/model/Document.h"

using namespace delineate;

namespace {

struct ForgetPreferences {
  ForgetPreferences() { QSettings().remove(QStringLiteral("preferences")); }
  ~ForgetPreferences() { QSettings().remove(QStringLiteral("preferences")); }
};

class PreferencesTest : public test::EditingWindowTest {
 protected:
  void strokes(int n) {
    session()->ensureLabelMap();
    window_->action(QStringLiteral("tool.brush"))->trigger();
    editing()->tools()->setBrushRadiusMm(2);
    for (int i = 0; i < n; ++i) {  // apart from each other: each paints voxels of its own
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
