// brush_stroke_benchmark: the cost of one brush stamp from the pointer event to the repainted
// slice view, on a 128^3 and a 512^3 volume, and the undo memory of a 3D stroke on 512^3.
// Prints JSON. Needs an X display with GLX: run under
//   xvfb-run -a -s "-screen 0 1280x1024x24" build/.../bench/brush_stroke_benchmark
//
// Each stamp is a synthesized mouse move on the axial view's canvas, going the app's way:
// ToolEventRouter -> BrushTool (stamps into the label map) -> EditSession::flush (the Document's
// coalesced change set) -> LabelSliceLayer (re-slices only the pixels the stamp reaches, marks
// only their tiles Modified) -> update() -> the event loop paints (VTK renders, the dirty tiles
// re-upload); the clock stops when the view reports the new frame.
// The 3D label map is never uploaded; the figure beside ours is what re-uploading it per
// stroke would move, and what re-uploading the whole slice texture would.
#include <QApplication>
#include <QElapsedTimer>
#include <QMouseEvent>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <numeric>
#include <vector>

#include "annotation/tools/BrushTool.h"
#include "app/gui/editing/EditSession.h"
#include "viewers/LabelDisplayState.h"
#include "viewers/SliceView.h"
#include "viewers/ToolEventRouter.h"
#include "viewers/ViewState.h"
#include "viewers/VtkOpenGLWidget.h"

using namespace delineate;

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

// An n^3 Int16 volume, 1 mm voxels: a bright ball in a darker cube.
core::VolumePtr makeVolume(std::size_t n) {
  core::ImageGeometry g;
  g.size = {n, n, n};
  auto voxels = std::make_shared<core::VoxelBuffer>(core::ScalarType::Int16, g.voxelCount());
  auto* v = voxels->as<std::int16_t>();
  const double c = (double(n) - 1) / 2, r2 = 0.16 * double(n) * double(n);
  for (std::size_t k = 0, idx = 0; k < n; ++k) {
    for (std::size_t j = 0; j < n; ++j) {
      for (std::size_t i = 0; i < n; ++i, ++idx) {
        const double d = (i - c) * (i - c) + (j - c) * (j - c) + (k - c) * (k - c);
        v[idx] = d < r2 ? 400 : 40;
      }
    }
  }
  core::VolumeInfo info;
  info.modality = "CT";
  return std::make_shared<const core::Volume>(g, voxels, info);
}

void pump(int ms) {
  QElapsedTimer t;
  t.start();
  while (t.elapsed() < ms) {
    QApplication::processEvents(QEventLoop::AllEvents, 10);
  }
}

// Runs the event loop until the canvas rendered a frame after `frames`.
bool waitFrame(viewers::VtkOpenGLWidget* canvas, int frames) {
  QElapsedTimer t;
  t.start();
  while (canvas->renderedFrames() <= frames && t.elapsed() < 5000) {
    QApplication::processEvents(QEventLoop::AllEvents);
  }
  return canvas->renderedFrames() > frames;
}

void send(QWidget* canvas, QEvent::Type type, QPointF at, Qt::MouseButtons buttons) {
  const Qt::MouseButton b = type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton;
  QMouseEvent e(type, at, canvas->mapToGlobal(at), b, buttons, Qt::NoModifier);
  QApplication::sendEvent(canvas, &e);
}

struct StampResult {
  std::size_t size = 0;
  int stamps = 0;
  double medianMs = 0, meanMs = 0, p90Ms = 0;
  double eventMedianMs = 0;  // pointer event to overlay updated, without the render
  double renderMedianMs = 0;
  double textureBytesPerStamp = 0;
  bool everyStampRendered = true;
};

double percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<std::size_t>(p * double(v.size())))];
}

StampResult measureStamps(std::size_t n, int stamps) {
  const core::VolumePtr volume = makeVolume(n);
  auto state = std::make_shared<viewers::ViewState>();
  state->setVolume(volume);
  auto display = std::make_shared<viewers::LabelDisplayState>();
  app::EditSession session(display);
  session.setImage(volume);
  session.ensureLabelMap();
  annotation::BrushTool brush(session.context());
  brush.shape().radiusMm = 5;
  viewers::ToolEventRouter router;
  router.setTool(&brush);
  QObject::connect(&router, &viewers::ToolEventRouter::toolUsed, &session,
                   &app::EditSession::flush);
  viewers::SliceView view(viewers::SliceOrientation::Axial, state);
  view.setLabelState(display);
  view.setToolRouter(&router);
  view.resize(620, 600);
  view.show();
  QElapsedTimer wait;
  wait.start();
  while (!view.hasRenderedVolume() && wait.elapsed() < 60000) {
    QApplication::processEvents(QEventLoop::AllEvents, 20);
  }
  pump(300);

  viewers::VtkOpenGLWidget* canvas = view.canvas();
  const core::Vec3 c = state->cursor();
  const double radius = 0.3 * double(n);  // a circle around the centre, 1 mm per stamp
  auto at = [&](int s) {
    const double t = double(s) / radius;
    return view.worldToCanvas({c[0] + radius * std::cos(t), c[1] + radius * std::sin(t), c[2]});
  };
  send(canvas, QEvent::MouseButtonPress, at(0), Qt::LeftButton);
  waitFrame(canvas, canvas->renderedFrames());
  // Warm-up stamps (first uploads, shader compilation) are not counted.
  for (int s = 1; s <= 10; ++s) {
    const int frames = canvas->renderedFrames();
    send(canvas, QEvent::MouseMove, at(s), Qt::LeftButton);
    waitFrame(canvas, frames);
  }
  StampResult r;
  r.size = n;
  r.stamps = stamps;
  std::vector<double> total, event, render;
  const std::size_t bytes0 = view.labelUploadedBytes();
  for (int s = 11; s < 11 + stamps; ++s) {
    const int frames = canvas->renderedFrames();
    const auto t0 = Clock::now();
    send(canvas, QEvent::MouseMove, at(s), Qt::LeftButton);
    const double e = msSince(t0);
    r.everyStampRendered = waitFrame(canvas, frames) && r.everyStampRendered;
    const double all = msSince(t0);
    total.push_back(all);
    event.push_back(e);
    render.push_back(all - e);
  }
  send(canvas, QEvent::MouseButtonRelease, at(10 + stamps), Qt::NoButton);
  r.textureBytesPerStamp = double(view.labelUploadedBytes() - bytes0) / stamps;
  r.medianMs = percentile(total, 0.5);
  r.p90Ms = percentile(total, 0.9);
  r.meanMs = std::accumulate(total.begin(), total.end(), 0.0) / double(total.size());
  r.eventMedianMs = percentile(event, 0.5);
  r.renderMedianMs = percentile(render, 0.5);
  return r;
}

struct UndoResult {
  std::size_t bytes = 0;
  std::size_t changedVoxels = 0;
  double commitMs = 0;
};

// A ball brush of 20 voxels radius dragged 20 voxels in the axial view of a 512^3 map.
UndoResult measureUndo(std::size_t n) {
  const core::VolumePtr volume = makeVolume(n);
  auto display = std::make_shared<viewers::LabelDisplayState>();
  app::EditSession session(display);
  session.setImage(volume);
  session.ensureLabelMap();
  annotation::BrushTool brush(session.context());
  brush.shape().radiusMm = 20;
  brush.shape().sphere = true;
  const core::Vec3 c =
      volume->geometry().indexToWorld({double(n) / 2 - 10, double(n) / 2, double(n) / 2});
  annotation::PointerEvent e;
  e.action = annotation::PointerAction::Press;
  e.world = c;
  brush.pointer(e);
  e.action = annotation::PointerAction::Move;
  for (int s = 1; s <= 20; ++s) {
    e.world = {c[0] + s, c[1], c[2]};
    brush.pointer(e);
  }
  e.action = annotation::PointerAction::Release;
  const auto t0 = Clock::now();
  brush.pointer(e);
  UndoResult u;
  u.commitMs = msSince(t0);
  u.bytes = session.document().undoStack().bytes();
  u.changedVoxels = session.activeMap() ? [&] {
    const auto* d = session.activeMap()->data();
    return static_cast<std::size_t>(
        std::count_if(d, d + session.activeMap()->voxelCount(), [](auto v) { return v != 0; }));
  }()
                                        : 0;
  return u;
}

}  // namespace

int main(int argc, char** argv) {
  const char* display = std::getenv("DISPLAY");
  if (display == nullptr || *display == '\0') {
    std::fprintf(stderr, "brush_stroke_benchmark: needs an X display (run under xvfb-run)\n");
    return 1;
  }
  viewers::VtkOpenGLWidget::prepareApplication();
  QApplication application(argc, argv);
  const int stamps = argc > 1 ? std::max(10, std::atoi(argv[1])) : 200;

  const StampResult small = measureStamps(128, stamps);
  const StampResult large = measureStamps(512, stamps);
  const UndoResult undo = measureUndo(512);
  const double ratio = large.medianMs / small.medianMs;

  auto print = [](const StampResult& r, const char* comma) {
    std::printf(
        "    {\"volume\": \"%zu^3\", \"stamps\": %d, \"median_ms\": %.3f, \"mean_ms\": %.3f, "
        "\"p90_ms\": %.3f, \"event_to_overlay_median_ms\": %.3f, \"render_median_ms\": %.3f, "
        "\"texture_bytes_per_stamp\": %.0f, \"whole_slice_texture_bytes\": %zu, "
        "\"whole_label_map_bytes\": %zu, \"every_stamp_rendered\": %s}%s\n",
        r.size, r.stamps, r.medianMs, r.meanMs, r.p90Ms, r.eventMedianMs, r.renderMedianMs,
        r.textureBytesPerStamp, r.size * r.size * 4, r.size * r.size * r.size * 2,
        r.everyStampRendered ? "true" : "false", comma);
  };
  std::printf(
      "{\n  \"benchmark\": \"brush_stroke\",\n  \"view\": \"axial 620x600, radius 5 mm\",\n");
  std::printf("  \"stamp\": [\n");
  print(small, ",");
  print(large, "");
  std::printf("  ],\n");
  std::printf("  \"ratio_512_to_128\": %.3f, \"ratio_target\": 1.2, \"ratio_ok\": %s,\n", ratio,
              ratio <= 1.2 ? "true" : "false");
  std::printf(
      "  \"undo_3d_stroke_512\": {\"brush\": \"ball, radius 20 voxels, dragged 20 voxels\", "
      "\"undo_bytes\": %zu, \"target_bytes\": 65536, \"ok\": %s, \"changed_voxels\": %zu, "
      "\"commit_ms\": %.2f, \"uncompressed_box_bytes\": %zu}\n}\n",
      undo.bytes, undo.bytes <= 65536 ? "true" : "false", undo.changedVoxels, undo.commitMs,
      std::size_t(61) * 41 * 41 * 4);
  return 0;
}
