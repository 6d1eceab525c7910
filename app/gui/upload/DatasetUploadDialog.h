#pragma once
// "Upload dataset…": the user gathers labelled cases (a folder of them, an image with its label
// files, the image open in the window with its label maps, or series picked in the study browser
// with the DICOM SEGs drawn on them), checks them against the current AI
// server's label schema (lint: label names or values the server does not know, label/image grids,
// empty labels, label files that overlap — errors red, warnings amber, the messages in the
// tooltip and the details box), then sends the cases that pass through the persistent upload queue
// (UploadController) or exports them as an MSD folder. Before sending, each folder the cases were
// added from is kept as a dataset snapshot (core/dataset, unless "Keep a version" is unticked)
// and the dialog shows the snapshot id it sends; a later training request names it. Check, Send and
// Export are jobs with progress and Cancel in the dialog; nothing is read or written on the GUI
// thread.
#include <QDialog>
#include <QString>
#include <memory>
#include <vector>

#include "app/gui/compare/DatasetCaseRow.h"
#include "core/io/DicomSeries.h"
#include "core/upload/DatasetCase.h"

class QCheckBox;
class QLabel;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;

namespace delineate::core::upload {
struct CaseOutcome;
}

namespace delineate::app {

class AiController;
class JobRunner;
class DatasetCaseTable;
class UploadController;

class DatasetUploadDialog : public QDialog {
  Q_OBJECT

 public:
  using Row = DatasetCaseRow;

  // `interactive` false: file choosers are never opened (tests call the methods instead).
  DatasetUploadDialog(AiController* ai, UploadController* uploads, bool interactive,
                      QWidget* parent = nullptr);
  ~DatasetUploadDialog() override;

  // The cases of a folder (findDatasetCases, a job).
  void addFolder(const QString& folder);
  void addCases(const std::vector<core::upload::DatasetCase>& cases);
  // Series `picked` (indices into scan.allSeries()) of the study browser's scan, each with the
  // SEGs of the scan drawn on it (casesFromSeries, a job).
  void addSeries(const core::DicomScanResult& scan, const std::vector<std::size_t>& picked);
  void removeSelected();
  // Lints every case against the current server's schema (a job).
  bool check();
  // Queues the cases that pass (checking those not checked yet) and starts sending (a job).
  bool send();
  // Writes the cases that pass as an MSD dataset in `folder` (a job).
  bool exportTo(const QString& folder);
  void cancel();
  bool busy() const;
  // Shows `message` in red in the status line (an error naming the file or server).
  void fail(const QString& message);

  const std::vector<Row>& rows() const { return rows_; }
  DatasetCaseTable* table() const { return table_; }
  QPushButton* addFolderButton() const { return addFolder_; }
  QPushButton* addOpenImageButton() const { return addOpen_; }
  QPushButton* addStudyButton() const { return addStudy_; }
  QPushButton* checkButton() const { return check_; }
  QPushButton* sendButton() const { return send_; }
  QPushButton* exportButton() const { return export_; }
  QPushButton* cancelButton() const { return cancel_; }
  QLabel* serverLabel() const { return server_; }
  QLabel* messageLabel() const { return message_; }
  QCheckBox* keepVersionBox() const { return keepVersion_; }
  // "Sent snapshot 3f1c9a2b7d10 of /data/liver" after a send (empty before).
  QLabel* snapshotLabel() const { return snapshot_; }
  QPlainTextEdit* details() const { return details_; }

 Q_SIGNALS:
  // "Add open image": the window writes its image and label maps (EditJobs) and calls addCases.
  void openImageRequested();
  // "Add from study browser": the window answers with addSeries (the selected series, or all).
  void studySeriesRequested();

 private:
  struct Destination;
  Destination destination() const;
  // The picked cases, and which of them the last check found errors in.
  std::vector<core::upload::DatasetCase> pickedCases(std::vector<bool>* skip) const;
  void applyOutcomes(const std::vector<core::upload::CaseOutcome>& results);
  void chooseFolder();
  void chooseImage();
  void chooseExportFolder();
  void updateServer();
  void updateTable();
  void updateDetails();
  void updateButtons();

  AiController* ai_;
  UploadController* uploads_;
  bool interactive_;
  std::vector<Row> rows_;
  QStringList folders_;  // the folders cases were added from (their snapshots are sent)
  JobRunner* jobs_;
  QLabel* server_;
  QCheckBox* keepVersion_;
  QLabel* snapshot_;
  DatasetCaseTable* table_;
  QPlainTextEdit* details_;
  QProgressBar* progress_;
  QLabel* message_;
  QPushButton* addFolder_;
  QPushButton* addImage_;
  QPushButton* addOpen_;
  QPushButton* addStudy_;
  QPushButton* remove_;
  QPushButton* check_;
  QPushButton* send_;
  QPushButton* export_;
  QPushButton* cancel_;
};

}  // namespace delineate::app
