#pragma once
// Sending to a PACS from the workstation window: File > Send to PACS… (file.sendToPacs), and the
// DICOM nodes and De-identification pages of Edit > Preferences. MainWindow owns one.
#include <QObject>

class QMenu;

namespace delineate::app {

class CommandRegistry;
class DicomNodesPage;
class EditingFeature;
class SendToPacsDialog;

class PacsFeature : public QObject {
  Q_OBJECT

 public:
  PacsFeature(QWidget* window, CommandRegistry* commands, EditingFeature* editing);
  ~PacsFeature() override;  // the dialog goes first: its send job reads the editing session

  void populateFileMenu(QMenu* menu);
  // Created on first use, then kept (non-modal).
  SendToPacsDialog* dialog();
  void showDialog();
  // The Preferences page, once the dialog made it.
  DicomNodesPage* nodesPage() const { return page_; }

 private:
  QWidget* window_;
  CommandRegistry* commands_;
  EditingFeature* editing_;
  SendToPacsDialog* dialog_ = nullptr;
  DicomNodesPage* page_ = nullptr;
};

}  // namespace delineate::app
