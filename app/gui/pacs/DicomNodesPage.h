#pragma once
// Edit > Preferences > DICOM nodes: the PACS and other DICOM nodes this workstation queries and
// sends to. DIMSE nodes (name, AE title, host, port, and whether what is sent is de-identified
// first) are edited in the table; DICOMweb nodes (base URL, authentication, CA) in their own
// dialog (Add DICOMweb…, or a double click on the row). This workstation's own AE title, and
// Verify (C-ECHO, or a QIDO-RS search for a DICOMweb node; a job) with the answer in the node's
// Status column. A node with a wrong field says which. Changes are kept at once.
#include <QWidget>
#include <string>

#include "app/gui/pacs/DicomNodeSettings.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace delineate::app {

class JobRunner;

class DicomNodesPage : public QWidget {
  Q_OBJECT

 public:
  explicit DicomNodesPage(QWidget* parent = nullptr);

  QTableWidget* table() const { return table_; }
  QLineEdit* callingAeEdit() const { return calling_; }
  QSpinBox* storagePortBox() const { return storagePort_; }
  QSpinBox* cacheLimitBox() const { return cacheLimit_; }
  QCheckBox* alwaysListenBox() const { return alwaysListen_; }
  QLabel* listenerLabel() const { return listenerState_; }
  // What the Storage SCP does now ("Listening as DELINEATE on port 11112", a problem).
  void setListenerState(const QString& text);
  QPushButton* addButton() const { return add_; }
  QPushButton* addWebButton() const { return addWeb_; }
  // Opens the DICOMweb dialog for `row` (a new node when row is -1); applies it when accepted.
  void editWebNode(int row);
  QPushButton* removeButton() const { return remove_; }
  QPushButton* verifyButton() const { return verify_; }
  bool busy() const;

 Q_SIGNALS:
  void nodesChanged();
  // "Listen always", the AE title or the port changed (kept already).
  void listenerChanged();

 private:
  void rebuild();
  void readRow(int row);
  void verifySelected();
  void verifyWith(int row, const core::pacs::DicomNode& node, std::string secret);
  void setStatus(int row, const QString& text);
  void updateButtons();

  DicomNodeSettings settings_;
  QTableWidget* table_;
  QLineEdit* calling_;
  QSpinBox* storagePort_;
  QSpinBox* cacheLimit_;
  QCheckBox* alwaysListen_;
  QLabel* listenerState_;
  QPushButton* add_;
  QPushButton* addWeb_;
  QPushButton* remove_;
  QPushButton* verify_;
  JobRunner* jobs_;
  bool rebuilding_ = false;
};

}  // namespace delineate::app
