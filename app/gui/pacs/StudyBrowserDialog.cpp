#include "app/gui/pacs/StudyBrowserDialog.h"
#include "core/Text.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableWidget>
#include <QVBoxLayout>

#include "app/gui/pacs/DicomWebSecrets.h"
#include "app/gui/pacs/PriorFetcher.h"
#include "app/gui/shell/JobProgressWidget.h"
#include "app/gui/shell/JobRunner.h"
#include "core/dicomweb/PacsService.h"
#include "core/mammo/PriorRule.h"
#include "core/pacs/EarlierStudies.h"
#include "core/pacs/StudyCache.h"

namespace delineate::app {

namespace {

namespace pacs = core::pacs;

QString fromStdText(const std::string& s) {
  return QString::fromStdString(s);
}

// "DOE^JANE" as people write it: "DOE, JANE".
QString personName(const std::string& pn) {
  QString name = fromStdText(pn);
  const int caret = name.indexOf(QLatin1Char('^'));
  if (caret >= 0) {
    name = name.left(caret) + QStringLiteral(", ") + name.mid(caret + 1);
    name.replace(QLatin1Char('^'), QLatin1Char(' '));
  }
  return name.trimmed();
}

// A cell that sorts numbers as numbers.
QTableWidgetItem* numberItem(int value) {
  auto* item = new QTableWidgetItem;
  if (value >= 0) {
    item->setData(Qt::DisplayRole, value);
  }
  return item;
}

QTableWidget* makeTable(const QStringList& headers, const QString& name, QWidget* parent) {
  auto* table = new QTableWidget(0, int(headers.size()), parent);
  table->setObjectName(name);
  table->setHorizontalHeaderLabels(headers);
  table->setSelectionBehavior(QAbstractItemView::SelectRows);
  table->setSelectionMode(QAbstractItemView::SingleSelection);
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->horizontalHeader()->setStretchLastSection(true);
  table->verticalHeader()->hide();
  return table;
}

}  // namespace

StudyBrowserDialog::StudyBrowserDialog(QWidget* parent)
    : QDialog(parent),
      nodes_(new QComboBox(this)),
      patient_(new QLineEdit(this)),
      patientId_(new QLineEdit(this)),
      accession_(new QLineEdit(this)),
      modality_(new QComboBox(this)),
      date_(new QLineEdit(this)),
      description_(new QLineEdit(this)),
      search_(new QPushButton(tr("Search"), this)),
      studies_(makeTable({tr("Patient"), tr("Patient ID"), tr("Date"), tr("Accession"),
                          tr("Modalities"), tr("Series"), tr("Instances"), tr("Description")},
                         QStringLiteral("pacsStudies"), this)),
      series_(makeTable({tr("Number"), tr("Modality"), tr("Instances"), tr("Description")},
                        QStringLiteral("pacsSeries"), this)),
      retrieve_(new QPushButton(tr("Retrieve"), this)),
      status_(new QLabel(this)),
      queries_(new JobRunner(this)),
      retrieves_(new JobRunner(this)),
      cacheJobs_(new JobRunner(this)),
      priors_(new PriorFetcher(studyFolder(), this)) {
  setObjectName(QStringLiteral("studyBrowser"));
  setWindowTitle(tr("Query PACS"));
  nodes_->setObjectName(QStringLiteral("pacsQueryNode"));
  patient_->setObjectName(QStringLiteral("pacsPatient"));
  patient_->setPlaceholderText(tr("DOE* (wildcards * and ?)"));
  patientId_->setObjectName(QStringLiteral("pacsPatientId"));
  accession_->setObjectName(QStringLiteral("pacsAccession"));
  modality_->setObjectName(QStringLiteral("pacsModality"));
  modality_->addItem(tr("Any"), QString());
  for (const char* m : {"CT", "MR", "MG", "US", "DX", "CR", "PT", "NM", "XA", "SEG", "SR"}) {
    modality_->addItem(QString::fromLatin1(m), QString::fromLatin1(m));
  }
  date_->setObjectName(QStringLiteral("pacsDate"));
  date_->setPlaceholderText(tr("YYYYMMDD or YYYYMMDD-YYYYMMDD"));
  description_->setObjectName(QStringLiteral("pacsDescription"));
  description_->setPlaceholderText(tr("*CHEST* (wildcards * and ?)"));
  search_->setObjectName(QStringLiteral("pacsSearch"));
  search_->setDefault(true);
  retrieve_->setObjectName(QStringLiteral("pacsRetrieve"));
  status_->setObjectName(QStringLiteral("pacsQueryStatus"));
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
  studies_->setSortingEnabled(true);

  auto* form = new QFormLayout;
  form->addRow(tr("Node"), nodes_);
  form->addRow(tr("Patient name"), patient_);
  form->addRow(tr("Patient ID"), patientId_);
  form->addRow(tr("Accession"), accession_);
  form->addRow(tr("Modality"), modality_);
  form->addRow(tr("Study date"), date_);
  form->addRow(tr("Description"), description_);
  auto* searchRow = new QHBoxLayout;
  searchRow->addStretch();
  searchRow->addWidget(search_);
  auto* retrieveRow = new QHBoxLayout;
  retrieveRow->addWidget(new JobProgressWidget(retrieves_, this), 1);
  retrieveRow->addWidget(new JobProgressWidget(priors_->jobs(), this), 1);
  retrieveRow->addStretch();
  retrieveRow->addWidget(retrieve_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addLayout(searchRow);
  layout->addWidget(new JobProgressWidget(queries_, this));
  layout->addWidget(studies_, 3);
  layout->addWidget(new QLabel(tr("Series of the selected study"), this));
  layout->addWidget(series_, 2);
  layout->addLayout(retrieveRow);
  layout->addWidget(status_);
  layout->addWidget(buttons);
  resize(860, 640);

  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::hide);
  connect(search_, &QPushButton::clicked, this, &StudyBrowserDialog::search);
  connect(retrieve_, &QPushButton::clicked, this, &StudyBrowserDialog::retrieve);
  connect(studies_, &QTableWidget::itemSelectionChanged, this, &StudyBrowserDialog::listSeries);
  connect(status_, &QLabel::linkActivated, this, [this] { Q_EMIT nodesWanted(); });
  refresh();
}

QString StudyBrowserDialog::studyFolder() {
  return QDir(QStandardPaths::writableLocation(QStandardPaths::AppLocalDataLocation))
      .filePath(QStringLiteral("studies"));
}

void StudyBrowserDialog::refresh() {
  settings_ = DicomNodeSettings::load();
  const QString current = nodes_->currentText();
  nodes_->clear();
  for (const pacs::DicomNode& node : settings_.nodes) {
    nodes_->addItem(fromStdText(node.label()));
  }
  nodes_->addItem(tr("This computer (study cache)"));
  const int keep = nodes_->findText(current);
  if (keep >= 0) {
    nodes_->setCurrentIndex(keep);
  }
  if (settings_.nodes.empty()) {
    nodes_->setCurrentIndex(0);
    setStatus(
        tr("No DICOM node is set up: <a href=\"nodes\">add one in Preferences</a>. "
           "The study cache holds what was retrieved before."));
  }
  updateButtons();
}

bool StudyBrowserDialog::cacheChosen() const {
  return nodes_->currentIndex() == int(settings_.nodes.size());
}

std::optional<pacs::DicomNode> StudyBrowserDialog::chosenNode() const {
  const int i = nodes_->currentIndex();
  if (i < 0 || i >= int(settings_.nodes.size())) {
    return std::nullopt;
  }
  return settings_.nodes[std::size_t(i)];
}

const pacs::StudyRecord* StudyBrowserDialog::selectedStudy() const {
  const auto rows = studies_->selectionModel()->selectedRows();
  if (rows.isEmpty()) {
    return nullptr;
  }
  const QTableWidgetItem* item = studies_->item(rows.first().row(), 0);
  const int index = item ? item->data(Qt::UserRole).toInt() : -1;
  return index >= 0 && index < int(studyRecords_.size()) ? &studyRecords_[std::size_t(index)]
                                                         : nullptr;
}

void StudyBrowserDialog::search() {
  const auto node = chosenNode();
  if (!node && !cacheChosen()) {
    return;
  }
  pacs::StudyQuery query;
  query.patientName = patient_->text().trimmed().toStdString();
  query.patientId = patientId_->text().trimmed().toStdString();
  query.accessionNumber = accession_->text().trimmed().toStdString();
  query.modality = modality_->currentData().toString().toStdString();
  query.studyDate = date_->text().trimmed().remove(QLatin1Char(' ')).toStdString();
  query.studyDescription = description_->text().trimmed().toStdString();
  query.limit = 1000;
  if (auto p = query.problem()) {
    setStatus(fromStdText(*p));
    return;
  }
  if (cacheChosen()) {
    queries_->run<std::vector<pacs::StudyRecord>>(
        tr("Reading the study cache"),
        [root = studyFolder().toStdString(), query](core::ProgressSink& progress) {
          std::vector<pacs::StudyRecord> found;
          for (pacs::StudyRecord& s : pacs::StudyCache(root).records(progress)) {
            if (query.matches(s) && found.size() < query.limit) {
              found.push_back(std::move(s));
            }
          }
          return found;
        },
        [this](std::vector<pacs::StudyRecord> found) { showStudies(std::move(found)); },
        [this](const QString& error, bool cancelled) {
          setStatus(cancelled ? tr("Search cancelled.") : error);
        });
    return;
  }
  setStatus(tr("Searching %1…").arg(fromStdText(node->label())));
  withAccess(*node, [this, node = *node, query](pacs::PacsAccess access) {
    queries_->run<std::vector<pacs::StudyRecord>>(
        tr("Searching %1").arg(fromStdText(node.label())),
        [node, query, access](core::ProgressSink& progress) {
          return pacs::queryStudies(node, query, access, progress);
        },
        [this](std::vector<pacs::StudyRecord> found) { showStudies(std::move(found)); },
        [this](const QString& error, bool cancelled) {
          setStatus(cancelled ? tr("Search cancelled.") : error);
        });
  });
}

void StudyBrowserDialog::withAccess(const pacs::DicomNode& node,
                                    std::function<void(pacs::PacsAccess)> then) {
  DicomWebSecrets::fetch(node, this,
                         [this, then = std::move(then)](std::string secret, QString problem) {
                           if (!problem.isEmpty()) {
                             setStatus(problem);
                             retrieval_.reset();
                             updateButtons();
                             return;
                           }
                           then(settings_.access(std::move(secret)));
                         });
}

void StudyBrowserDialog::showStudies(std::vector<pacs::StudyRecord> studies) {
  studyRecords_ = std::move(studies);
  seriesRecords_.clear();
  series_->setRowCount(0);
  studies_->setSortingEnabled(false);
  studies_->clearContents();
  studies_->setRowCount(int(studyRecords_.size()));
  for (int row = 0; row < int(studyRecords_.size()); ++row) {
    const pacs::StudyRecord& s = studyRecords_[std::size_t(row)];
    auto* name = new QTableWidgetItem(personName(s.patientName));
    name->setData(Qt::UserRole, row);
    studies_->setItem(row, 0, name);
    studies_->setItem(row, 1, new QTableWidgetItem(fromStdText(s.patientId)));
    studies_->setItem(row, 2, new QTableWidgetItem(fromStdText(core::isoDateOfDicom(s.studyDate))));
    studies_->setItem(row, 3, new QTableWidgetItem(fromStdText(s.accessionNumber)));
    QStringList modalities;
    for (const std::string& m : s.modalities) {
      modalities << fromStdText(m);
    }
    studies_->setItem(row, 4, new QTableWidgetItem(modalities.join(QLatin1Char(' '))));
    studies_->setItem(row, 5, numberItem(s.seriesCount));
    studies_->setItem(row, 6, numberItem(s.instanceCount));
    studies_->setItem(row, 7, new QTableWidgetItem(fromStdText(s.studyDescription)));
  }
  studies_->setSortingEnabled(true);
  studies_->resizeColumnsToContents();
  setStatus(studyRecords_.size() >= 1000
                ? tr("The first 1000 studies; narrow the search to see others.")
                : tr("%n study(ies) found.", nullptr, int(studyRecords_.size())));
  updateButtons();
}

void StudyBrowserDialog::listSeries() {
  series_->setRowCount(0);
  seriesRecords_.clear();
  updateButtons();
  const pacs::StudyRecord* study = selectedStudy();
  const auto node = chosenNode();
  if (study != nullptr && cacheChosen()) {
    queries_->run<std::vector<pacs::SeriesRecord>>(
        tr("Listing the series"),
        [root = studyFolder().toStdString(), uid = study->studyInstanceUid](core::ProgressSink&) {
          return pacs::StudyCache(root).seriesOf(uid);
        },
        [this](std::vector<pacs::SeriesRecord> found) { showSeries(std::move(found)); },
        [this](const QString& error, bool) { setStatus(error); });
    return;
  }
  if (study == nullptr || !node) {
    return;
  }
  withAccess(*node, [this, node = *node, uid = study->studyInstanceUid](pacs::PacsAccess access) {
    queries_->run<std::vector<pacs::SeriesRecord>>(
        tr("Listing the series"),
        [node, uid, access](core::ProgressSink& progress) {
          return pacs::querySeries(node, uid, access, progress);
        },
        [this](std::vector<pacs::SeriesRecord> found) { showSeries(std::move(found)); },
        [this](const QString& error, bool cancelled) {
          if (!cancelled) {
            setStatus(error);
          }
        });
  });
}

void StudyBrowserDialog::showSeries(std::vector<pacs::SeriesRecord> series) {
  std::sort(series.begin(), series.end(),
            [](const auto& a, const auto& b) { return a.seriesNumber < b.seriesNumber; });
  seriesRecords_ = std::move(series);
  series_->setRowCount(int(seriesRecords_.size()));
  for (int row = 0; row < int(seriesRecords_.size()); ++row) {
    const pacs::SeriesRecord& s = seriesRecords_[std::size_t(row)];
    series_->setItem(row, 0, numberItem(s.seriesNumber));
    series_->setItem(row, 1, new QTableWidgetItem(fromStdText(s.modality)));
    series_->setItem(row, 2, numberItem(s.instanceCount));
    series_->setItem(row, 3, new QTableWidgetItem(fromStdText(s.seriesDescription)));
  }
  series_->resizeColumnsToContents();
  updateButtons();
}

void StudyBrowserDialog::retrieve() {
  const pacs::StudyRecord* study = selectedStudy();
  const auto node = chosenNode();
  if (study != nullptr && cacheChosen() && !seriesRecords_.empty()) {
    openFromCache(*study);
    return;
  }
  if (study == nullptr || !node || seriesRecords_.empty()) {
    return;
  }
  Retrieval r;
  r.node = *node;
  r.study = *study;
  r.mammography = pacs::isMammographyStudy(*study, seriesRecords_);
  mammography_ = r.mammography;
  r.studyUid = study->studyInstanceUid;
  for (const pacs::SeriesRecord& s : seriesRecords_) {
    r.seriesUids.push_back(s.seriesInstanceUid);
  }
  retrieval_ = std::move(r);
  retrieveNext();
}

void StudyBrowserDialog::retrieveNext() {
  Retrieval& r = *retrieval_;
  const QString studyDir = QDir(studyFolder()).filePath(fromStdText(r.studyUid));
  if (r.next >= r.seriesUids.size()) {
    QString text = tr("%n instance(s) of %1 in %2 (%3 fetched, the rest were here already).",
                      nullptr, int(r.instances))
                       .arg(fromStdText(r.node.label()), studyDir)
                       .arg(r.fromNetwork);
    if (!r.problems.isEmpty()) {
      text += QLatin1Char('\n') + r.problems.join(QLatin1Char('\n'));
    }
    setStatus(text);
    keepCacheUnderLimit(r.studyUid);
    mammography_ = false;
    const RetrievedStudy done{studyDir, r.study, r.node, r.access, r.mammography};
    retrieval_.reset();
    updateButtons();
    Q_EMIT studyRetrieved(done);
    return;
  }
  const std::size_t index = r.next;
  withAccess(r.node, [this, index, studyDir](pacs::PacsAccess access) {
    retrieveSeries(index, studyDir, std::move(access));
  });
}

void StudyBrowserDialog::retrieveSeries(std::size_t index, const QString& studyDir,
                                        pacs::PacsAccess access) {
  if (!retrieval_) {
    return;
  }
  Retrieval& r = *retrieval_;
  r.access = access;
  retrieves_->run<pacs::RetrieveReport>(
      tr("Retrieving series %1 of %2").arg(index + 1).arg(r.seriesUids.size()),
      [node = r.node, request = pacs::RetrieveRequest{r.studyUid, r.seriesUids[index]},
       folder = studyDir.toStdString(), access](core::ProgressSink& progress) {
        return pacs::retrieveStudy(node, request, folder, access, progress);
      },
      [this, index, studyDir](pacs::RetrieveReport report) {
        Retrieval& now = *retrieval_;
        now.instances += report.files.size();
        now.fromNetwork += report.received;
        if (!report.missing.empty()) {
          now.problems << tr("Series %1: %n instance(s) did not arrive.", nullptr,
                             int(report.missing.size()))
                              .arg(index + 1);
        }
        if (!report.files.empty()) {
          const QString folder = QDir(studyDir).filePath(fromStdText(now.seriesUids[index]));
          Q_EMIT seriesRetrieved(folder, index == 0);
        }
        ++now.next;
        retrieveNext();
      },
      [this](const QString& error, bool cancelled) {
        setStatus(cancelled ? tr("Retrieve cancelled; what arrived is kept, and Retrieve "
                                 "fetches only the rest.")
                            : error);
        retrieval_.reset();
        updateButtons();
      });
  updateButtons();
}

void StudyBrowserDialog::setStatus(const QString& text) {
  status_->setText(text);
}

void StudyBrowserDialog::appendStatus(const QString& text) {
  setStatus(status_->text().isEmpty() ? text : status_->text() + QLatin1Char('\n') + text);
}

void StudyBrowserDialog::searchEarlier(const pacs::StudyRecord& current) {
  const std::string modality = current.modalities.empty() ? std::string() : current.modalities[0];
  patient_->clear();
  accession_->clear();
  description_->clear();
  patientId_->setText(fromStdText(current.patientId));
  const int m = modality_->findData(fromStdText(modality));
  modality_->setCurrentIndex(std::max(m, 0));
  // Any earlier day: the window of a rule without limits.
  date_->setText(
      fromStdText(core::mammo::PriorRule{modality, 0, 0, 1}.dateRange(current.studyDate)));
  search();
}

void StudyBrowserDialog::openFromCache(const pacs::StudyRecord& study) {
  const pacs::StudyCache cache(studyFolder().toStdString());
  cache.touch(study.studyInstanceUid);
  const QString studyDir =
      QString::fromStdString(cache.studyFolder(study.studyInstanceUid).string());
  mammography_ = pacs::isMammographyStudy(study, seriesRecords_);
  for (std::size_t i = 0; i < seriesRecords_.size(); ++i) {
    Q_EMIT seriesRetrieved(
        QDir(studyDir).filePath(fromStdText(seriesRecords_[i].seriesInstanceUid)), i == 0);
  }
  setStatus(tr("Opened from the study cache (%1), nothing fetched.").arg(studyDir));
  Q_EMIT studyRetrieved({studyDir, study, std::nullopt, {}, mammography_});
  mammography_ = false;
}

void StudyBrowserDialog::keepCacheUnderLimit(const std::string& inUse) {
  const std::uintmax_t limit = std::uintmax_t(settings_.cacheLimitGb) << 30;
  cacheJobs_->run<std::vector<std::string>>(
      tr("Keeping the study cache under %1 GB").arg(settings_.cacheLimitGb),
      [root = studyFolder().toStdString(), inUse, limit](core::ProgressSink&) {
        const pacs::StudyCache cache(root);
        cache.touch(inUse);
        return cache.evict(limit, {inUse});
      },
      [this](std::vector<std::string> removed) {
        if (!removed.empty()) {
          appendStatus(
              tr("%n study(ies) used longest ago removed from the study cache to keep it "
                 "under its limit.",
                 nullptr, int(removed.size())));
        }
      },
      [](const QString&, bool) {});
}

void StudyBrowserDialog::updateButtons() {
  const bool haveNode = chosenNode().has_value() || cacheChosen();
  search_->setEnabled(haveNode);
  retrieve_->setEnabled(haveNode && !retrieval_ && selectedStudy() != nullptr &&
                        !seriesRecords_.empty());
}

}  // namespace delineate::app
