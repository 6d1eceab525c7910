#pragma once
// A narrow strip beside a slice view's vertical slider that shows one score per slice (the
// compare view's per-slice Dice) at the height of that slice's slider position: low scores in
// vermilion, middle in yellow, high in bluish green (colour-blind safe), nothing where a slice
// has no score (NaN). Clicking it goes to the slice under the mouse; the tooltip names the slice
// and its score.
#include <QColor>
#include <QWidget>
#include <vector>

class QSlider;

namespace delineate::viewers {

class SliceScoreStrip : public QWidget {
  Q_OBJECT

 public:
  SliceScoreStrip(QSlider* slider, QWidget* parent = nullptr);

  // One score in [0, 1] per slice of the slider (slider value = index); empty hides the strip.
  void setScores(std::vector<double> scores, const QString& name);
  const std::vector<double>& scores() const { return scores_; }

  // The colour a score is drawn in.
  static QColor colorOf(double score);
  // The strip's vertical pixel centre of a slice and the slice nearest a pixel row (-1: none).
  int rowOf(int slice) const;
  int sliceAt(int y) const;

  QSize sizeHint() const override { return {kWidth, 40}; }

 Q_SIGNALS:
  void sliceClicked(int slice);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  bool event(QEvent* event) override;

 private:
  static constexpr int kWidth = 8;
  // The pixel span of slider positions (from the slider's style): top and length.
  std::pair<int, int> span() const;

  QSlider* slider_;
  std::vector<double> scores_;
  QString name_;
};

}  // namespace delineate::viewers
