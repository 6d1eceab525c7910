#pragma once
// The segments of the active label map, with their measurements, and how they are drawn and
// painted over:
//   table      colour swatch (double-click: choose a colour), name (edit to rename), visible,
//              locked, voxels, volume (ml), mean ± SD of the image, largest diameter (mm)
//   buttons    add, delete (clears its voxels), merge another segment into the selected one,
//              move up / down, copy the table (TSV, for spreadsheets)
//   display    global opacity, the selected segment's opacity, fill and outline
//   paint over overwrite all / only empty voxels / only inside a chosen segment
// The selected row is the active segment (Ctrl+click on a voxel in a view selects its segment).
// Every change goes through EditSession (journaled; undoable where it is an edit).
#include <QWidget>
#include <cstdint>

class QCheckBox;
class QComboBox;
class QSlider;
class QTableWidget;
class QTableWidgetItem;

namespace delineate::app {

class EditJobs;
class EditSession;
class SegmentMeasurer;

class SegmentsDock : public QWidget {
  Q_OBJECT

 public:
  enum Column { Color, Name, Visible, Locked, Voxels, Volume, Mean, Diameter, ColumnCount };

  SegmentsDock(EditSession* session, EditJobs* jobs, SegmentMeasurer* measurer, bool interactive,
               QWidget* parent = nullptr);

  QTableWidget* table() const { return table_; }
  QSlider* opacitySlider() const { return opacity_; }
  QSlider* segmentOpacitySlider() const { return segmentOpacity_; }
  QComboBox* paintOverCombo() const { return paintOver_; }
  QComboBox* insideSegmentCombo() const { return inside_; }
  QComboBox* labelMapCombo() const { return maps_; }

  int rowOf(std::uint16_t label) const;
  std::uint16_t labelAt(int row) const;

  std::uint16_t addSegment();
  // Both run a job that finds the segment's voxels, then apply as one undo entry.
  bool deleteSegment(std::uint16_t label);
  bool mergeSegments(std::uint16_t into, std::uint16_t from);
  void chooseColor(std::uint16_t label);
  void copyTable();
  // The measurements as TSV (what Copy table puts on the clipboard).
  QString tableText() const;

 private:
  void rebuild();
  void updateMeasurements();
  void selectActive();
  void onItemChanged(QTableWidgetItem* item);
  void onSelectionChanged();
  void applyPolicy();
  void applyDisplay();
  void mergeSelected();
  void moveSelected(int delta);

  EditSession* session_;
  EditJobs* jobs_;
  SegmentMeasurer* measurer_;
  bool interactive_;
  bool rebuilding_ = false;
  QComboBox* maps_ = nullptr;
  QTableWidget* table_ = nullptr;
  QSlider* opacity_ = nullptr;
  QSlider* segmentOpacity_ = nullptr;
  QCheckBox* fill_ = nullptr;
  QCheckBox* outline_ = nullptr;
  QComboBox* paintOver_ = nullptr;
  QComboBox* inside_ = nullptr;
};

}  // namespace delineate::app
