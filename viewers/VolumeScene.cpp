#include "viewers/VolumeScene.h"

#include <vtkActor.h>
#include <vtkCamera.h>
#include <vtkColorTransferFunction.h>
#include <vtkCoordinate.h>
#include <vtkFixedPointVolumeRayCastMapper.h>
#include <vtkGPUVolumeRayCastMapper.h>
#include <vtkImageData.h>
#include <vtkLookupTable.h>
#include <vtkMatrix4x4.h>
#include <vtkPiecewiseFunction.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkProperty.h>
#include <vtkRenderer.h>
#include <vtkScalarBarActor.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkVolume.h>
#include <vtkVolumeProperty.h>

#include <algorithm>
#include <atomic>
#include <cmath>

#include "viewers/SurfaceDistanceColoring.h"
#include "viewers/VtkVolumeImage.h"

namespace delineate::viewers {

namespace {
// Above this many voxels the software mapper renders without gradients: 3 bytes a voxel, 1.5x
// an int16 image (393 MB for a 512 x 512 x 500 CT, 2.4 GB for 1024 x 1024 x 800).
std::atomic<std::size_t> cpuGradientVoxelLimit{VolumeScene::kDefaultCpuGradientVoxelLimit};
}  // namespace

VolumeScene::VolumeScene() {
  renderer_->SetBackground(0.0, 0.0, 0.0);
  renderer_->SetBackground2(0.12, 0.12, 0.18);
  renderer_->GradientBackgroundOn();
  property_->SetColor(color_);
  property_->SetScalarOpacity(opacity_);
  property_->SetInterpolationTypeToLinear();
  prop_->SetProperty(property_);
  prop_->VisibilityOff();
  renderer_->AddVolume(prop_);

  vtkTextProperty* t = label_->GetTextProperty();
  t->SetFontFamilyToArial();
  t->SetFontSize(13);
  t->SetColor(0.85, 0.85, 0.85);
  t->ShadowOn();
  t->SetVerticalJustificationToTop();
  label_->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
  label_->SetPosition(0.01, 0.99);
  label_->SetInput("3D");
  renderer_->AddViewProp(label_);

  surfaceMapper_->SetLookupTable(surfaceColors_);
  surfaceMapper_->SetScalarModeToUsePointData();
  surfaceMapper_->SetColorModeToMapScalars();
  surfaceMapper_->ScalarVisibilityOn();
  surfaceMapper_->UseLookupTableScalarRangeOn();
  surfaceActor_->SetMapper(surfaceMapper_);
  surfaceActor_->GetProperty()->SetSpecular(0.2);
  surfaceActor_->GetProperty()->SetSpecularPower(20);
  surfaceActor_->VisibilityOff();
  renderer_->AddActor(surfaceActor_);

  // Diverging "cool to warm" (Moreland): blue inside the reference, white on it, red outside.
  const int n = 256;
  distanceColors_->SetNumberOfTableValues(n);
  for (int v = 0; v < n; ++v) {
    const double t = double(v) / (n - 1);
    const double a = t < 0.5 ? t * 2 : (t - 0.5) * 2;
    const double from[3] = {t < 0.5 ? 0.230 : 0.865, t < 0.5 ? 0.299 : 0.865,
                            t < 0.5 ? 0.754 : 0.865};
    const double to[3] = {t < 0.5 ? 0.865 : 0.706, t < 0.5 ? 0.865 : 0.016,
                          t < 0.5 ? 0.865 : 0.150};
    distanceColors_->SetTableValue(v, from[0] + (to[0] - from[0]) * a,
                                   from[1] + (to[1] - from[1]) * a, from[2] + (to[2] - from[2]) * a,
                                   1.0);
  }
  distanceColors_->SetNanColor(0.5, 0.5, 0.5, 1.0);
  distanceColors_->SetUseBelowRangeColor(false);
  distanceColors_->SetUseAboveRangeColor(false);
  distanceLegend_->SetLookupTable(distanceColors_);
  distanceLegend_->SetTitle("mm");
  distanceLegend_->SetNumberOfLabels(5);
  distanceLegend_->SetMaximumWidthInPixels(70);
  distanceLegend_->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
  distanceLegend_->SetPosition(0.88, 0.1);
  distanceLegend_->SetWidth(0.1);
  distanceLegend_->SetHeight(0.8);
  distanceLegend_->VisibilityOff();
  renderer_->AddViewProp(distanceLegend_);
}

void VolumeScene::setSurfaceDistanceRange(double rangeMm) {
  distanceRange_ = std::max(0.0, rangeMm);
  if (distanceRange_ > 0) {
    distanceColors_->SetTableRange(-distanceRange_, distanceRange_);
    surfaceMapper_->SetLookupTable(distanceColors_);
    surfaceMapper_->SetScalarModeToUsePointFieldData();
    surfaceMapper_->SelectColorArray(kSignedDistanceArray);
  } else {
    surfaceMapper_->SetLookupTable(surfaceColors_);
    surfaceMapper_->SetScalarModeToUsePointData();
  }
  distanceLegend_->SetVisibility(distanceRange_ > 0);
  surfaceMapper_->Modified();
}

std::array<double, 3> VolumeScene::distanceColor(double mm) const {
  double rgb[3];
  distanceColors_->GetColor(mm, rgb);
  return {rgb[0], rgb[1], rgb[2]};
}

void VolumeScene::setSurfaces(vtkSmartPointer<vtkPolyData> surfaces,
                              const core::ImageGeometry& geometry) {
  surfaces_ = std::move(surfaces);
  if (!surfaces_ || surfaces_->GetNumberOfPoints() == 0) {
    surfaceActor_->VisibilityOff();
    surfaceMapper_->RemoveAllInputs();
    return;
  }
  surfaceMapper_->SetInputData(surfaces_);
  surfaceActor_->SetUserMatrix(indexSpaceToWorld(geometry));
  surfaceActor_->SetVisibility(surfacesVisible_);
  renderer_->ResetCameraClippingRange();
}

bool VolumeScene::hasSurfaces() const {
  return surfaces_ && surfaces_->GetNumberOfPoints() > 0;
}

void VolumeScene::setSurfaceColors(const std::vector<LabelColor>& table) {
  const int n = std::max<int>(2, static_cast<int>(table.size()));
  surfaceColors_->SetNumberOfTableValues(n);
  // Value v falls in entry v: the range is [-0.5, n - 0.5].
  surfaceColors_->SetTableRange(-0.5, n - 0.5);
  for (int v = 0; v < n; ++v) {
    const bool known = v < static_cast<int>(table.size());
    const auto& c = known ? table[std::size_t(v)].fill : std::array<std::uint8_t, 4>{0, 0, 0, 0};
    surfaceColors_->SetTableValue(v, c[0] / 255.0, c[1] / 255.0, c[2] / 255.0, 1.0);
  }
  surfaceColors_->Modified();
}

void VolumeScene::setVolumeVisible(bool visible) {
  volumeVisible_ = visible;
  prop_->SetVisibility(visible && image_ != nullptr && mapper_ != nullptr);
}

void VolumeScene::setSurfacesVisible(bool visible) {
  surfacesVisible_ = visible;
  surfaceActor_->SetVisibility(visible && hasSurfaces());
}

std::array<double, 2> VolumeScene::worldToDisplay(const core::Vec3& world) const {
  renderer_->SetWorldPoint(world[0], world[1], world[2], 1.0);
  renderer_->WorldToDisplay();
  double d[3];
  renderer_->GetDisplayPoint(d);
  return {d[0], d[1]};
}

VolumeScene::~VolumeScene() = default;

vtkRenderer* VolumeScene::renderer() const {
  return renderer_;
}

void VolumeScene::createMapper(bool gpu) {
  if (mapper_) {
    return;
  }
  if (gpu) {
    auto m = vtkSmartPointer<vtkGPUVolumeRayCastMapper>::New();
    m->AutoAdjustSampleDistancesOff();
    m->LockSampleDistanceToInputSpacingOff();
    gpu_ = m;
    mapper_ = m;
  } else {
    auto m = vtkSmartPointer<vtkFixedPointVolumeRayCastMapper>::New();
    m->AutoAdjustSampleDistancesOff();
    m->LockSampleDistanceToInputSpacingOff();
    cpu_ = m;
    mapper_ = m;
  }
  mapper_->SetBlendModeToComposite();
  prop_->SetMapper(mapper_);
  applyShading();
  connectInput();
  setInteractive(false);
}

void VolumeScene::setVolume(const core::VolumePtr& volume) {
  volume_ = volume;
  if (!volume_) {
    image_ = nullptr;
    prop_->VisibilityOff();
    if (mapper_) {
      mapper_->RemoveAllInputs();
    }
    return;
  }
  const auto& g = volume_->geometry();
  gradientVoxelLimit_ = cpuGradientVoxelLimit;
  image_ = makeVtkIndexSpaceImage(volume_);
  prop_->SetUserMatrix(indexSpaceToWorld(g));
  baseSampleDistance_ = std::max(0.1, *std::min_element(g.spacing.begin(), g.spacing.end()) / 2);
  property_->SetScalarOpacityUnitDistance(baseSampleDistance_ * 2);
  applyShading();
  connectInput();
  setInteractive(false);
  resetCamera();
}

void VolumeScene::setFrame(const core::VolumePtr& frame) {
  if (!volume_ || !frame) {
    setVolume(frame);
    return;
  }
  volume_ = frame;
  image_ = makeVtkIndexSpaceImage(volume_);
  connectInput();
}

void VolumeScene::connectInput() {
  if (mapper_ && image_) {
    mapper_->SetInputData(image_);
    prop_->SetVisibility(volumeVisible_);
  }
}

void VolumeScene::setStyle(const VolumeStyle& style, const char* name) {
  color_->RemoveAllPoints();
  opacity_->RemoveAllPoints();
  for (const TransferPoint& p : style.points) {
    color_->AddRGBPoint(p.value, p.red, p.green, p.blue);
    opacity_->AddPoint(p.value, p.opacity);
  }
  gradient_->RemoveAllPoints();
  for (const auto& [magnitude, factor] : style.gradientOpacity) {
    gradient_->AddPoint(magnitude, factor);
  }
  gradientRequested_ = !style.gradientOpacity.empty();
  shadeRequested_ = style.shade;
  presetName_ = name;
  property_->SetAmbient(style.ambient);
  property_->SetDiffuse(style.diffuse);
  property_->SetSpecular(style.specular);
  property_->SetSpecularPower(style.specularPower);
  applyShading();
}

void VolumeScene::setCpuGradientVoxelLimit(std::size_t voxels) {
  cpuGradientVoxelLimit = voxels;
}

bool VolumeScene::shadingReducedForMemory() const {
  return cpu_ != nullptr && volume_ && volume_->geometry().voxelCount() > gradientVoxelLimit_ &&
         (shadeRequested_ || gradientRequested_);
}

void VolumeScene::applyShading() {
  const bool reduced = shadingReducedForMemory();
  const bool useGradient = gradientRequested_ && !reduced;
  if (useGradient) {
    property_->DisableGradientOpacityOff();
    property_->SetGradientOpacity(gradient_);
  } else {
    property_->DisableGradientOpacityOn();
  }
  if (useGradient != usesGradient_ && image_) {
    // The CPU mapper computes gradient magnitudes only when its input changes; switching the
    // gradient term on later would otherwise see zero magnitudes (an empty picture).
    image_->Modified();
  }
  usesGradient_ = useGradient;
  property_->SetShade(shadeRequested_ && !reduced ? 1 : 0);
  label_->SetInput(
      ("3D  " + presetName_ + (reduced ? "  (unshaded: large image)" : std::string())).c_str());
}

void VolumeScene::setInteractive(bool interactive) {
  interactive_ = interactive;
  const VolumeSampling s = samplingFor(quality_);
  const auto sample = static_cast<float>(sampleDistance());
  const auto image = static_cast<float>(imageSampleDistance());
  if (cpu_ != nullptr) {
    cpu_->SetSampleDistance(sample);
    cpu_->SetInteractiveSampleDistance(sample);
    cpu_->SetImageSampleDistance(image);
  }
  if (gpu_ != nullptr) {
    gpu_->SetSampleDistance(sample);
    // The GPU casts fast enough that a drag needs only half the screen resolution.
    gpu_->SetImageSampleDistance(static_cast<float>(std::min(image, 2.0F * float(s.imageSample))));
  }
}

void VolumeScene::setQuality(VolumeQuality quality) {
  quality_ = quality;
  setInteractive(interactive_);
}

double VolumeScene::sampleDistance() const {
  const VolumeSampling s = samplingFor(quality_);
  return baseSampleDistance_ * (interactive_ ? s.interactiveFactor : s.sampleFactor);
}

double VolumeScene::imageSampleDistance() const {
  const VolumeSampling s = samplingFor(quality_);
  return interactive_ ? s.interactiveImage : s.imageSample;
}

void VolumeScene::resetCamera() {
  vtkCamera* camera = renderer_->GetActiveCamera();
  double bounds[6];
  prop_->GetBounds(bounds);
  const double center[3] = {(bounds[0] + bounds[1]) / 2, (bounds[2] + bounds[3]) / 2,
                            (bounds[4] + bounds[5]) / 2};
  camera->SetFocalPoint(center);
  // Anterior is -y in LPS.
  camera->SetPosition(center[0], center[1] - 1000, center[2]);
  camera->SetViewUp(0, 0, 1);
  camera->ParallelProjectionOff();
  camera->SetViewAngle(30);
  if (volume_) {
    renderer_->ResetCamera(bounds);
  }
  renderer_->ResetCameraClippingRange();
}

void VolumeScene::rotate(double azimuthDeg, double elevationDeg) {
  vtkCamera* camera = renderer_->GetActiveCamera();
  camera->Azimuth(azimuthDeg);
  camera->Elevation(elevationDeg);
  camera->OrthogonalizeViewUp();
  renderer_->ResetCameraClippingRange();
}

void VolumeScene::zoom(double factor) {
  renderer_->GetActiveCamera()->Dolly(factor);
  renderer_->ResetCameraClippingRange();
}

void VolumeScene::pan(double dxFraction, double dyFraction) {
  vtkCamera* camera = renderer_->GetActiveCamera();
  double focal[3], position[3], up[3], dir[3];
  camera->GetFocalPoint(focal);
  camera->GetPosition(position);
  camera->GetViewUp(up);
  camera->GetDirectionOfProjection(dir);
  const double right[3] = {dir[1] * up[2] - dir[2] * up[1], dir[2] * up[0] - dir[0] * up[2],
                           dir[0] * up[1] - dir[1] * up[0]};
  const double height =
      2 * camera->GetDistance() * std::tan(camera->GetViewAngle() * 3.14159265358979 / 360);
  for (int a = 0; a < 3; ++a) {
    const double move = (-dxFraction * right[a] + dyFraction * up[a]) * height;
    focal[a] += move;
    position[a] += move;
  }
  camera->SetFocalPoint(focal);
  camera->SetPosition(position);
  renderer_->ResetCameraClippingRange();
}

}  // namespace delineate::viewers
