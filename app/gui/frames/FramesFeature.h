#pragma once
// 4-D images in the main window: the frame bar (slider, label, cine play), View > Next / Previous
// frame and Play frames, and the Frame curve dock (the value over the frames at the cursor).
// Showing another frame keeps the views' cursor, window and zoom and the label maps (the frame
// goes to the editing session and the views as a frame, not as a new image).
#include <QObject>
#include <cstddef>

#include "core/model/Volume.h"

class QDockWidget;
class QMainWindow;
class QMenu;

namespace delineate::viewers {
class ViewLayout;
}

namespace delineate::app {

class CommandRegistry;
class EditingFeature;
class FrameBar;
class FrameCurveChart;

class FramesFeature : public QObject {
  Q_OBJECT

 public:
  FramesFeature(QMainWindow* window, CommandRegistry* commands, viewers::ViewLayout* views,
                EditingFeature* editing);

  // Adds Next frame (Alt+Right), Previous frame (Alt+Left) and Play frames (Alt+P) to `menu`.
  void populateMenu(QMenu* menu);
  // A new image was shown (3-D, or a frame of a 4-D one): the bar and the curve follow it.
  void imageShown(const core::VolumePtr& image);
  // Shows frame k of the shown 4-D image; nothing for a 3-D image.
  void showFrame(std::size_t frame);

  FrameBar* bar() const { return bar_; }
  FrameCurveChart* curve() const { return curve_; }

 Q_SIGNALS:
  // Another frame of the same image is shown (the window's current volume).
  void frameShown(const core::VolumePtr& frame);

 private:
  void updateCurve();

  QMainWindow* window_;
  CommandRegistry* commands_;
  viewers::ViewLayout* views_;
  EditingFeature* editing_;
  FrameBar* bar_;
  FrameCurveChart* curve_;
  QDockWidget* curveDock_;
  core::VolumePtr image_;
};

}  // namespace delineate::app
