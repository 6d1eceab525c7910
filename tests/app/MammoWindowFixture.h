#pragma once
// The real main window in the mammography reading mode, for the reading-view tests: opens a study
// and waits until every view is in place, grabs a viewport's pixels.
#include <QApplication>
#include <QImage>
#include <QStringList>
#include <algorithm>
#include <memory>

#include "GuiTestSupport.h"
#include "MammoTestStudy.h"
#include "TempDir.h"
#include "app/gui/MainWindow.h"
#include "app/gui/mammo/MammoFeature.h"
#include "viewers/mammo/MammoReadingView.h"
#include "viewers/mammo/MammoViewport.h"

namespace delineate::test {

class MammoWindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DELINEATE_REQUIRE_GUI();
    window_ = std::make_unique<app::MainWindow>(
        app::MainWindowOptions{.interactive = false, .rememberRecent = false});
    window_->resize(1200, 900);
    window_->show();
  }

  app::MammoFeature* mammo() const { return window_->mammo(); }
  viewers::MammoReadingView* view() const { return mammo()->view(); }
  viewers::MammoViewport* port(int i) const { return view()->viewport(i); }

  bool open(const QStringList& paths, const QString& layout = QStringLiteral("mammo-4up")) {
    if (!mammo()->open(paths, layout)) {
      return false;
    }
    // The reading view is laid out by posted events: measure the viewports only once every size
    // is final (a loaded machine may decode the images before the layout has run).
    for (int i = 0; i < 5; ++i) {
      QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
      QCoreApplication::processEvents();
    }
    return waitUntil([this] { return mammo()->settled(); }, 60000);
  }

  QImage grab(int i) const {
    return port(i)->grab().toImage().convertToFormat(QImage::Format_RGB32);
  }

  // The fit scale (screen pixels per image pixel) of a test image in viewport i.
  double fitScale(int i) const {
    return std::min(port(i)->width() / double(kMammoColumns),
                    port(i)->height() / double(kMammoRows));
  }

  TempDir dir_;
  std::unique_ptr<app::MainWindow> window_;
};

}  // namespace delineate::test
