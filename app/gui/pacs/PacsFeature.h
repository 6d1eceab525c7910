#pragma once
// The PACS from the workstation window: File > Query PACS… (file.queryPacs, the study browser),
// File > Send to PACS… (file.sendToPacs), File > Earlier studies of this patient…
// (file.earlierStudies), and the DICOM nodes and De-identification pages of Edit > Preferences.
// MainWindow owns one and opens what the study browser retrieves: the first series of a study as
// soon as it is complete; a mammography study whole, then again with its priors.
#include <QObject>
#include <QStringList>
#include <functional>
#include <optional>

#include "core/mammo/PriorRule.h"
#include "core/pacs/StudyRecords.h"

class QMenu;

namespace delineate::app {

class CommandRegistry;
class DicomNodesPage;
class EditingFeature;
class SendToPacsDialog;
class StorageListener;
class StudyBrowserDialog;
struct RetrievedStudy;

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
  // The Storage SCP that listens always when Preferences say so (started with the window).
  StorageListener* listener() const { return listener_; }
  // How the mammography hanging chooses its prior (the reading view's protocols).
  void setPriorRule(std::function<core::mammo::PriorRule()> rule) { priorRule_ = std::move(rule); }
  // The study shown now (patient ID, date, UID, its modality first), for "earlier studies".
  void setCurrentStudy(std::function<std::optional<core::pacs::StudyRecord>()> current) {
    currentStudy_ = std::move(current);
  }
  // The study browser searching the chosen node for the shown study's earlier studies of the
  // same modality. False (said in the status line) when no study with a patient ID is shown.
  bool showEarlierStudies();

 Q_SIGNALS:
  // A retrieved series or study to open (its folder).
  void openRequested(const QString& folder);
  // A mammography study to read: its folder, then (withPriors) with its priors' folders.
  void mammographyRequested(const QStringList& folders, bool withPriors);
  void statusMessage(const QString& text);

 private:
  void showNodesPage();
  void showListenerState();
  // A retrieved mammography study: read it at once, and again when its priors are here.
  void readMammography(const RetrievedStudy& study);

  QWidget* window_;
  CommandRegistry* commands_;
  EditingFeature* editing_;
  SendToPacsDialog* dialog_ = nullptr;
  StudyBrowserDialog* browser_ = nullptr;
  DicomNodesPage* page_ = nullptr;
  StorageListener* listener_ = nullptr;
  std::function<core::mammo::PriorRule()> priorRule_;
  std::function<std::optional<core::pacs::StudyRecord>()> currentStudy_;
  QString mammographyFolder_;  // the study whose priors are being fetched
  QString mammographyUid_;
};

}  // namespace delineate::app
