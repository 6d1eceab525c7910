#pragma once
// The VTK scene of the 3D view: one vtkVolume in LPS world space (index-space image + the
// image's index-to-world matrix as the prop's user matrix), its transfer functions, the camera.
// No Qt; VolumeView owns and drives it.
#include <vtkNew.h>
#include <vtkSmartPointer.h>

#include <array>
#include <string>
#include <vector>

#include "core/model/Volume.h"
#include "viewers/LabelDisplayState.h"
#include "viewers/VolumePresets.h"
#include "viewers/VolumeQuality.h"

class vtkActor;
class vtkColorTransferFunction;
class vtkLookupTable;
class vtkPolyData;
class vtkPolyDataMapper;
class vtkFixedPointVolumeRayCastMapper;
class vtkGPUVolumeRayCastMapper;
class vtkImageData;
class vtkPiecewiseFunction;
class vtkRenderer;
class vtkScalarBarActor;
class vtkTextActor;
class vtkVolume;
class vtkVolumeMapper;
class vtkVolumeProperty;

namespace delineate::viewers {

class VolumeScene {
 public:
  VolumeScene();
  ~VolumeScene();
  VolumeScene(const VolumeScene&) = delete;
  VolumeScene& operator=(const VolumeScene&) = delete;

  vtkRenderer* renderer() const;
  // Chooses the mapper once; later calls are ignored.
  void createMapper(bool gpu);
  bool hasMapper() const { return mapper_ != nullptr; }
  bool usesGpu() const { return gpu_ != nullptr; }

  void setVolume(const core::VolumePtr& volume);
  // Another frame of the same 4-D image: the camera and the style stay.
  void setFrame(const core::VolumePtr& frame);
  void setStyle(const VolumeStyle& style, const char* name);
  void setInteractive(bool interactive);
  // True when the software mapper renders a large image without shading and gradient opacity:
  // their gradients would take 3 bytes a voxel (1.5x an int16 image) on top of the voxels.
  bool shadingReducedForMemory() const;
  // The voxel count above which that happens: by default 32 Mi voxels, so shading never costs
  // more than 96 MB; for tests and machines with memory to spare. Applies to scenes given a
  // volume afterwards.
  static constexpr std::size_t kDefaultCpuGradientVoxelLimit = std::size_t{32} << 20;
  static void setCpuGradientVoxelLimit(std::size_t voxels);
  // How finely rays are sampled (applies at once, to the current level of detail).
  void setQuality(VolumeQuality quality);
  VolumeQuality quality() const { return quality_; }
  // The ray step and screen-pixel step in use now (tests).
  double sampleDistance() const;
  double imageSampleDistance() const;
  // Anterior view: looking posterior, superior up, patient left on screen right.
  void resetCamera();

  // Segment surfaces (point scalars = label values) in the index space of `geometry`'s grid.
  // Null removes them.
  void setSurfaces(vtkSmartPointer<vtkPolyData> surfaces, const core::ImageGeometry& geometry);
  // Colours by label value (the fill colour's RGB; alpha 0 hides a label).
  void setSurfaceColors(const std::vector<LabelColor>& table);
  // > 0: colours the surfaces by their point array kSignedDistanceArray (SurfaceDistanceColoring)
  // on a blue–white–red scale from -range to +range mm, with a legend; 0: by label again.
  void setSurfaceDistanceRange(double rangeMm);
  double surfaceDistanceRange() const { return distanceRange_; }
  // The colour of a signed distance on that scale (tests).
  std::array<double, 3> distanceColor(double mm) const;
  void setVolumeVisible(bool visible);
  void setSurfacesVisible(bool visible);
  bool volumeVisible() const { return volumeVisible_; }
  bool surfacesVisible() const { return surfacesVisible_; }
  bool hasSurfaces() const;
  // Where a world point appears, in the renderer's display coordinates (device pixels, y up).
  std::array<double, 2> worldToDisplay(const core::Vec3& world) const;

  void rotate(double azimuthDeg, double elevationDeg);
  void zoom(double factor);
  // Moves the scene by a fraction of the view height.
  void pan(double dxFraction, double dyFraction);

 private:
  void connectInput();

  core::VolumePtr volume_;
  vtkSmartPointer<vtkImageData> image_;
  vtkNew<vtkRenderer> renderer_;
  vtkNew<vtkVolume> prop_;
  vtkNew<vtkVolumeProperty> property_;
  vtkNew<vtkColorTransferFunction> color_;
  vtkNew<vtkPiecewiseFunction> opacity_;
  vtkNew<vtkPiecewiseFunction> gradient_;
  vtkNew<vtkTextActor> label_;
  vtkSmartPointer<vtkVolumeMapper> mapper_;
  vtkFixedPointVolumeRayCastMapper* cpu_ = nullptr;
  vtkGPUVolumeRayCastMapper* gpu_ = nullptr;
  double baseSampleDistance_ = 1;
  VolumeQuality quality_ = VolumeQuality::Balanced;
  bool interactive_ = false;
  bool usesGradient_ = false;
  // What the preset asks for; applyShading() grants it unless the image is too large for the
  // CPU mapper's gradients (3 bytes a voxel).
  bool shadeRequested_ = false;
  bool gradientRequested_ = false;
  std::string presetName_;
  std::size_t gradientVoxelLimit_ = 0;  // the limit when the volume was set
  void applyShading();
  vtkNew<vtkActor> surfaceActor_;
  vtkNew<vtkPolyDataMapper> surfaceMapper_;
  vtkNew<vtkLookupTable> surfaceColors_;
  vtkNew<vtkLookupTable> distanceColors_;
  vtkNew<vtkScalarBarActor> distanceLegend_;
  double distanceRange_ = 0;
  vtkSmartPointer<vtkPolyData> surfaces_;
  bool volumeVisible_ = true;
  bool surfacesVisible_ = true;
};

}  // namespace delineate::viewers
