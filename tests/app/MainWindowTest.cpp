// MainWindow in-process under Xvfb: loading off the GUI thread, errors, commands, status bar.
#include "app/gui/MainWindow.h"

#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QListWidget>
#include <QMimeData>
#include <QMouseEvent>
#include <QSettings>
#include <QUrl>
#include <fstream>

#include "GuiTestSupport.h"
#include "SyntheticCt.h"
#include "TempDir.h"
#include "app/gui/reading/SeriesBrowser.h"
#include "app/gui/reading/StudyInfoPanel.h"
#include "app/gui/shell/JobRunner.h"
#include "core/io/DicomSeriesWriter.h"
#include "core/io/VolumeFileIO.h"
#include "viewers/SliceView.h"
#include "viewers/ViewLayout.h"
#include "viewers/VolumeView.h"
#include "viewers/VtkOpenGLWidget.h"

using namespace delineate;
using delineate::test::SyntheticCt;
using delineate::test::TempDir;
using delineate::test::waitUntil;

namespace {

class MainWindowTest : public ::testing::Test {
 protected:
  void SetUp() override {
    DELINEATE_REQUIRE_GUI();
    good_ = dir_ / "ct.nii.gz";
    core::writeVolumeFile(*SyntheticCt::make(), good_);
  }

  std::unique_ptr<app::MainWindow> makeWindow(bool rememberRecent = false) {
    auto w = std::make_unique<app::MainWindow>(
        app::MainWindowOptions{.interactive = false, .rememberRecent = rememberRecent});
    w->resize(1200, 800);
    w->show();
    QObject::connect(w.get(), &app::MainWindow::volumeShown, [this] { ++shown_; });
    QObject::connect(w.get(), &app::MainWindow::loadFailed,
                     [this](const QString& m) { failure_ = m; });
    return w;
  }

  bool load(app::MainWindow& w, const std::filesystem::path& path) {
    const int before = shown_;
    w.openPath(QString::fromStdString(path.string()));
    return waitUntil([&] { return shown_ > before || !failure_.isEmpty(); }, 60000) &&
           shown_ > before;
  }

  TempDir dir_;
  std::filesystem::path good_;
  int shown_ = 0;
  QString failure_;
};

}  // namespace

TEST_F(MainWindowTest, BadFileReportsTheFileAndTheWindowStaysUsable) {
  auto w = makeWindow();
  const auto broken = dir_ / "broken.nii.gz";
  std::ofstream(broken) << "not an image";
  EXPECT_FALSE(load(*w, broken));
  EXPECT_TRUE(failure_.contains("broken.nii.gz")) << failure_.toStdString();
  EXPECT_EQ(w->volume(), nullptr);
  EXPECT_FALSE(w->jobs()->busy());

  failure_.clear();
  ASSERT_TRUE(load(*w, good_)) << failure_.toStdString();
  ASSERT_NE(w->volume(), nullptr);
  EXPECT_TRUE(waitUntil([&] { return w->views()->allViewsRendered(); }, 60000));
  EXPECT_EQ(w->browser()->seriesCount(), 1);
  EXPECT_EQ(w->infoPanel()->value("Size"), QStringLiteral("128 × 112 × 40"));
}

TEST_F(MainWindowTest, CommandIdsDriveLayoutsAndWindowPresets) {
  auto w = makeWindow();
  ASSERT_TRUE(load(*w, good_));
  for (const char* id : {"file.open", "file.openFolder", "view.layout.1x1", "view.layout.1x3",
                         "view.layout.2x2", "view.reset", "view.3d.ctBone", "view.3d.mr"}) {
    EXPECT_NE(w->action(id), nullptr) << id;
  }
  w->action("view.layout.1x3")->trigger();
  EXPECT_EQ(w->views()->layoutName(), "1x3");
  EXPECT_TRUE(w->views()->volumeView()->isHidden());
  EXPECT_TRUE(w->views()->sliceView(2)->isVisible());
  w->action("view.layout.1x1")->trigger();
  EXPECT_TRUE(w->views()->sliceView(1)->isHidden());
  EXPECT_TRUE(w->views()->sliceView(0)->isVisible());
  w->action("view.layout.2x2")->trigger();
  EXPECT_TRUE(w->views()->volumeView()->isVisible());
  // Views hidden by the other layouts while the volume arrived must render it when shown.
  EXPECT_TRUE(waitUntil([&] { return w->views()->allViewsRendered(); }, 60000));

  QAction* bone = w->action("view.window.bone");
  ASSERT_NE(bone, nullptr) << w->commandIds().join(", ").toStdString();
  bone->trigger();
  EXPECT_EQ(w->views()->state()->windowLevel(), (viewers::WindowLevel{400, 1800}));
  w->action("view.3d.mr")->trigger();
  EXPECT_EQ(w->views()->volumeView()->preset(), viewers::VolumePreset::Mr);
}

TEST_F(MainWindowTest, StatusBarShowsTheValueUnderTheMouse) {
  auto w = makeWindow();
  ASSERT_TRUE(load(*w, good_));
  viewers::SliceView* axial = w->views()->sliceView(0);
  ASSERT_TRUE(waitUntil([&] { return axial->hasRenderedVolume(); }));
  const QPointF bead = axial->worldToCanvas({50.25, 0.75, w->views()->state()->cursor()[2]});
  QMouseEvent move(QEvent::MouseMove, bead, axial->canvas()->mapToGlobal(bead), Qt::NoButton,
                   Qt::NoButton, Qt::NoModifier);
  QApplication::sendEvent(axial->canvas(), &move);
  EXPECT_TRUE(w->pointerText().contains("value 1000")) << w->pointerText().toStdString();
  EXPECT_TRUE(w->pointerText().contains("[97, 56, 20]")) << w->pointerText().toStdString();
}

TEST_F(MainWindowTest, RemembersRecentPaths) {
  QSettings().remove("recent");
  auto w = makeWindow(true);
  ASSERT_TRUE(load(*w, good_));
  ASSERT_FALSE(w->recentPaths().isEmpty());
  EXPECT_EQ(w->recentPaths().first(), QString::fromStdString(good_.string()));
  QSettings().remove("recent");
}

namespace {

// True when the list item's icon is no longer the blank placeholder.
bool hasThumbnail(app::SeriesBrowser* browser, int row) {
  const QImage icon = browser->list()->item(row)->icon().pixmap(64, 64).toImage();
  for (int y = 0; y < icon.height(); ++y) {
    for (int x = 0; x < icon.width(); ++x) {
      if (qGray(icon.pixel(x, y)) > 100) {
        return true;
      }
    }
  }
  return false;
}

}  // namespace

TEST_F(MainWindowTest, DicomFolderListsEverySeriesWithThumbnailsAndLoadsOnDemand) {
  // Two series in one folder: the synthetic CT as stored and its RAS-ordered twin.
  const auto folder = dir_ / "dicom";
  core::NullProgress quiet;
  core::DicomWriteOptions options;
  options.filePrefix = "A";
  core::writeDicomSeries(*SyntheticCt::make(false), folder, options, quiet);
  options.filePrefix = "B";
  core::writeDicomSeries(*SyntheticCt::make(true), folder, options, quiet);

  auto w = makeWindow();
  ASSERT_TRUE(load(*w, folder)) << failure_.toStdString();
  ASSERT_EQ(w->browser()->seriesCount(), 2);
  EXPECT_EQ(w->volume()->info().modality, "CT");
  EXPECT_TRUE(waitUntil(
      [&] { return hasThumbnail(w->browser(), 0) && hasThumbnail(w->browser(), 1); }, 30000));
  const std::string first = w->volume()->info().seriesInstanceUid;

  // Double-click (activation) loads the other series; the bead is still on the screen right.
  const int other = w->browser()->list()->currentRow() == 0 ? 1 : 0;
  const int before = shown_;
  Q_EMIT w->browser()->list()->itemActivated(w->browser()->list()->item(other));
  ASSERT_TRUE(waitUntil([&] { return shown_ > before; }, 60000)) << failure_.toStdString();
  EXPECT_NE(w->volume()->info().seriesInstanceUid, first);
  viewers::SliceView* axial = w->views()->sliceView(0);
  ASSERT_TRUE(waitUntil([&] { return axial->hasRenderedVolume(); }));
  const QImage image = test::grabCanvas(axial->canvas());
  const double z = w->views()->state()->cursor()[2];
  EXPECT_GT(test::medianGray(image, axial->worldToCanvas({50, 0, z})), 240);
  EXPECT_GT(axial->worldToCanvas({50, 0, z}).x(), axial->canvas()->width() / 2.0);

  // A single DICOM file opens its series.
  failure_.clear();
  const auto oneFile = *std::filesystem::directory_iterator(folder);
  ASSERT_TRUE(load(*w, oneFile.path())) << failure_.toStdString();
  EXPECT_EQ(w->volume()->geometry().size[2], 40u);
}

TEST_F(MainWindowTest, DroppingAFileOpensIt) {
  auto w = makeWindow();
  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(QString::fromStdString(good_.string()))});
  const QPoint at(w->width() / 2, w->height() / 2);
  QDragEnterEvent enter(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(w.get(), &enter);
  EXPECT_TRUE(enter.isAccepted());
  QDropEvent drop(at, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(w.get(), &drop);
  ASSERT_TRUE(waitUntil([&] { return shown_ > 0 || !failure_.isEmpty(); }, 60000));
  ASSERT_NE(w->volume(), nullptr) << failure_.toStdString();
  EXPECT_EQ(w->volume()->geometry().size[0], 128u);
}

TEST_F(MainWindowTest, DoubleClickMaximisesAViewAndBack) {
  auto w = makeWindow();
  ASSERT_TRUE(load(*w, good_));
  viewers::SliceView* coronal = w->views()->sliceView(1);
  ASSERT_EQ(w->views()->layoutName(), "2x2");
  auto doubleClick = [](QWidget* c) {
    const QPointF p(40, 40);
    QMouseEvent e(QEvent::MouseButtonDblClick, p, c->mapToGlobal(p), Qt::LeftButton, Qt::LeftButton,
                  Qt::NoModifier);
    QApplication::sendEvent(c, &e);
  };
  doubleClick(coronal->canvas());
  EXPECT_EQ(w->views()->layoutName(), "1x1");
  EXPECT_TRUE(coronal->isVisible());
  EXPECT_TRUE(w->views()->sliceView(0)->isHidden());
  EXPECT_TRUE(w->action("view.layout.1x1")->isChecked());
  doubleClick(coronal->canvas());
  EXPECT_EQ(w->views()->layoutName(), "2x2");
  EXPECT_TRUE(w->views()->sliceView(0)->isVisible());
}
