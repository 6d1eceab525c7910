// Command line, zero-copy VTK images, progress throttling and the job runner.
#include <gtest/gtest.h>

#include <vtkDataArray.h>
#include <vtkImageData.h>
#include <vtkMatrix3x3.h>
#include <vtkMatrix4x4.h>
#include <vtkPointData.h>

#include <QThread>
#include <atomic>

#include "GuiTestSupport.h"
#include "SyntheticCt.h"
#include "app/gui/AppOptions.h"
#include "app/gui/reading/SeriesThumbnail.h"
#include "app/gui/shell/JobRunner.h"
#include "app/gui/shell/QueuedProgressSink.h"
#include "viewers/VtkVolumeImage.h"

using namespace delineate;
using delineate::test::SyntheticCt;
using delineate::test::waitUntil;

TEST(AppOptions, ParsesTheCommandLine) {
  auto o = app::parseAppOptions(
      {"--screenshot", "a.png", "--layout", "1x3", "--size", "1280x800", "ct.nii.gz"});
  EXPECT_EQ(o.error, "");
  EXPECT_EQ(o.screenshot, "a.png");
  EXPECT_EQ(o.layout, "1x3");
  EXPECT_EQ(o.width, 1280);
  EXPECT_EQ(o.height, 800);
  EXPECT_EQ(o.path, "ct.nii.gz");
  EXPECT_TRUE(app::parseAppOptions({"--version"}).version);
  EXPECT_EQ(app::parseAppOptions({}).path, "");
  EXPECT_NE(app::parseAppOptions({"--layout", "4x4", "x"}).error, "");
  EXPECT_NE(app::parseAppOptions({"--size", "12x", "x"}).error, "");
  EXPECT_NE(app::parseAppOptions({"--size"}).error, "");
  EXPECT_NE(app::parseAppOptions({"--screenshot", "a.png"}).error, "");
  EXPECT_NE(app::parseAppOptions({"a", "b"}).error, "");
  EXPECT_NE(app::parseAppOptions({"--frobnicate"}).error, "");

  const auto shown = app::parseAppOptions(
      {"--screenshot", "a.png", "--show", "aiDock", "--show", "Create from segments", "mr.nii.gz"});
  EXPECT_EQ(shown.error, "");
  EXPECT_EQ(shown.show, (std::vector<std::string>{"aiDock", "Create from segments"}));
  EXPECT_NE(app::parseAppOptions({"--show", "aiDock", "mr.nii.gz"}).error, "")
      << "--show only with --screenshot";
  EXPECT_TRUE(app::parseAppOptions({"--plugins"}).plugins);
}

TEST(VtkVolumeImage, SharesTheVoxelsAndKeepsTheVolumeAlive) {
  auto volume = SyntheticCt::make(true);
  const void* voxels = volume->voxels().data();
  std::weak_ptr<const core::Volume> weak = volume;
  vtkSmartPointer<vtkImageData> image = viewers::makeVtkImage(volume);
  volume.reset();
  ASSERT_FALSE(weak.expired()) << "the VTK image must keep the Volume alive";
  vtkDataArray* scalars = image->GetPointData()->GetScalars();
  EXPECT_EQ(scalars->GetVoidPointer(0), voxels) << "voxels were copied";
  EXPECT_EQ(viewers::volumeKeptBy(scalars), weak.lock());
  const auto& g = weak.lock()->geometry();
  int dims[3];
  image->GetDimensions(dims);
  EXPECT_EQ(dims[0], 128);
  EXPECT_EQ(dims[2], 40);
  EXPECT_EQ(image->GetSpacing()[2], 3.0);
  EXPECT_EQ(image->GetOrigin()[0], g.origin[0]);
  EXPECT_EQ(image->GetDirectionMatrix()->GetElement(0, 0), -1);
  EXPECT_EQ(image->GetScalarType(), VTK_SHORT);
  // VTK's own index-to-physical mapping agrees with ours.
  double p[3];
  image->TransformContinuousIndexToPhysicalPoint(97, 56, 20, p);
  const core::Vec3 w = g.indexToWorld({97, 56, 20});
  EXPECT_NEAR(p[0], w[0], 1e-9);
  EXPECT_NEAR(p[1], w[1], 1e-9);
  EXPECT_NEAR(p[2], w[2], 1e-9);

  // The index-space image shares the same buffer; its matrix maps back to world.
  auto index = viewers::makeVtkIndexSpaceImage(weak.lock());
  EXPECT_EQ(index->GetPointData()->GetScalars()->GetVoidPointer(0), voxels);
  auto m = viewers::indexSpaceToWorld(g);
  const double q[4] = {97 * 1.5, 56 * 1.5, 20 * 3.0, 1};
  double out[4];
  m->MultiplyPoint(q, out);
  EXPECT_NEAR(out[0], w[0], 1e-9);
  EXPECT_NEAR(out[1], w[1], 1e-9);

  image = nullptr;
  index = nullptr;
  EXPECT_TRUE(weak.expired()) << "the Volume must be released with the last VTK user";
}

TEST(SeriesThumbnail, IsRadiological) {
  const QImage t = app::makeSeriesThumbnail(*SyntheticCt::make(true), 64);
  ASSERT_EQ(t.width(), 64);
  // Axial middle slice: the bead (patient left) bright on the right half only.
  int right = 0, left = 0;
  for (int y = 0; y < 64; ++y) {
    for (int x = 0; x < 64; ++x) {
      if (qGray(t.pixel(x, y)) > 250) {
        (x >= 32 ? right : left)++;
      }
    }
  }
  EXPECT_GT(right, 3);
  EXPECT_EQ(left, 0);
}

TEST(QueuedProgressSink, ThrottlesAndFollowsTheToken) {
  core::CancelToken token;
  app::QueuedProgressSink sink(
      token, nullptr, [](double, const QString&) {}, std::chrono::milliseconds(1000));
  for (int i = 0; i < 1000; ++i) {
    sink.report(i / 1000.0, "working");
  }
  sink.report(1.0, "done");
  EXPECT_EQ(sink.delivered(), 2);  // the first and the final report
  EXPECT_FALSE(sink.cancelled());
  token.cancel();
  EXPECT_TRUE(sink.cancelled());
  EXPECT_THROW(sink.throwIfCancelled(), core::CancelledError);
}

TEST(JobRunner, DeliversResultsErrorsAndCancellationOnTheGuiThread) {
  DELINEATE_REQUIRE_GUI();
  app::JobRunner runner;
  QThread* gui = QThread::currentThread();
  int result = 0;
  bool onGui = false;
  std::vector<double> progress;
  QObject::connect(&runner, &app::JobRunner::progress,
                   [&](double f, const QString&) { progress.push_back(f); });
  runner.run<int>(
      "answer",
      [](core::ProgressSink& p) {
        p.report(0.5, "half");
        return 42;
      },
      [&](int r) {
        result = r;
        onGui = QThread::currentThread() == gui;
      },
      [](const QString&, bool) {});
  ASSERT_TRUE(waitUntil([&] { return result != 0; }));
  EXPECT_EQ(result, 42);
  EXPECT_TRUE(onGui);
  EXPECT_TRUE(waitUntil([&] { return !progress.empty(); }, 2000));

  QString error;
  bool cancelled = false;
  runner.run<int>(
      "fails",
      [](core::ProgressSink&) -> int { throw core::Error(core::ErrorKind::Io, "x.nii", "gone"); },
      [](int) {}, [&](const QString& e, bool c) { error = e, cancelled = c; });
  ASSERT_TRUE(waitUntil([&] { return !error.isEmpty(); }));
  EXPECT_EQ(error, "x.nii: gone");
  EXPECT_FALSE(cancelled);

  std::atomic<bool> started{false};
  error.clear();
  runner.run<int>(
      "slow",
      [&](core::ProgressSink& p) {
        started = true;
        for (;;) {
          p.throwIfCancelled();
          QThread::msleep(5);
        }
        return 0;
      },
      [](int) {}, [&](const QString& e, bool c) { error = e, cancelled = c; });
  ASSERT_TRUE(waitUntil([&] { return started.load(); }));
  EXPECT_TRUE(runner.busy());
  runner.cancel();
  ASSERT_TRUE(waitUntil([&] { return !error.isEmpty(); }));
  EXPECT_TRUE(cancelled);
  EXPECT_FALSE(runner.busy());
}
