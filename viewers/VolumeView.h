#pragma once
// 3D volume rendering of a core::Volume with presets and interactive level of detail.
// On a software OpenGL (llvmpipe, softpipe) it ray-casts on the CPU
// (vtkFixedPointVolumeRayCastMapper), coarse while the mouse drags and full quality on release;
// on a real GPU it uses vtkGPUVolumeRayCastMapper. DELINEATE_VOLUME_MAPPER=cpu|gpu overrides.
//
// Mouse: left drag rotates, right drag or wheel zooms, middle (or Ctrl+left) drag pans;
// R resets the camera (anterior view, patient left on screen right).
#include <vtkSmartPointer.h>

#include <QPointF>
#include <QWidget>
#include <array>
#include <memory>
#include <vector>

#include "core/model/Volume.h"
#include "viewers/LabelDisplayState.h"
#include "viewers/VolumePresets.h"
#include "viewers/VolumeQuality.h"

class QTimer;
class vtkPolyData;

namespace delineate::viewers {

class VolumeScene;
class VtkOpenGLWidget;

class VolumeView : public QWidget {
  Q_OBJECT

 public:
  explicit VolumeView(QWidget* parent = nullptr);
  ~VolumeView() override;

  VtkOpenGLWidget* canvas() const { return canvas_; }

  void setVolume(core::VolumePtr volume);
  // Another frame of the shown 4-D image: preset and camera stay.
  void setFrame(core::VolumePtr frame);
  const core::VolumePtr& volume() const { return volume_; }
  void setPreset(VolumePreset preset);
  VolumePreset preset() const { return preset_; }
  void resetCamera();
  // Turns the camera about the focal point (degrees), as a left drag does.
  void rotate(double azimuthDeg, double elevationDeg);

  // Which mapper was chosen (decided when the GL context first appears).
  bool usesGpuMapper() const;
  // The software mapper shows a large image unshaded to spare 3 bytes a voxel (VolumeScene).
  bool shadingReducedForMemory() const;
  bool hasMapper() const;
  // True while the coarse level of detail is in use.
  bool isInteractive() const { return interactive_; }
  void setInteractive(bool interactive);
  // Edit > Preferences > 3D rendering; redraws at once.
  void setQuality(VolumeQuality quality);
  VolumeQuality quality() const;
  // The ray step (mm) and the screen-pixel step of the frames drawn now.
  double sampleDistance() const;
  double imageSampleDistance() const;

  // A frame of the current volume at full quality has been drawn (screenshots wait for this).
  bool hasRenderedVolume() const;
  // Any frame of the current volume has been drawn, coarse or full (the first frame a user sees).
  bool hasShownVolume() const;

  // Segment surfaces (built by a job, see SegmentSurfaceBuilder) in the index space of
  // `geometry`, coloured by label value; null removes them.
  void setSurfaces(vtkSmartPointer<vtkPolyData> surfaces, const core::ImageGeometry& geometry);
  void setSurfaceColors(const std::vector<LabelColor>& table);
  // > 0: surfaces coloured by signed distance (VolumeScene::setSurfaceDistanceRange); 0: by label.
  void setSurfaceDistanceRange(double rangeMm);
  double surfaceDistanceRange() const;
  std::array<double, 3> distanceColor(double mm) const;  // RGB 0..1 on that scale
  bool hasSurfaces() const;
  // What the view shows: the volume rendering and/or the surfaces.
  void setVolumeVisible(bool visible);
  void setSurfacesVisible(bool visible);
  bool volumeVisible() const;
  bool surfacesVisible() const;
  // True once a frame showing the latest surfaces (or visibility change) was rendered.
  bool hasRenderedSurfaces() const;
  // Where a world point appears on the canvas, in logical pixels.
  QPointF worldToCanvas(const core::Vec3& world) const;

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void onGlInitialized();

  std::unique_ptr<VolumeScene> scene_;
  VtkOpenGLWidget* canvas_ = nullptr;
  QTimer* settleTimer_ = nullptr;
  core::VolumePtr volume_;
  VolumePreset preset_ = VolumePreset::CtBone;
  bool interactive_ = false;
  int volumeFrame_ = -1;
  int shownFrame_ = -1;
  int surfaceFrame_ = -1;
  enum class Drag { None, Rotate, Zoom, Pan } drag_ = Drag::None;
  QPointF lastPos_;
};

}  // namespace delineate::viewers
