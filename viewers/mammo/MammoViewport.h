#pragma once
// One viewport of a mammography reading layout: draws its image from the pyramid (only the
// pixels shown, through the display table), mirrored and aligned at the chest wall as the hanging
// protocol asks, zoomed and panned with the other viewports (MammoReadingState), with the
// magnifier, rulers and ellipses, AI heatmap and CAD marks over it. An empty viewport says what
// is missing.
//
// Mouse: the active tool on the left button (pan, window/level, magnifier, ruler, ellipse);
// right drag is always window/level (horizontal: width, vertical: centre); the wheel zooms about
// the pointer (for a tomosynthesis stack the wheel steps through its frames and Ctrl+wheel
// zooms); double-click toggles fit and 1:1 (one image pixel per screen pixel).
#include <QImage>
#include <QPointF>
#include <QWidget>
#include <optional>
#include <vector>

#include "core/mammo/DisplayLut.h"
#include "core/mammo/MammoFindings.h"
#include "core/mammo/ReadingMeasurement.h"
#include "viewers/mammo/MammoImage.h"
#include "viewers/mammo/MammoReadingState.h"

namespace delineate::viewers {

class MammoViewport : public QWidget {
  Q_OBJECT

 public:
  MammoViewport(MammoReadingState* state, QWidget* parent = nullptr);

  void setImage(std::optional<MammoImage> image);
  const std::optional<MammoImage>& image() const { return image_; }
  // The full pyramid of the same image, replacing the preview.
  void setPyramid(core::mammo::PyramidPtr pyramid);
  void setWantedWall(core::mammo::ChestWall wall);
  core::mammo::ChestWall wantedWall() const { return wanted_; }
  // Tomosynthesis: the frame shown (0-based); its pyramid is built when it is asked for, from
  // the frame or from the slab around it (MammoReadingState::slabMode). A depth indicator on the
  // side away from the chest wall shows where the frame (and the slab) lies in the stack.
  int frame() const;
  int frameCount() const;
  void setFrame(int frame);
  // The frames the slab shown takes (first == last: one frame).
  std::pair<int, int> slabShown() const { return slabShown_; }
  void setEmptyText(const QString& text);
  QString emptyText() const { return emptyText_; }
  // Not owned; nullptr: none. The mark stepped to is `currentMark` of these marks (-1 none).
  void setFindings(const core::mammo::ImageFindings* findings, int currentMark = -1);

  const std::vector<core::mammo::ReadingMeasurement>& measurements() const { return measures_; }
  void clearMeasurements();
  void removeLastMeasurement();

  // Where the image is drawn now, and where an image point lands in the widget.
  core::mammo::ViewTransform transform() const;
  QPointF widgetPoint(double column, double row) const;
  // The display settings in effect (the shared window, else the image's default).
  core::mammo::DisplaySettings displaySettings() const;
  bool showsFullQuality() const;
  // The window as shown in the caption, for the status bar.
  QString windowText() const;

 Q_SIGNALS:
  // The reader scrolled this stack (the wheel): linked stacks follow.
  void frameStepped(int frame);
  void measurementsChanged();
  void pointerMoved(const QString& text);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void mouseDoubleClickEvent(QMouseEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void leaveEvent(QEvent* event) override;

 private:
  enum class Drag { None, Pan, Window, Loupe, Measure };
  const std::vector<std::uint8_t>& table();
  std::array<double, 2> imageAt(QPointF widget) const;
  std::array<double, 2> mmAt(QPointF widget) const;
  double pixelsPerMm() const;
  void zoomAbout(QPointF widget, double factor);
  void panBy(QPointF delta);
  void drawLoupe(QPainter& p);
  void reportPointer(QPointF widget);
  void showFrame();  // builds the pyramid of frame_ (or of its slab) from stack_
  void drawDepth(QPainter& p);

  MammoReadingState* state_;
  std::optional<MammoImage> image_;
  core::VolumePtr stack_;  // a tomosynthesis stack's frames, for the frame or slab shown
  int stackFrame_ = 0;
  std::pair<int, int> slabShown_{0, 0};
  core::mammo::ChestWall wanted_ = core::mammo::ChestWall::Left;
  QString emptyText_;
  const core::mammo::ImageFindings* findings_ = nullptr;
  int currentMark_ = -1;
  std::vector<core::mammo::ReadingMeasurement> measures_;

  std::vector<std::uint8_t> table_;
  bool tableValid_ = false;
  QImage frame_;
  QImage heatmap_;
  bool heatmapValid_ = false;

  Drag drag_ = Drag::None;
  QPointF dragStart_;
  QPointF dragLast_;
  core::mammo::DisplaySettings dragWindow_;
};

}  // namespace delineate::viewers
