// Slice scroll frame time of our SliceView against a bare VTK reslice+render of the same data in a
// plain vtkRenderWindow of the same size, on a 512x512x500 CT. Prints JSON. Run under a display:
//   xvfb-run -a -s "-screen 0 1280x1024x24" build/default/bench/slice_scroll_benchmark
#include <vtkCamera.h>
#include <vtkImageData.h>
#include <vtkImageProperty.h>
#include <vtkImageResliceMapper.h>
#include <vtkImageSlice.h>
#include <vtkNew.h>
#include <vtkPlane.h>
#include <vtkRenderWindow.h>
#include <vtkRenderer.h>

#include <QApplication>
#include <QSlider>
#include <QWindow>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/io/VolumeFileIO.h"
#include "core/sample/SampleCase.h"
#include "viewers/SliceView.h"
#include "viewers/ViewState.h"
#include "viewers/VtkOpenGLWidget.h"
#include "viewers/VtkVolumeImage.h"

using namespace delineate;
namespace fs = std::filesystem;

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

core::VolumePtr loadCt() {
  const fs::path cached = fs::temp_directory_path() / "delineate-bench-load/512x512x500/ct.nii.gz";
  core::NullProgress progress;
  if (fs::exists(cached)) {
    return core::readVolumeFile(cached, progress);
  }
  return core::sample::makeAbdomenCt(7, {512, 512, 500}).image;
}

constexpr int kFrames = 120;
constexpr int kSize = 600;

double bareVtkFrameMs(const core::VolumePtr& volume) {
  auto image = viewers::makeVtkIndexSpaceImage(volume);
  vtkNew<vtkImageResliceMapper> mapper;
  mapper->SetInputData(image);
  mapper->SliceFacesCameraOn();
  mapper->SliceAtFocalPointOn();
  vtkNew<vtkImageSlice> slice;
  slice->SetMapper(mapper);
  slice->GetProperty()->SetColorWindow(400);
  slice->GetProperty()->SetColorLevel(50);
  vtkNew<vtkRenderer> renderer;
  renderer->AddViewProp(slice);
  vtkNew<vtkRenderWindow> window;
  window->SetSize(kSize, kSize);
  window->AddRenderer(renderer);
  renderer->ResetCamera();
  vtkCamera* camera = renderer->GetActiveCamera();
  window->Render();
  const auto& g = volume->geometry();
  double fp[3], pos[3];
  camera->GetFocalPoint(fp);
  camera->GetPosition(pos);
  const double start = now();
  for (int f = 0; f < kFrames; ++f) {
    const double z = (f % int(g.size[2])) * g.spacing[2];
    camera->SetFocalPoint(fp[0], fp[1], z);
    camera->SetPosition(pos[0], pos[1], z + (pos[2] - fp[2]));
    window->Render();
  }
  return (now() - start) / kFrames * 1000.0;
}

}  // namespace

int main(int argc, char** argv) {
  viewers::VtkOpenGLWidget::prepareApplication();
  QApplication app(argc, argv);
  const double t0 = now();
  const core::VolumePtr volume = loadCt();
  const double loadSeconds = now() - t0;

  auto state = std::make_shared<viewers::ViewState>();
  state->setVolume(volume);
  viewers::SliceView view(viewers::SliceOrientation::Axial, state);
  view.resize(kSize, kSize);
  view.show();
  // Benchmark harness only: let the window map and show its first frame.
  const double deadline = now() + 10;
  while (now() < deadline &&
         !(view.windowHandle() && view.windowHandle()->isExposed() && view.hasRenderedVolume())) {
    QApplication::processEvents(QEventLoop::AllEvents, 50);
  }
  const bool exposed = view.windowHandle() && view.windowHandle()->isExposed();
  auto* canvas = view.canvas();
  // grabFramebuffer() runs paintGL synchronously and reads the frame back (~1 ms for 600x600),
  // the same work a bare vtkRenderWindow::Render() does up to its buffer swap.
  auto frame = [&] { (void)canvas->grabFramebuffer(); };
  frame();
  const double start = now();
  for (int f = 0; f < kFrames; ++f) {
    view.stepSlices(f % 2 == 0 ? 1 : -1);  // alternate so the slice always changes
    frame();
  }
  const double oursMs = (now() - start) / kFrames * 1000.0;
  view.hide();
  const double bareMs = bareVtkFrameMs(volume);

  const auto& g = volume->geometry();
  nlohmann::json out{{"benchmark", "slice_scroll"},
                     {"volume", {g.size[0], g.size[1], g.size[2]}},
                     {"view_pixels", {kSize, kSize}},
                     {"frames", kFrames},
                     {"window_exposed", exposed},
                     {"volume_load_seconds", std::round(loadSeconds * 100) / 100},
                     {"ours_ms_per_frame", std::round(oursMs * 100) / 100},
                     {"bare_vtk_reslice_render_ms_per_frame", std::round(bareMs * 100) / 100},
                     {"ratio_ours_vs_bare_vtk", std::round(oursMs / bareMs * 100) / 100}};
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}
