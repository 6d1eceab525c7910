#pragma once
// File > Query PACS… (Ctrl+Alt+O): searches a DICOM node of Edit > Preferences > DICOM nodes
// (C-FIND), lists the studies in a sortable table and the series of the selected one with their
// counts, and retrieves the study (C-GET) series by series into the local study folder, with
// progress and Cancel. The first series is offered for opening as soon as it is complete, while
// the others still come; instances already in the folder are not fetched again.
#include <QDialog>
#include <QString>
#include <string>
#include <vector>

#include "app/gui/pacs/DicomNodeSettings.h"
#include "core/pacs/StudyRecords.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace delineate::app {

// A study the browser has complete in the study cache.
struct RetrievedStudy {
  QString folder;
  core::pacs::StudyRecord study;
  std::optional<core::pacs::DicomNode> node;  // where it came from; nullopt: the cache
  core::pacs::PacsAccess access;              // how that node was reached
  bool mammography = false;                   // isMammographyStudy
};

class JobProgressWidget;
class JobRunner;
class PriorFetcher;

class StudyBrowserDialog : public QDialog {
  Q_OBJECT

 public:
  explicit StudyBrowserDialog(QWidget* parent = nullptr);

  // Reads the nodes from the settings.
  void refresh();
  void search();
  // Retrieves the selected study, series by series.
  void retrieve();
  // Where retrieved studies are kept: <app data>/studies (each as <study UID>/<series UID>/).
  static QString studyFolder();

  QComboBox* nodeBox() const { return nodes_; }
  QLineEdit* patientEdit() const { return patient_; }
  QLineEdit* patientIdEdit() const { return patientId_; }
  QLineEdit* accessionEdit() const { return accession_; }
  QComboBox* modalityBox() const { return modality_; }
  QLineEdit* dateEdit() const { return date_; }
  QLineEdit* descriptionEdit() const { return description_; }
  QTableWidget* studyTable() const { return studies_; }
  QTableWidget* seriesTable() const { return series_; }
  QPushButton* searchButton() const { return search_; }
  QPushButton* retrieveButton() const { return retrieve_; }
  QLabel* statusLabel() const { return status_; }
  JobRunner* queries() const { return queries_; }
  JobRunner* retrieves() const { return retrieves_; }
  JobRunner* cacheJobs() const { return cacheJobs_; }
  // True while the study retrieved (or opened from the cache) is a mammography study: it opens
  // whole, when complete, with its priors, not series by series.
  bool retrievingMammography() const { return mammography_; }
  // Shows `text` in the status line (the prior fetch reports there too); appendStatus adds a line.
  void setStatus(const QString& text);
  void appendStatus(const QString& text);
  // Fetches a mammography study's priors (its progress shows beside the retrieve's).
  PriorFetcher* priors() const { return priors_; }
  // Searches the chosen node for the patient's studies of `current`'s first modality dated
  // before it (the fields filled in as a user would).
  void searchEarlier(const core::pacs::StudyRecord& current);

 Q_SIGNALS:
  // A series of the study is complete in `folder`; `first`: the first of this retrieve.
  void seriesRetrieved(const QString& folder, bool first);
  // Every series of the study is complete (or failed: the status says which).
  void studyRetrieved(const RetrievedStudy& study);
  void nodesWanted();

 private:
  std::optional<core::pacs::DicomNode> chosenNode() const;
  const core::pacs::StudyRecord* selectedStudy() const;
  void showStudies(std::vector<core::pacs::StudyRecord> studies);
  void listSeries();
  void showSeries(std::vector<core::pacs::SeriesRecord> series);
  void retrieveNext();
  bool cacheChosen() const;
  void openFromCache(const core::pacs::StudyRecord& study);
  // Marks the study used and removes the least recently used others beyond the limit (a job).
  void keepCacheUnderLimit(const std::string& inUse);
  void retrieveSeries(std::size_t index, const QString& studyDir, core::pacs::PacsAccess access);
  // Runs `then` with the node's access (its DICOMweb secret fetched first; a missing one is
  // shown in the status line instead).
  void withAccess(const core::pacs::DicomNode& node,
                  std::function<void(core::pacs::PacsAccess)> then);
  void updateButtons();

  DicomNodeSettings settings_;
  QComboBox* nodes_;
  QLineEdit* patient_;
  QLineEdit* patientId_;
  QLineEdit* accession_;
  QComboBox* modality_;
  QLineEdit* date_;
  QLineEdit* description_;
  QPushButton* search_;
  QTableWidget* studies_;
  QTableWidget* series_;
  QPushButton* retrieve_;
  QLabel* status_;
  JobRunner* queries_;
  JobRunner* retrieves_;
  JobRunner* cacheJobs_;
  PriorFetcher* priors_;
  std::vector<core::pacs::StudyRecord> studyRecords_;
  std::vector<core::pacs::SeriesRecord> seriesRecords_;
  // The retrieve under way: its node, study, series still to come, and what arrived.
  struct Retrieval {
    core::pacs::DicomNode node;
    core::pacs::StudyRecord study;
    core::pacs::PacsAccess access;
    bool mammography = false;
    std::string studyUid;
    std::vector<std::string> seriesUids;
    std::size_t next = 0;
    std::size_t instances = 0;
    std::size_t fromNetwork = 0;
    QStringList problems;
  };
  std::optional<Retrieval> retrieval_;
  bool mammography_ = false;
};

}  // namespace delineate::app
