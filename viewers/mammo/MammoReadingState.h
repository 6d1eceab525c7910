#pragma once
// What the viewports of a mammography reading layout share, so that zoom, pan, window/level,
// invert, the magnifier and the active tool act on every view at once (a radiologist compares
// the breasts side by side): zoom and pan in millimetres from the chest wall (ReadingGeometry),
// the window in stored values, and how AI findings are drawn.
#include <QObject>
#include <array>
#include <optional>

#include "core/mammo/ReadingGeometry.h"
#include "core/mammo/TomoSlab.h"

namespace delineate::viewers {

enum class MammoTool { Pan, WindowLevel, Magnifier, Ruler, Ellipse };

struct MammoWindow {
  double center = 0;
  double width = 1;
  int voiLut = -1;  // index into the images' VOI LUT tables; -1: the window above
};

class MammoReadingState : public QObject {
  Q_OBJECT

 public:
  explicit MammoReadingState(QObject* parent = nullptr) : QObject(parent) {}

  const core::mammo::LinkedZoom& zoom() const { return zoom_; }
  void setZoom(const core::mammo::LinkedZoom& zoom);
  void fit();  // each image fitted and aligned at the chest wall

  // nullopt: each image's own default (its file's first window or VOI LUT).
  const std::optional<MammoWindow>& window() const { return window_; }
  void setWindow(std::optional<MammoWindow> window);
  bool inverted() const { return inverted_; }
  void setInverted(bool inverted);

  MammoTool tool() const { return tool_; }
  void setTool(MammoTool tool);

  // The magnifier: where it looks in chest-wall millimetres (shown in every viewport), and how
  // much it magnifies relative to the image's full resolution.
  const std::optional<std::array<double, 2>>& loupe() const { return loupe_; }
  void setLoupe(std::optional<std::array<double, 2>> depthAndHeightMm);
  double loupeMagnification() const { return loupeMagnification_; }
  void setLoupeMagnification(double factor);

  // AI findings: heatmap opacity (0..1) and the probability under which it is not drawn; marks
  // shown with their scores; the mark stepped to (index into the study's marks, -1 none).
  double heatmapOpacity() const { return heatmapOpacity_; }
  double heatmapThreshold() const { return heatmapThreshold_; }
  bool heatmapShown() const { return heatmapShown_; }
  bool marksShown() const { return marksShown_; }
  // CAD marks whose rendering intent is "presentation optional" are drawn only when asked.
  bool optionalMarksShown() const { return optionalMarksShown_; }
  void setOptionalMarksShown(bool shown);
  void setHeatmap(bool shown, double opacity, double threshold);
  void setMarksShown(bool shown);
  int currentMark() const { return currentMark_; }
  void setCurrentMark(int index);

  // Tomosynthesis: every stack is shown as a slab of this mode and width around its frame; with
  // linked stacks, scrolling one stack scrolls the others of the same breast (the other view,
  // the prior) to the same relative depth.
  core::mammo::SlabMode slabMode() const { return slabMode_; }
  double slabMm() const { return slabMm_; }
  void setSlab(core::mammo::SlabMode mode, double mm);
  bool stacksLinked() const { return stacksLinked_; }
  void setStacksLinked(bool linked) { stacksLinked_ = linked; }

 Q_SIGNALS:
  void viewChanged();     // zoom, pan, loupe: every viewport redraws
  void displayChanged();  // window, invert: display tables are rebuilt
  void toolChanged(MammoTool tool);
  void findingsDisplayChanged();
  void slabChanged();  // every stack rebuilds what it shows

 private:
  core::mammo::LinkedZoom zoom_;
  std::optional<MammoWindow> window_;
  bool inverted_ = false;
  MammoTool tool_ = MammoTool::Pan;
  std::optional<std::array<double, 2>> loupe_;
  double loupeMagnification_ = 2.0;
  double heatmapOpacity_ = 0.45;
  double heatmapThreshold_ = 0.3;
  bool heatmapShown_ = true;
  bool marksShown_ = true;
  bool optionalMarksShown_ = false;
  int currentMark_ = -1;
  core::mammo::SlabMode slabMode_ = core::mammo::SlabMode::Off;
  double slabMm_ = 10.0;
  bool stacksLinked_ = true;
};

}  // namespace delineate::viewers
