#include "viewers/SliceScene.h"

#include <vtkActor.h>
#include <vtkActor2D.h>
#include <vtkCamera.h>
#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkImageActor.h>
#include <vtkImageData.h>
#include <vtkImageProperty.h>
#include <vtkImageReslice.h>
#include <vtkImageSliceMapper.h>
#include <vtkLookupTable.h>
#include <vtkMatrix4x4.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkPolyDataMapper.h>
#include <vtkPolyDataMapper2D.h>
#include <vtkProperty.h>
#include <vtkProperty2D.h>
#include <vtkRenderer.h>
#include <vtkTextActor.h>
#include <vtkTextProperty.h>
#include <vtkUnsignedCharArray.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "viewers/LabelSliceLayer.h"
#include "viewers/VtkVolumeImage.h"

namespace delineate::viewers {

namespace {

// Slicer's plane colours: axial red, coronal green, sagittal yellow.
std::array<double, 3> planeColor(SliceOrientation o) {
  switch (o) {
    case SliceOrientation::Axial:
      return {0.95, 0.35, 0.35};
    case SliceOrientation::Coronal:
      return {0.45, 0.75, 0.38};
    case SliceOrientation::Sagittal:
      break;
  }
  return {0.95, 0.85, 0.30};
}

// The other view's plane that appears as the horizontal (perpendicular to screen up) and the
// vertical (perpendicular to screen right) line in this view.
SliceOrientation planeAcross(const core::Vec3& axis) {
  switch (core::patientDirectionLetter(axis)) {
    case 'S':
    case 'I':
      return SliceOrientation::Axial;
    case 'A':
    case 'P':
      return SliceOrientation::Coronal;
    default:
      return SliceOrientation::Sagittal;
  }
}

void styleText(vtkTextActor* text, int size, double r, double g, double b) {
  vtkTextProperty* p = text->GetTextProperty();
  p->SetFontFamilyToArial();
  p->SetFontSize(size);
  p->SetColor(r, g, b);
  p->ShadowOn();
  p->SetShadowOffset(1, -1);
  text->GetPositionCoordinate()->SetCoordinateSystemToNormalizedViewport();
}

vtkSmartPointer<vtkPolyData> lineData(vtkPoints* points, vtkIdType a, vtkIdType b) {
  auto data = vtkSmartPointer<vtkPolyData>::New();
  data->SetPoints(points);
  vtkNew<vtkCellArray> lines;
  const vtkIdType ids[2] = {a, b};
  lines->InsertNextCell(2, ids);
  data->SetLines(lines);
  return data;
}

// 1, 2 or 5 times a power of ten, at most `limit`.
double niceLength(double limit) {
  if (!(limit > 0)) {
    return 0;
  }
  const double p = std::pow(10.0, std::floor(std::log10(limit)));
  for (double m : {5.0, 2.0, 1.0}) {
    if (m * p <= limit) {
      return m * p;
    }
  }
  return p;
}

}  // namespace

SliceScene::SliceScene(SliceOrientation orientation) : orientation_(orientation) {
  renderer_->SetBackground(0, 0, 0);
  vtkCamera* camera = renderer_->GetActiveCamera();
  camera->ParallelProjectionOn();
  camera->SetViewUp(0, 1, 0);

  reslice_->SetOutputDimensionality(2);
  reslice_->SetInterpolationModeToLinear();
  reslice_->SetResliceAxes(axes_);
  reslice_->AutoCropOutputOff();
  image_->GetMapper()->SetInputConnection(reslice_->GetOutputPort());
  if (auto* mapper = vtkImageSliceMapper::SafeDownCast(image_->GetMapper())) {
    mapper->BorderOn();  // show edge voxels whole
  }
  image_->GetProperty()->SetInterpolationTypeToLinear();
  image_->VisibilityOff();
  renderer_->AddViewProp(image_);
  buildOverlays();
}

SliceScene::~SliceScene() = default;

void SliceScene::setLabelMaps(const std::vector<std::shared_ptr<const core::LabelMap>>& maps) {
  std::vector<std::unique_ptr<LabelSliceLayer>> layers;
  for (const auto& map : maps) {
    auto it = std::find_if(labelLayers_.begin(), labelLayers_.end(),
                           [&](const auto& l) { return l && l->map() == map.get(); });
    if (it != labelLayers_.end()) {
      layers.push_back(std::move(*it));
      continue;
    }
    auto layer = std::make_unique<LabelSliceLayer>(map, orientation_);
    layer->addTo(renderer_);
    if (hasSlice_) {
      layer->setPlane(slicePosition_, grid_);
    }
    layers.push_back(std::move(layer));
  }
  labelLayers_ = std::move(layers);  // layers of maps no longer shown leave the renderer here
  for (std::size_t i = 0; i < labelLayers_.size(); ++i) {
    labelLayers_[i]->setDepth(0.5 + 0.01 * static_cast<double>(i));
  }
}

void SliceScene::setLabelColors(const core::LabelMap* map, std::vector<LabelColor> table) {
  if (LabelSliceLayer* layer = labelLayer(map)) {
    layer->setColors(std::move(table));
  }
}

bool SliceScene::labelVoxelsChanged(const core::LabelMap* map, const core::VoxelBox& box) {
  LabelSliceLayer* layer = labelLayer(map);
  return layer != nullptr && layer->voxelsChanged(box);
}

LabelSliceLayer* SliceScene::labelLayer(const core::LabelMap* map) const {
  for (const auto& l : labelLayers_) {
    if (l->map() == map) {
      return l.get();
    }
  }
  return nullptr;
}

std::size_t SliceScene::labelUploadedBytes() const {
  std::size_t n = 0;
  for (const auto& l : labelLayers_) {
    n += l->uploadedBytes();
  }
  return n;
}

void SliceScene::setToolOutline(const std::vector<std::array<double, 2>>& points, bool closed) {
  if (points.size() < 2) {
    toolOutline_->VisibilityOff();
    return;
  }
  vtkNew<vtkPoints> pts;
  pts->SetNumberOfPoints(static_cast<vtkIdType>(points.size()));
  for (std::size_t i = 0; i < points.size(); ++i) {
    pts->SetPoint(static_cast<vtkIdType>(i), points[i][0], points[i][1], 1.5);
  }
  vtkNew<vtkCellArray> line;
  const auto n = static_cast<vtkIdType>(points.size());
  line->InsertNextCell(closed ? n + 1 : n);
  for (vtkIdType i = 0; i < n; ++i) {
    line->InsertCellPoint(i);
  }
  if (closed) {
    line->InsertCellPoint(0);
  }
  toolOutlineData_->SetPoints(pts);
  toolOutlineData_->SetLines(line);
  toolOutlineData_->Modified();
  toolOutline_->VisibilityOn();
}

void SliceScene::setMarkers(const std::vector<PlaneMarker>& markers) {
  markerCount_ = markers.size();
  if (markers.empty()) {
    markers_->VisibilityOff();
    return;
  }
  constexpr int kSegments = 16;
  constexpr double kPi = 3.14159265358979323846;
  vtkNew<vtkPoints> pts;
  vtkNew<vtkCellArray> lines;
  vtkNew<vtkUnsignedCharArray> colours;
  colours->SetNumberOfComponents(3);
  auto colour = [&colours](const PlaneMarker& m) { colours->InsertNextTypedTuple(m.rgb.data()); };
  for (const PlaneMarker& m : markers) {
    const vtkIdType first = pts->GetNumberOfPoints();
    if (!m.outline.empty()) {
      for (const auto& p : m.outline) {
        pts->InsertNextPoint(p[0], p[1], 1.6);
      }
      const auto n = static_cast<vtkIdType>(m.outline.size());
      lines->InsertNextCell(m.closed ? n + 1 : n);
      for (vtkIdType i = 0; i <= (m.closed ? n : n - 1); ++i) {
        lines->InsertCellPoint(first + i % n);
      }
      colour(m);
      continue;
    }
    for (int s = 0; s < kSegments; ++s) {
      const double a = 2 * kPi * s / kSegments;
      pts->InsertNextPoint(m.at[0] + m.radius * std::cos(a), m.at[1] + m.radius * std::sin(a), 1.6);
    }
    lines->InsertNextCell(kSegments + 1);
    for (int s = 0; s <= kSegments; ++s) {
      lines->InsertCellPoint(first + s % kSegments);
    }
    colour(m);
    if (m.cross) {
      const double r = m.radius * 0.6;
      const vtkIdType c = pts->GetNumberOfPoints();
      pts->InsertNextPoint(m.at[0] - r, m.at[1], 1.6);
      pts->InsertNextPoint(m.at[0] + r, m.at[1], 1.6);
      pts->InsertNextPoint(m.at[0], m.at[1] - r, 1.6);
      pts->InsertNextPoint(m.at[0], m.at[1] + r, 1.6);
      const vtkIdType h[2] = {c, c + 1}, v[2] = {c + 2, c + 3};
      lines->InsertNextCell(2, h);
      lines->InsertNextCell(2, v);
      colour(m);
      colour(m);
    }
  }
  markerData_->SetPoints(pts);
  markerData_->SetLines(lines);
  markerData_->GetCellData()->SetScalars(colours);
  markerData_->Modified();
  markers_->VisibilityOn();
}

vtkRenderer* SliceScene::renderer() const {
  return renderer_;
}

void SliceScene::buildOverlays() {
  const SliceAxes axes = sliceAxes(orientation_);
  crossPoints_->SetNumberOfPoints(4);
  for (vtkIdType i = 0; i < 4; ++i) {
    crossPoints_->SetPoint(i, 0, 0, 1);
  }
  struct Line {
    vtkActor* actor;
    vtkIdType a, b;
    SliceOrientation plane;
  };
  for (const Line& l : {Line{horizontal_, 0, 1, planeAcross(axes.up)},
                        Line{vertical_, 2, 3, planeAcross(axes.right)}}) {
    vtkNew<vtkPolyDataMapper> mapper;
    mapper->SetInputData(lineData(crossPoints_, l.a, l.b));
    l.actor->SetMapper(mapper);
    const auto c = planeColor(l.plane);
    l.actor->GetProperty()->SetColor(c[0], c[1], c[2]);
    l.actor->GetProperty()->SetOpacity(0.75);
    l.actor->GetProperty()->SetLineWidth(1);
    l.actor->GetProperty()->LightingOff();
    l.actor->PickableOff();
    l.actor->VisibilityOff();
    renderer_->AddActor(l.actor);
  }

  const ScreenLetters letters = screenLetters(orientation_);
  const char chars[4] = {letters.left, letters.right, letters.top, letters.bottom};
  const double pos[4][2] = {{0.01, 0.5}, {0.99, 0.5}, {0.5, 0.99}, {0.5, 0.01}};
  for (int i = 0; i < 4; ++i) {
    letters_[i] = vtkSmartPointer<vtkTextActor>::New();
    letters_[i]->SetInput(std::string(1, chars[i]).c_str());
    styleText(letters_[i], 16, 1.0, 0.85, 0.4);
    vtkTextProperty* p = letters_[i]->GetTextProperty();
    p->BoldOn();
    p->SetJustification(i == 0 ? VTK_TEXT_LEFT : i == 1 ? VTK_TEXT_RIGHT : VTK_TEXT_CENTERED);
    p->SetVerticalJustification(i == 2   ? VTK_TEXT_TOP
                                : i == 3 ? VTK_TEXT_BOTTOM
                                         : VTK_TEXT_CENTERED);
    letters_[i]->SetPosition(pos[i][0], pos[i][1]);
    renderer_->AddViewProp(letters_[i]);
  }

  const auto c = planeColor(orientation_);
  styleText(topLeft_, 13, c[0], c[1], c[2]);
  topLeft_->GetTextProperty()->SetVerticalJustificationToTop();
  topLeft_->SetPosition(0.01, 0.99);
  styleText(bottomLeft_, 13, 0.9, 0.9, 0.9);
  bottomLeft_->GetTextProperty()->SetVerticalJustificationToBottom();
  bottomLeft_->SetPosition(0.01, 0.01);
  renderer_->AddViewProp(topLeft_);
  renderer_->AddViewProp(bottomLeft_);

  scalePoints_->SetNumberOfPoints(4);
  auto bar = vtkSmartPointer<vtkPolyData>::New();
  bar->SetPoints(scalePoints_);
  vtkNew<vtkCellArray> polyline;
  const vtkIdType ids[4] = {0, 1, 2, 3};
  polyline->InsertNextCell(4, ids);
  bar->SetLines(polyline);
  vtkNew<vtkPolyDataMapper2D> barMapper;
  barMapper->SetInputData(bar);
  scaleBar_->SetMapper(barMapper);
  scaleBar_->GetProperty()->SetColor(0.9, 0.9, 0.9);
  scaleBar_->GetProperty()->SetLineWidth(1);
  scaleBar_->VisibilityOff();
  renderer_->AddViewProp(scaleBar_);
  styleText(scaleLabel_, 12, 0.9, 0.9, 0.9);
  scaleLabel_->GetPositionCoordinate()->SetCoordinateSystemToViewport();
  scaleLabel_->GetTextProperty()->SetJustificationToCentered();
  scaleLabel_->GetTextProperty()->SetVerticalJustificationToBottom();
  scaleLabel_->VisibilityOff();
  renderer_->AddViewProp(scaleLabel_);

  vtkNew<vtkPolyDataMapper> outlineMapper;
  outlineMapper->SetInputData(toolOutlineData_);
  toolOutline_->SetMapper(outlineMapper);
  toolOutline_->GetProperty()->SetColor(1.0, 1.0, 0.55);
  toolOutline_->GetProperty()->SetLineWidth(1);
  toolOutline_->GetProperty()->LightingOff();
  toolOutline_->PickableOff();
  toolOutline_->VisibilityOff();
  renderer_->AddActor(toolOutline_);

  vtkNew<vtkPolyDataMapper> markerMapper;
  markerMapper->SetInputData(markerData_);
  markerMapper->SetScalarModeToUseCellData();
  markerMapper->SetColorModeToDirectScalars();
  markers_->SetMapper(markerMapper);
  markers_->GetProperty()->SetLineWidth(2);
  markers_->GetProperty()->LightingOff();
  markers_->PickableOff();
  markers_->VisibilityOff();
  renderer_->AddActor(markers_);
}

void SliceScene::setVolume(const core::VolumePtr& volume) {
  volume_ = volume;
  hasSlice_ = false;
  if (!volume_) {
    reslice_->RemoveAllInputs();
    indexImage_ = nullptr;
    setLabelMaps({});
    setToolOutline({}, false);
    image_->VisibilityOff();
    horizontal_->VisibilityOff();
    vertical_->VisibilityOff();
    return;
  }
  // Colour images show their R, G, B (the window applies to each channel alike); grey ones their
  // voxels through the window.
  indexImage_ = volume_->hasColour() ? makeVtkColourIndexSpaceImage(volume_)
                                     : makeVtkIndexSpaceImage(volume_);
  reslice_->SetInputData(indexImage_);
  reslice_->SetBackgroundLevel(volume_->hasColour() ? 0.0 : volume_->valueRange().first);
  if (volume_->info().photometric == "MONOCHROME1" && !volume_->hasColour()) {
    // Stored with white = low values (mammography): show inverted; window/level still applies.
    vtkNew<vtkLookupTable> inverted;
    inverted->SetSaturationRange(0, 0);
    inverted->SetHueRange(0, 0);
    inverted->SetValueRange(1, 0);
    inverted->SetNumberOfTableValues(256);
    inverted->Build();
    image_->GetProperty()->SetLookupTable(inverted);
    image_->GetProperty()->UseLookupTableScalarRangeOff();
  } else {
    image_->GetProperty()->SetLookupTable(nullptr);
  }
  for (auto& letter : letters_) {
    letter->SetVisibility(volume_->info().orientationKnown);
  }
  updateResliceGrid();
  image_->VisibilityOn();
  horizontal_->VisibilityOn();
  vertical_->VisibilityOn();
}

bool SliceScene::orientationLettersShown() const {
  return letters_[0]->GetVisibility() != 0;
}

void SliceScene::updateResliceGrid() {
  grid_ = sliceGrid(volume_->geometry(), orientation_);
  reslice_->SetOutputSpacing(grid_.du, grid_.dv, 1);
  reslice_->SetOutputOrigin(grid_.u0, grid_.v0, 0);
  reslice_->SetOutputExtent(0, grid_.nu - 1, 0, grid_.nv - 1, 0, 0);
}

void SliceScene::setCursor(const core::Vec3& cursor) {
  if (!volume_) {
    return;
  }
  const SliceAxes axes = sliceAxes(orientation_);
  const double s = core::dot(cursor, axes.normal);
  if (!hasSlice_ || s != slicePosition_) {
    slicePosition_ = s;
    hasSlice_ = true;
    axes_->DeepCopy(resliceAxes(volume_->geometry(), orientation_, s).data());
    reslice_->Modified();
    for (auto& layer : labelLayers_) {
      layer->setPlane(s, grid_);
    }
  }
  const double u = core::dot(cursor, axes.right);
  const double v = core::dot(cursor, axes.up);
  const auto b = screenBounds(volume_->geometry(), orientation_);
  const double pad = 10 * std::max(b[1] - b[0], b[3] - b[2]);
  crossPoints_->SetPoint(0, b[0] - pad, v, 1);
  crossPoints_->SetPoint(1, b[1] + pad, v, 1);
  crossPoints_->SetPoint(2, u, b[2] - pad, 1);
  crossPoints_->SetPoint(3, u, b[3] + pad, 1);
  crossPoints_->Modified();
}

void SliceScene::setWindowLevel(const WindowLevel& wl) {
  image_->GetProperty()->SetColorWindow(wl.width);
  image_->GetProperty()->SetColorLevel(wl.center);
}

void SliceScene::setViewport(const SliceViewport& vp) {
  vtkCamera* camera = renderer_->GetActiveCamera();
  const auto c = vp.center();
  camera->SetFocalPoint(c[0], c[1], 0);
  camera->SetPosition(c[0], c[1], 500);
  camera->SetViewUp(0, 1, 0);
  camera->SetParallelScale(vp.parallelScale());
  renderer_->ResetCameraClippingRange();
  camera->SetClippingRange(1, 1000);

  // Scale bar: a "nice" length of at most a fifth of the view width, bottom right.
  const double w = vp.viewWidth();
  scaleBarMm_ = niceLength(0.2 * w * vp.mmPerPixel());
  const double lengthPx = scaleBarMm_ / vp.mmPerPixel();
  const double right = w - 12;
  const double left = right - lengthPx;
  const double y = 12;
  const double tick = 6;
  scalePoints_->SetPoint(0, left, y + tick, 0);
  scalePoints_->SetPoint(1, left, y, 0);
  scalePoints_->SetPoint(2, right, y, 0);
  scalePoints_->SetPoint(3, right, y + tick, 0);
  scalePoints_->Modified();
  std::ostringstream label;
  if (scaleBarMm_ >= 10) {
    label << scaleBarMm_ / 10 << " cm";
  } else {
    label << scaleBarMm_ << " mm";
  }
  scaleLabel_->SetInput(label.str().c_str());
  scaleLabel_->SetPosition((left + right) / 2, y + 3);
  const bool visible = volume_ != nullptr && scaleBarMm_ > 0;
  scaleBar_->SetVisibility(visible);
  scaleLabel_->SetVisibility(visible);
}

void SliceScene::setCrosshairVisible(bool visible) {
  horizontal_->SetVisibility(visible && volume_ != nullptr);
  vertical_->SetVisibility(visible && volume_ != nullptr);
}

void SliceScene::setCornerText(const std::string& topLeft, const std::string& bottomLeft) {
  topLeft_->SetInput(topLeft.c_str());
  bottomLeft_->SetInput(bottomLeft.c_str());
}

}  // namespace delineate::viewers
