#pragma once
// The readers x readers agreement of one structure as a heat map: one cell per pair, coloured by
// Dice on a perceptually uniform scale (viridis: dark purple 0, teal 0.5, yellow 1), with the Dice
// and the HD95 in mm written in it and the readers' names along both sides. The diagonal is the
// reader against itself. Empty until setMatrices.
#include <QColor>
#include <QRect>
#include <QStringList>
#include <QWidget>
#include <vector>

namespace delineate::app {

class AgreementHeatMap : public QWidget {
  Q_OBJECT

 public:
  explicit AgreementHeatMap(QWidget* parent = nullptr);

  void setMatrices(const QStringList& readers, std::vector<std::vector<double>> dice,
                   std::vector<std::vector<double>> hd95);
  void clear();
  int readers() const { return int(readers_.size()); }
  double dice(int i, int j) const { return dice_[std::size_t(i)][std::size_t(j)]; }

  // The colour of a cell with this Dice (grey for NaN: a reader without the structure).
  static QColor colorOf(double dice);
  // Where cell (row i, column j) is drawn, in widget coordinates.
  QRect cellRect(int i, int j) const;

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;
  bool event(QEvent* event) override;

 private:
  int labelWidth() const;
  int cellSize() const;

  QStringList readers_;
  std::vector<std::vector<double>> dice_;
  std::vector<std::vector<double>> hd95_;
};

}  // namespace delineate::app
