#pragma once
// The PACS from the workstation window: File > Query PACS… (file.queryPacs, the study browser),
// File > Send to PACS… (file.sendToPacs), and the DICOM nodes and De-identification pages of
// Edit > Preferences. MainWindow owns one and opens what the study browser retrieves.
#include <QObject>

class QMenu;

namespace delineate::app {

class CommandRegistry;
class DicomNodesPage;
class EditingFeature;
class SendToPacsDialog;
class StudyBrowserDialog;

class PacsFeature : public QObject {
  Q_OBJECT

 public:
  PacsFeature(QWidget* window, CommandRegistry* commands, EditingFeature* editing);
  ~PacsFeature() override;  // the dialog goes first: its send job reads the editing session

  void populateFileMenu(QMenu* menu);
  // Created on first use, then kept (non-modal).
  SendToPacsDialog* dialog();
  void showDialog();
  // The study browser: created on first use, then kept (non-modal).
  StudyBrowserDialog* studyBrowser();
  void showStudyBrowser();
  // The Preferences page, once the dialog made it.
  DicomNodesPage* nodesPage() const { return page_; }

 Q_SIGNALS:
  // A retrieved series or study to open (its folder).
  void openRequested(const QString& folder);

 private:
  void showNodesPage();

  QWidget* window_;
  CommandRegistry* commands_;
  EditingFeature* editing_;
  SendToPacsDialog* dialog_ = nullptr;
  StudyBrowserDialog* browser_ = nullptr;
  DicomNodesPage* page_ = nullptr;
};

}  // namespace delineate::app
