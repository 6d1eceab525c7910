#pragma once
// The VTK scene of one slice view: the volume resliced through the cursor in patient space,
// the linked crosshair, orientation letters, a scale bar and corner text. No Qt; SliceView owns
// one and drives it. The scene lives in the view's plane coordinates (u, v) = (dot(p, right),
// dot(p, up)) with the camera looking down -z, so screen right is +u and screen up is +v.
#include <vtkNew.h>
#include <vtkSmartPointer.h>

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "core/model/LabelMap.h"
#include "core/model/Volume.h"
#include "viewers/LabelDisplayState.h"
#include "viewers/SliceGeometry.h"
#include "viewers/SliceViewport.h"
#include "viewers/WindowLevel.h"

class vtkActor;
class vtkActor2D;
class vtkImageActor;
class vtkImageData;
class vtkImageReslice;
class vtkMatrix4x4;
class vtkPoints;
class vtkPolyData;
class vtkRenderer;
class vtkTextActor;

namespace delineate::viewers {

class LabelSliceLayer;

class SliceScene {
 public:
  explicit SliceScene(SliceOrientation orientation);
  ~SliceScene();
  SliceScene(const SliceScene&) = delete;
  SliceScene& operator=(const SliceScene&) = delete;

  vtkRenderer* renderer() const;
  SliceOrientation orientation() const { return orientation_; }

  // Null clears the view.
  void setVolume(const core::VolumePtr& volume);
  // Moves the slice plane through `cursor` (only reslices when the plane moved) and the crosshair.
  void setCursor(const core::Vec3& cursor);
  void setWindowLevel(const WindowLevel& windowLevel);
  // Camera and scale bar for the view's current zoom, pan and size.
  void setViewport(const SliceViewport& viewport);
  void setCrosshairVisible(bool visible);
  void setCornerText(const std::string& topLeft, const std::string& bottomLeft);
  // Whether the L/R/A/P/S/I letters show: only when the image says how the patient lies.
  bool orientationLettersShown() const;
  // The scale bar's length in mm (for tests and the status line).
  double scaleBarMm() const { return scaleBarMm_; }
  const SliceGrid& grid() const { return grid_; }

  // Label overlays, bottom to top (layers of maps still listed are kept, not rebuilt).
  void setLabelMaps(const std::vector<std::shared_ptr<const core::LabelMap>>& maps);
  void setLabelColors(const core::LabelMap* map, std::vector<LabelColor> table);
  // Returns true when the change reached this slice (the view must render).
  bool labelVoxelsChanged(const core::LabelMap* map, const core::VoxelBox& box);
  LabelSliceLayer* labelLayer(const core::LabelMap* map) const;
  std::size_t labelUploadedBytes() const;

  // A polyline in plane coordinates (u, v) over everything (brush circle, lasso); empty hides it.
  void setToolOutline(const std::vector<std::array<double, 2>>& points, bool closed);
  // AI click markers in plane coordinates: a ring of `radius` mm, RGB colour, plus a cross for
  // positive clicks. Empty hides them.
  struct PlaneMarker {
    std::array<double, 2> at{};
    double radius = 2;
    std::array<unsigned char, 3> rgb{255, 255, 255};
    bool cross = false;
    // A prompt's outline (box, lasso, scribble) in plane coordinates, drawn instead of a ring.
    std::vector<std::array<double, 2>> outline;
    bool closed = false;
  };
  void setMarkers(const std::vector<PlaneMarker>& markers);
  std::size_t markerCount() const { return markerCount_; }

 private:
  void buildOverlays();
  void updateResliceGrid();

  SliceOrientation orientation_;
  core::VolumePtr volume_;
  double slicePosition_ = 0;
  bool hasSlice_ = false;
  double scaleBarMm_ = 0;

  vtkNew<vtkRenderer> renderer_;
  vtkNew<vtkImageReslice> reslice_;
  vtkNew<vtkMatrix4x4> axes_;
  vtkNew<vtkImageActor> image_;
  vtkSmartPointer<vtkImageData> indexImage_;
  vtkNew<vtkActor> horizontal_;
  vtkNew<vtkActor> vertical_;
  vtkNew<vtkPoints> crossPoints_;
  std::array<vtkSmartPointer<vtkTextActor>, 4> letters_;
  vtkNew<vtkTextActor> topLeft_;
  vtkNew<vtkTextActor> bottomLeft_;
  vtkNew<vtkActor2D> scaleBar_;
  vtkNew<vtkPoints> scalePoints_;
  vtkNew<vtkTextActor> scaleLabel_;
  SliceGrid grid_;
  std::vector<std::unique_ptr<LabelSliceLayer>> labelLayers_;
  vtkNew<vtkActor> toolOutline_;
  vtkNew<vtkPolyData> toolOutlineData_;
  vtkNew<vtkActor> markers_;
  vtkNew<vtkPolyData> markerData_;
  std::size_t markerCount_ = 0;
};

}  // namespace delineate::viewers
