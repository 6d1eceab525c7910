#pragma once
// The Readers dock: tick the readers' label maps and pick the structure, compare them (the
// agreement heat map, the votes on the slices), step through the disagreement regions largest
// first, and adjudicate: start the adjudicated map from the majority vote, take one reader's
// version of the region shown, edit with any tool, and sign. Logic: ReadersController.
#include <QWidget>
#include <vector>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QVBoxLayout;

namespace delineate::app {

class AgreementHeatMap;
class EditSession;
class ReadersController;

class ReadersDock : public QWidget {
  Q_OBJECT

 public:
  ReadersDock(ReadersController* controller, EditSession* session, QWidget* parent = nullptr);

  // Ticks exactly the maps at these indices (into the session's maps).
  void setReaders(const std::vector<int>& maps);
  std::vector<int> checkedReaders() const;

  QListWidget* readerList() const { return readers_; }
  QComboBox* structureCombo() const { return structure_; }
  QPushButton* compareButton() const { return compare_; }
  // Shows the readers side by side below the views (ReadersFeature wires it).
  QPushButton* sideBySideButton() const { return sideBySide_; }
  AgreementHeatMap* heatMap() const { return heatMap_; }
  QLabel* summaryLabel() const { return summary_; }
  QCheckBox* overlayCheck() const { return overlay_; }
  QCheckBox* mapsHiddenCheck() const { return mapsHidden_; }
  QLabel* regionLabel() const { return region_; }
  QPushButton* nextButton() const { return next_; }
  QPushButton* previousButton() const { return previous_; }
  QPushButton* startButton() const { return start_; }
  // One "Take <reader>" button per reader of the last comparison.
  const std::vector<QPushButton*>& takeButtons() const { return take_; }
  QLineEdit* reviewerEdit() const { return reviewer_; }
  QPushButton* signButton() const { return sign_; }
  QLabel* messageLabel() const { return message_; }

  void showMessage(const QString& text, bool error);

 private:
  void refreshMaps();
  void refreshStructures();
  void showResult();
  void updateState();

  ReadersController* controller_;
  EditSession* session_;
  QListWidget* readers_;
  QComboBox* structure_;
  QPushButton* compare_;
  QLabel* summary_;
  AgreementHeatMap* heatMap_;
  QCheckBox* overlay_;
  QCheckBox* mapsHidden_;
  QPushButton* sideBySide_;
  QLabel* region_;
  QPushButton* previous_;
  QPushButton* next_;
  QPushButton* start_;
  QWidget* takeRow_;
  std::vector<QPushButton*> take_;
  QLineEdit* reviewer_;
  QPushButton* sign_;
  QLabel* message_;
};

}  // namespace delineate::app
