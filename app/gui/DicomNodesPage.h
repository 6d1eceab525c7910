#pragma once
// Edit > Preferences > DICOM nodes: the PACS and other DICOM nodes this workstation sends to
// (name, AE title, host, port, and whether what is sent is de-identified first; edited in the
// table), this workstation's own AE title, and Verify
// (C-ECHO, a job) with the answer in the node's Status column. A node with a wrong field says
// which. Changes are kept at once.
#include <QWidget>

#include "app/gui/DicomNodeSettings.h"

class QLineEdit;
class QPushButton;
class QTableWidget;

namespace delineate::app {

class JobRunner;

class DicomNodesPage : public QWidget {
  Q_OBJECT

 public:
  explicit DicomNodesPage(QWidget* parent = nullptr);

  QTableWidget* table() const { return table_; }
  QLineEdit* callingAeEdit() const { return calling_; }
  QPushButton* addButton() const { return add_; }
  QPushButton* removeButton() const { return remove_; }
  QPushButton* verifyButton() const { return verify_; }
  bool busy() const;

 Q_SIGNALS:
  void nodesChanged();

 private:
  void rebuild();
  void readRow(int row);
  void verifySelected();
  void setStatus(int row, const QString& text);
  void updateButtons();

  DicomNodeSettings settings_;
  QTableWidget* table_;
  QLineEdit* calling_;
  QPushButton* add_;
  QPushButton* remove_;
  QPushButton* verify_;
  JobRunner* jobs_;
  bool rebuilding_ = false;
};

}  // namespace delineate::app
