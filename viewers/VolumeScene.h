#pragma once
// The VTK scene of the 3D view: one vtkVolume in LPS world space (index-space image + the
// image's index-to-world matrix as the prop's user matrix), its transfer functions, the camera.
// No Qt; VolumeView owns and drives it.
#include <vtkNew.h>
#include <vtkSmartPointer.h>

#include "core/model/Volume.h"
#include "viewers/VolumePresets.h"

class vtkColorTransferFunction;
class vtkFixedPointVolumeRayCastMapper;
class vtkGPUVolumeRayCastMapper;
class vtkImageData;
class vtkPiecewiseFunction;
class vtkRenderer;
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
  void setStyle(const VolumeStyle& style, const char* name);
  void setInteractive(bool interactive);
  // Anterior view: looking posterior, superior up, patient left on screen right.
  void resetCamera();

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
  bool usesGradient_ = false;
};

}  // namespace delineate::viewers
