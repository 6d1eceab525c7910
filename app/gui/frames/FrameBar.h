#pragma once
// The frame bar of a 4-D image (time series, diffusion, echoes, cardiac phases): a slider over
// the frames naming the dimension and its value ("time 12.5 s  (6 / 40)"), steps, and cine play
// at the image's own frame rate (its time axis), else 4 frames a second. Hidden for 3-D images.
#include <QToolBar>
#include <cstddef>
#include <memory>

class QLabel;
class QSlider;
class QTimer;
class QAction;

namespace delineate::core {
class FrameSeries;
}

namespace delineate::app {

class FrameBar : public QToolBar {
  Q_OBJECT

 public:
  explicit FrameBar(QWidget* parent = nullptr);

  // The series of the shown image (null: a 3-D image, the bar hides) and the frame shown.
  void setSeries(std::shared_ptr<const core::FrameSeries> series, std::size_t frame);
  std::size_t current() const { return current_; }
  bool playing() const;
  QString label() const;
  // Frames a second while playing: from the time axis (real time), else 4.
  double framesPerSecond() const;

  // Steps by `delta` frames (wrapping), as the slider, Alt+Left and Alt+Right do.
  void step(int delta);
  void setPlaying(bool playing);
  void setFrame(std::size_t frame);

 Q_SIGNALS:
  void frameRequested(std::size_t frame);

 private:
  void updateLabel();

  std::shared_ptr<const core::FrameSeries> series_;
  std::size_t current_ = 0;
  QSlider* slider_ = nullptr;
  QLabel* label_ = nullptr;
  QAction* play_ = nullptr;
  QTimer* timer_ = nullptr;
};

}  // namespace delineate::app
