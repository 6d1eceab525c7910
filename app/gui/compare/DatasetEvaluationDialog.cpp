#include "app/gui/compare/DatasetEvaluationDialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>
#include <filesystem>

#include "app/gui/compare/EvaluationCaseModel.h"
#include "app/gui/compare/EvaluationSummaryModel.h"
#include "app/gui/shell/JobRunner.h"
#include "app/gui/shell/NumericSortProxy.h"
#include "core/Error.h"
#include "core/metrics/DatasetEvaluation.h"
#include "core/metrics/EvaluationReport.h"

namespace delineate::app {

namespace {

// A line edit and its Browse… button on one row.
QWidget* folderRow(QLineEdit* edit, QPushButton* browse, QWidget* parent) {
  auto* row = new QWidget(parent);
  auto* layout = new QHBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(edit, 1);
  layout->addWidget(browse);
  return row;
}

QTableView* resultView(QWidget* parent, const QString& name) {
  auto* view = new QTableView(parent);
  view->setObjectName(name);
  view->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view->setSelectionBehavior(QAbstractItemView::SelectRows);
  view->setAlternatingRowColors(false);
  view->verticalHeader()->hide();
  view->verticalHeader()->setDefaultSectionSize(view->fontMetrics().height() + 6);
  view->horizontalHeader()->setStretchLastSection(true);
  view->setWordWrap(false);
  return view;
}

// The text of a message from an exception: an Error without its "where:" prefix (the caller
// names the file), anything else as it is.
QString errorText(const std::exception& e) {
  if (const auto* error = dynamic_cast<const core::Error*>(&e)) {
    return QString::fromStdString(error->detail());
  }
  return QString::fromUtf8(e.what());
}

}  // namespace

DatasetEvaluationDialog::DatasetEvaluationDialog(QWidget* parent, bool interactive)
    : QDialog(parent), interactive_(interactive), jobs_(new JobRunner(this)) {
  setObjectName(QStringLiteral("datasetEvaluationDialog"));
  setWindowTitle(tr("Evaluate dataset"));
  setModal(false);
  setSizeGripEnabled(true);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(createForm());
  layout->addWidget(createResults(), 1);

  exportCsv_ = new QPushButton(tr("Export CSV…"), this);
  exportCsv_->setObjectName(QStringLiteral("exportCsv"));
  exportJson_ = new QPushButton(tr("Export JSON…"), this);
  exportJson_->setObjectName(QStringLiteral("exportJson"));
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  buttons->addButton(exportCsv_, QDialogButtonBox::ActionRole);
  buttons->addButton(exportJson_, QDialogButtonBox::ActionRole);
  layout->addWidget(buttons);

  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(exportCsv_, &QPushButton::clicked, this, [this] { chooseExport(false); });
  connect(exportJson_, &QPushButton::clicked, this, [this] { chooseExport(true); });
  connect(runButton_, &QPushButton::clicked, this, [this] { run(); });
  connect(cancelButton_, &QPushButton::clicked, this, &DatasetEvaluationDialog::cancel);
  connect(jobs_, &JobRunner::progress, this, [this](double fraction, const QString& stage) {
    progress_->setValue(static_cast<int>(fraction * progress_->maximum()));
    if (!stage.isEmpty()) {
      // The bar's format replaces %p, %v and %m: keep a stage's own '%' out of that.
      QString text = stage;
      text.replace(QLatin1Char('%'), QStringLiteral("%\u200B"));
      progress_->setFormat(text + QStringLiteral("  (%p%)"));
    }
  });
  connect(caseView_, &QTableView::doubleClicked, this, &DatasetEvaluationDialog::activateRow);

  setRunning(false);
  showMessage(tr("Choose a reference folder and a test folder, then Run."), false);
  resize(1100, 720);
}

DatasetEvaluationDialog::~DatasetEvaluationDialog() {
  jobs_->cancel();
  jobs_->waitForIdle();
}

QWidget* DatasetEvaluationDialog::createForm() {
  auto* box = new QGroupBox(tr("Datasets"), this);
  reference_ = new QLineEdit(box);
  reference_->setObjectName(QStringLiteral("referenceFolder"));
  reference_->setPlaceholderText(tr("folder of reference label maps"));
  test_ = new QLineEdit(box);
  test_->setObjectName(QStringLiteral("testFolder"));
  test_->setPlaceholderText(tr("folder of test label maps (same file names)"));
  auto* browseReference = new QPushButton(tr("Browse…"), box);
  browseReference->setAutoDefault(false);
  auto* browseTest = new QPushButton(tr("Browse…"), box);
  browseTest->setAutoDefault(false);
  labels_ = new QLineEdit(box);
  labels_->setObjectName(QStringLiteral("labelNames"));
  labels_->setPlaceholderText(tr("all labels (or segment names, comma-separated)"));
  tolerance_ = new QDoubleSpinBox(box);
  tolerance_->setObjectName(QStringLiteral("tolerance"));
  tolerance_->setRange(0.0, 100.0);
  tolerance_->setDecimals(2);
  tolerance_->setSingleStep(0.5);
  tolerance_->setValue(1.0);
  tolerance_->setSuffix(tr(" mm"));
  resample_ = new QCheckBox(tr("Resample test onto the reference grid when grids differ"), box);
  resample_->setObjectName(QStringLiteral("resample"));

  auto* form = new QFormLayout(box);
  form->addRow(tr("Reference folder:"), folderRow(reference_, browseReference, box));
  form->addRow(tr("Test folder:"), folderRow(test_, browseTest, box));
  form->addRow(tr("Labels:"), labels_);
  form->addRow(tr("Surface Dice tolerance:"), tolerance_);
  form->addRow(QString(), resample_);

  runButton_ = new QPushButton(tr("Run"), box);
  runButton_->setObjectName(QStringLiteral("runEvaluation"));
  runButton_->setDefault(true);
  cancelButton_ = new QPushButton(tr("Cancel"), box);
  cancelButton_->setObjectName(QStringLiteral("cancelEvaluation"));
  cancelButton_->setAutoDefault(false);
  progress_ = new QProgressBar(box);
  progress_->setObjectName(QStringLiteral("evaluationProgress"));
  progress_->setRange(0, 1000);
  progress_->setValue(0);
  progress_->setTextVisible(true);
  progress_->setFormat(QString());
  auto* runRow = new QHBoxLayout;
  runRow->addWidget(runButton_);
  runRow->addWidget(cancelButton_);
  runRow->addWidget(progress_, 1);
  form->addRow(runRow);
  message_ = new QLabel(box);
  message_->setObjectName(QStringLiteral("evaluationMessage"));
  message_->setWordWrap(true);
  message_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  form->addRow(message_);

  connect(browseReference, &QPushButton::clicked, this,
          [this] { chooseFolder(reference_, tr("Reference folder")); });
  connect(browseTest, &QPushButton::clicked, this,
          [this] { chooseFolder(test_, tr("Test folder")); });
  return box;
}

QWidget* DatasetEvaluationDialog::createResults() {
  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->setChildrenCollapsible(false);

  auto* cases = new QGroupBox(tr("Cases (double-click a case to compare it)"), splitter);
  caseModel_ = new EvaluationCaseModel(this);
  caseProxy_ = new NumericSortProxy(this);
  caseProxy_->setSourceModel(caseModel_);
  caseView_ = resultView(cases, QStringLiteral("evaluationCases"));
  caseView_->setModel(caseProxy_);
  // In pairing order until a header is clicked.
  caseView_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
  caseView_->setSortingEnabled(true);
  (new QVBoxLayout(cases))->addWidget(caseView_);

  auto* summary = new QGroupBox(tr("Summary per label (over the measured cases)"), splitter);
  summaryModel_ = new EvaluationSummaryModel(this);
  summaryView_ = resultView(summary, QStringLiteral("evaluationSummary"));
  summaryView_->setModel(summaryModel_);
  (new QVBoxLayout(summary))->addWidget(summaryView_);

  splitter->addWidget(cases);
  splitter->addWidget(summary);
  splitter->setStretchFactor(0, 3);
  splitter->setStretchFactor(1, 1);
  return splitter;
}

void DatasetEvaluationDialog::setFolders(const QString& referenceFolder,
                                         const QString& testFolder) {
  reference_->setText(referenceFolder);
  test_->setText(testFolder);
}

bool DatasetEvaluationDialog::run() {
  const QString reference = reference_->text().trimmed();
  const QString test = test_->text().trimmed();
  if (reference.isEmpty() || test.isEmpty()) {
    showMessage(
        reference.isEmpty() ? tr("Choose a reference folder.") : tr("Choose a test folder."), true);
    return false;
  }
  core::DatasetEvaluationOptions options;
  for (const QString& name : labels_->text().split(QLatin1Char(','), Qt::SkipEmptyParts)) {
    if (!name.trimmed().isEmpty()) {
      options.labels.push_back(name.trimmed().toStdString());
    }
  }
  options.toleranceMm = tolerance_->value();
  options.resample = resample_->isChecked();

  last_.reset();
  caseModel_->clearRows();
  summaryModel_->clearRows();
  setRunning(true);
  progress_->setValue(0);
  progress_->setFormat(tr("Starting…"));
  showMessage(tr("Evaluating %1 against %2…").arg(test, reference), false);
  const std::filesystem::path referencePath(reference.toStdString());
  const std::filesystem::path testPath(test.toStdString());
  jobs_->run<core::DatasetEvaluation>(
      tr("Evaluating dataset"),
      [referencePath, testPath, options](core::ProgressSink& progress) {
        return core::evaluateDataset(referencePath, testPath, options, progress);
      },
      [this](core::DatasetEvaluation evaluation) { showResult(std::move(evaluation)); },
      [this](const QString& error, bool cancelled) {
        setRunning(false);
        progress_->setFormat(cancelled ? tr("Cancelled") : tr("Failed"));
        if (cancelled) {
          showMessage(tr("Cancelled"), false);
        } else {
          showMessage(tr("The evaluation failed: %1").arg(error), true);
        }
        Q_EMIT finished(false);
      });
  return true;
}

void DatasetEvaluationDialog::cancel() {
  jobs_->cancel();
}

bool DatasetEvaluationDialog::running() const {
  return jobs_->busy();
}

QString DatasetEvaluationDialog::message() const {
  return message_->text();
}

void DatasetEvaluationDialog::showResult(core::DatasetEvaluation evaluation) {
  last_ = std::make_unique<core::DatasetEvaluation>(std::move(evaluation));
  caseModel_->setEvaluation(*last_);
  summaryModel_->setEvaluation(*last_);
  caseView_->resizeColumnsToContents();
  summaryView_->resizeColumnsToContents();
  setRunning(false);
  progress_->setValue(progress_->maximum());
  progress_->setFormat(tr("Done"));
  const std::size_t total = last_->cases.size();
  const std::size_t evaluated = last_->evaluatedCases();
  QString text = tr("%1 cases, %2 measured").arg(total).arg(evaluated);
  if (evaluated < total) {
    text += tr(", %1 not measured (highlighted)").arg(total - evaluated);
  }
  showMessage(text + QLatin1Char('.'), evaluated == 0);
  Q_EMIT finished(true);
}

void DatasetEvaluationDialog::setRunning(bool running) {
  runButton_->setEnabled(!running);
  cancelButton_->setEnabled(running);
  exportCsv_->setEnabled(!running && last_ != nullptr);
  exportJson_->setEnabled(!running && last_ != nullptr);
}

void DatasetEvaluationDialog::showMessage(const QString& text, bool error) {
  message_->setText(text);
  message_->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QString());
}

void DatasetEvaluationDialog::chooseFolder(QLineEdit* edit, const QString& title) {
  if (!interactive_) {
    return;
  }
  const QString folder = QFileDialog::getExistingDirectory(this, title, edit->text());
  if (!folder.isEmpty()) {
    edit->setText(folder);
  }
}

void DatasetEvaluationDialog::chooseExport(bool json) {
  if (!interactive_ || !last_) {
    return;
  }
  const QString start =
      QFileInfo(test_->text())
          .absoluteDir()
          .filePath(json ? QStringLiteral("evaluation.json") : QStringLiteral("evaluation.csv"));
  const QString path =
      json ? QFileDialog::getSaveFileName(this, tr("Export JSON"), start, tr("JSON (*.json)"))
           : QFileDialog::getSaveFileName(this, tr("Export CSV"), start, tr("CSV (*.csv)"));
  if (path.isEmpty()) {
    return;
  }
  if (json) {
    exportJson(path);
  } else {
    exportCsv(path);
  }
}

bool DatasetEvaluationDialog::exportCsv(const QString& path) {
  if (!last_) {
    showMessage(tr("Nothing to export yet: run the evaluation first."), true);
    return false;
  }
  try {
    core::writeEvaluationCsv(*last_, std::filesystem::path(path.toStdString()));
  } catch (const std::exception& e) {
    showMessage(tr("Cannot write %1: %2").arg(path, errorText(e)), true);
    return false;
  }
  showMessage(tr("Wrote %1").arg(path), false);
  return true;
}

bool DatasetEvaluationDialog::exportJson(const QString& path) {
  if (!last_) {
    showMessage(tr("Nothing to export yet: run the evaluation first."), true);
    return false;
  }
  try {
    core::writeEvaluationJson(*last_, std::filesystem::path(path.toStdString()));
  } catch (const std::exception& e) {
    showMessage(tr("Cannot write %1: %2").arg(path, errorText(e)), true);
    return false;
  }
  showMessage(tr("Wrote %1").arg(path), false);
  return true;
}

void DatasetEvaluationDialog::activateRow(const QModelIndex& proxyIndex) {
  const int row = caseProxy_->mapToSource(proxyIndex).row();
  const int caseIndex = caseModel_->caseIndex(row);
  if (!last_ || caseIndex < 0 || std::size_t(caseIndex) >= last_->cases.size()) {
    return;
  }
  const core::CaseEvaluation& c = last_->cases[std::size_t(caseIndex)];
  if (c.reference.empty() || c.test.empty()) {
    return;  // a missing pair: nothing to compare
  }
  const int labelIndex = caseModel_->labelIndex(row);
  const bool hasLabel = labelIndex >= 0 && std::size_t(labelIndex) < c.labels.size();
  const QString label =
      hasLabel ? QString::fromStdString(c.labels[std::size_t(labelIndex)].name) : QString();
  const int value = hasLabel ? int(c.labels[std::size_t(labelIndex)].value) : 0;
  Q_EMIT caseActivated(QString::fromStdString(c.reference.front().string()),
                       QString::fromStdString(c.test.front().string()), label, value);
}

}  // namespace delineate::app
