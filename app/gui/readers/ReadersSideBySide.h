#pragma once
// The readers side by side: one tile per reader of the last comparison, each the slice through
// the linked cursor (axial, coronal or sagittal, oriented as the slice views show them: patient
// right on the screen's left) around the cursor, in the views' window, with the reader's voxels
// of the structure filled in the reader's colour and those only other readers marked tinted
// white. The tiles follow the cursor (J / Shift+J, clicks in the views) and the readers' edits.
#include <QImage>
#include <QString>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "core/model/ImageGeometry.h"

namespace delineate::core {
class LabelMap;
}

namespace delineate::viewers {
class ViewState;
}

namespace delineate::app {

class ReadersController;

class ReadersSideBySide : public QWidget {
  Q_OBJECT

 public:
  enum class Plane { Axial, Coronal, Sagittal };

  // `state`: the slice views' (cursor, window, volume); kept alive by the tiles too.
  ReadersSideBySide(ReadersController* controller, std::shared_ptr<viewers::ViewState> state,
                    QWidget* parent = nullptr);
  ~ReadersSideBySide() override;

  void setPlane(Plane plane);
  Plane plane() const { return plane_; }
  // The field of view around the cursor, in mm across (default 80).
  void setFieldOfViewMm(double mm);

  // How many tiles there are (the readers of the last comparison; 0 without one).
  int tiles() const;
  // Reader r's tile at one pixel per voxel (before scaling to the widget), and where it is drawn.
  QImage tile(int reader) const;
  QRect tileRect(int reader) const;
  // The pixel of `tile()` that shows voxel `ijk`; nullopt when it is outside the tiles' slice or
  // field of view.
  std::optional<QPoint> pixelOf(const core::Size3& ijk) const;

  // The colour each reader is drawn in (colour-blind safe, cycling).
  static QColor readerColor(int reader);

  QSize sizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  // What the tiles show now: the slice's fixed index axis and voxel, the index axes across and
  // down the screen with their direction, and the voxel range shown along each.
  struct Layout {
    int across = 0, down = 1, fixed = 2;
    bool flipAcross = false, flipDown = false;
    std::size_t slice = 0;
    std::size_t a0 = 0, a1 = 0, d0 = 0, d1 = 0;  // [a0, a1) across, [d0, d1) down
    double aspect = 1;                           // a pixel's height over its width on the screen
  };
  std::optional<Layout> layout() const;
  core::Size3 voxelAt(const Layout& l, int x, int y) const;

  ReadersController* controller_;
  std::shared_ptr<viewers::ViewState> state_;
  int observer_ = 0;
  Plane plane_ = Plane::Axial;
  double fovMm_ = 80;
};

}  // namespace delineate::app
