#include "app/gui/compare/CompareDock.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <cmath>

#include "app/gui/compare/CompareController.h"
#include "app/gui/compare/SliceDiceChart.h"
#include "app/gui/shell/JobProgressWidget.h"
#include "app/gui/shell/NumericTableItem.h"
#include "core/Error.h"
#include "viewers/SliceView.h"
#include "viewers/ViewState.h"

namespace delineate::app {

namespace {

// Table columns: the label, then these metrics (their names, units and decimals from
// core::kMetricDescriptors).
constexpr core::Metric kColumns[] = {
    core::Metric::Dice,          core::Metric::Jaccard,     core::Metric::Sensitivity,
    core::Metric::Precision,     core::Metric::VolumeRefMl, core::Metric::VolumeTestMl,
    core::Metric::VolumeDiffPct, core::Metric::HausdorffMm, core::Metric::Hd95Mm,
    core::Metric::AssdMm,        core::Metric::SurfaceDice};

QString columnTitle(core::Metric m) {
  const core::MetricDescriptor& d = core::descriptor(m);
  return *d.unit ? QStringLiteral("%1 (%2)").arg(QString::fromLatin1(d.name),
                                                 QString::fromLatin1(d.unit))
                 : QString::fromLatin1(d.name);
}

const char* kClassNames[] = {"Agreement", "Test only (false positive)",
                             "Reference only (false negative)", "Different label"};
const QColor kClassColors[] = {QColor(0, 158, 115), QColor(230, 159, 0), QColor(86, 180, 233),
                               QColor(204, 121, 167)};

QString swatchText(const QColor& c, const QString& text) {
  return QStringLiteral("■ ") + text + QStringLiteral("  ") + c.name();
}

}  // namespace

CompareDock::CompareDock(CompareController* controller,
                         std::shared_ptr<viewers::ViewState> viewState, bool interactive,
                         QWidget* parent)
    : QWidget(parent),
      compare_(controller),
      viewState_(std::move(viewState)),
      interactive_(interactive) {
  setObjectName(QStringLiteral("comparePanel"));
  reference_ = new QComboBox(this);
  reference_->setObjectName(QStringLiteral("compareReference"));
  test_ = new QComboBox(this);
  test_->setObjectName(QStringLiteral("compareTest"));
  label_ = new QComboBox(this);
  label_->setObjectName(QStringLiteral("compareLabel"));
  label_->addItem(tr("All labels"), 0);
  byName_ = new QCheckBox(tr("Pair labels by segment name"), this);
  byName_->setChecked(true);
  byName_->setToolTip(tr("Off: pair labels by value"));
  tolerance_ = new QDoubleSpinBox(this);
  tolerance_->setRange(0.0, 100.0);
  tolerance_->setDecimals(2);
  tolerance_->setValue(1.0);
  tolerance_->setSuffix(tr(" mm"));
  tolerance_->setToolTip(tr("Surface Dice tolerance"));
  compareButton_ = new QPushButton(tr("Compare"), this);
  compareButton_->setObjectName(QStringLiteral("compareRun"));
  clearButton_ = new QPushButton(tr("Clear"), this);
  clearButton_->setToolTip(tr("Leave compare mode: remove the overlay and the slice strips"));

  auto* classBox = new QGridLayout;
  for (int c = 0; c < 4; ++c) {
    classes_[c] = new QCheckBox(tr(kClassNames[c]), this);
    classes_[c]->setChecked(compare_->classVisible(CompareController::Class(c + 1)));
    classes_[c]->setStyleSheet(QStringLiteral("QCheckBox { border-left: 10px solid %1; "
                                              "padding-left: 4px; }")
                                   .arg(kClassColors[c].name()));
    classes_[c]->setToolTip(swatchText(kClassColors[c], tr(kClassNames[c])));
    classBox->addWidget(classes_[c], c / 2, c % 2);
    connect(classes_[c], &QCheckBox::toggled, this,
            [this, c](bool on) { compare_->setClassVisible(CompareController::Class(c + 1), on); });
  }
  hideMaps_ = new QCheckBox(tr("Hide the label maps under the overlay"), this);
  hideMaps_->setChecked(compare_->mapsHidden());
  summary_ = new QLabel(this);
  summary_->setObjectName(QStringLiteral("compareSummary"));
  summary_->setWordWrap(true);
  message_ = new QLabel(this);
  message_->setWordWrap(true);
  message_->setStyleSheet(QStringLiteral("color: #d55e00"));
  message_->hide();

  table_ = new QTableWidget(this);
  table_->setObjectName(QStringLiteral("compareTable"));
  table_->setColumnCount(1 + int(std::size(kColumns)));
  QStringList headers{tr("Label")};
  for (const core::Metric m : kColumns) {
    headers << columnTitle(m);
  }
  table_->setHorizontalHeaderLabels(headers);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->verticalHeader()->hide();
  table_->setSortingEnabled(true);
  table_->setMinimumHeight(110);

  view_ = new QComboBox(this);
  view_->addItems({tr("Axial"), tr("Coronal"), tr("Sagittal")});
  auto* previous = new QPushButton(tr("◀ Worse"), this);
  previous->setToolTip(tr("Previous slice in worst-first order (Shift+N)"));
  auto* next = new QPushButton(tr("Next worst ▶"), this);
  next->setToolTip(tr("Next slice in worst-first order (N)"));
  worst_ = new QLabel(this);
  worst_->setObjectName(QStringLiteral("compareWorst"));
  chart_ = new SliceDiceChart(this);
  chart_->setObjectName(QStringLiteral("compareChart"));
  auto* exportTable = new QPushButton(tr("Export table (CSV)…"), this);
  auto* exportPlot = new QPushButton(tr("Export plot (PNG)…"), this);

  auto* form = new QFormLayout;
  form->addRow(tr("Reference"), reference_);
  form->addRow(tr("Test"), test_);
  form->addRow(tr("Label"), label_);
  form->addRow(tr("Tolerance"), tolerance_);
  auto* runRow = new QHBoxLayout;
  runRow->addWidget(byName_, 1);
  runRow->addWidget(compareButton_);
  runRow->addWidget(clearButton_);
  auto* sliceRow = new QHBoxLayout;
  sliceRow->addWidget(view_);
  sliceRow->addWidget(previous);
  sliceRow->addWidget(next);
  auto* exportRow = new QHBoxLayout;
  exportRow->addWidget(exportTable);
  exportRow->addWidget(exportPlot);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addLayout(runRow);
  layout->addWidget(new JobProgressWidget(compare_->runner(), this));
  layout->addWidget(message_);
  layout->addLayout(classBox);
  layout->addWidget(hideMaps_);
  layout->addWidget(summary_);
  layout->addWidget(table_, 1);
  layout->addLayout(sliceRow);
  layout->addWidget(worst_);
  layout->addWidget(chart_, 1);
  layout->addLayout(exportRow);

  connect(compareButton_, &QPushButton::clicked, this, &CompareDock::compare);
  connect(clearButton_, &QPushButton::clicked, compare_, &CompareController::clear);
  connect(label_, &QComboBox::activated, this, [this] {
    if (compare_->result()) {
      compare();
    }
  });
  connect(hideMaps_, &QCheckBox::toggled, compare_, &CompareController::setMapsHidden);
  connect(view_, &QComboBox::currentIndexChanged, this, [this](int v) {
    compare_->setFollowedView(v);
    updatePlot();
  });
  connect(previous, &QPushButton::clicked, this, [this] {
    compare_->previousWorstSlice();
    updateWorstText();
  });
  connect(next, &QPushButton::clicked, this, [this] {
    compare_->nextWorstSlice();
    updateWorstText();
  });
  connect(chart_, &SliceDiceChart::sliceClicked, this, [this](int slice) {
    if (auto* view = compare_->followedSliceView()) {
      view->setSliceIndex(slice);
    }
  });
  connect(exportTable, &QPushButton::clicked, this, &CompareDock::chooseTableFile);
  connect(exportPlot, &QPushButton::clicked, this, &CompareDock::choosePlotFile);
  connect(compare_, &CompareController::sourcesChanged, this, &CompareDock::rebuildSources);
  connect(compare_, &CompareController::computed, this, &CompareDock::showResult);
  connect(compare_, &CompareController::started, this, [this] { message_->hide(); });
  connect(compare_, &CompareController::failed, this, &CompareDock::showError);
  connect(compare_, &CompareController::cleared, this, [this] {
    table_->setRowCount(0);
    summary_->clear();
    worst_->clear();
    chart_->setValues({}, tr("Slice"));
  });
  viewObserver_ = viewState_->addObserver([this](unsigned changes) {
    if (changes & viewers::ViewState::CursorChanged) {
      updateWorstText();
    }
  });
  rebuildSources();
}

CompareDock::~CompareDock() {
  viewState_->removeObserver(viewObserver_);
}

void CompareDock::rebuildSources() {
  const auto sources = compare_->sources();
  const int reference = reference_->currentIndex();
  const int test = test_->currentIndex();
  const QSignalBlocker blockReference(reference_);
  const QSignalBlocker blockTest(test_);
  reference_->clear();
  test_->clear();
  for (const auto& s : sources) {
    reference_->addItem(s.name);
    test_->addItem(s.name);
  }
  const int n = static_cast<int>(sources.size());
  // Defaults: the first map as reference; the AI proposal (last) or the second map as test.
  reference_->setCurrentIndex(reference >= 0 && reference < n ? reference : 0);
  test_->setCurrentIndex(
      test >= 0 && test < n && test != reference_->currentIndex() ? test : (n > 1 ? n - 1 : 0));
  compareButton_->setEnabled(n >= 2);
}

void CompareDock::compare() {
  CompareController::Request request;
  request.reference = reference_->currentIndex();
  request.test = test_->currentIndex();
  request.label = static_cast<std::uint16_t>(label_->currentData().toInt());
  request.toleranceMm = tolerance_->value();
  request.matchByName = byName_->isChecked();
  QString error;
  if (!compare_->compare(request, &error)) {
    showError(error);
  }
}

bool CompareDock::compareMaps(const core::LabelMap& reference, const core::LabelMap& test,
                              int labelValue, const QString& labelName, double toleranceMm,
                              QString* error) {
  rebuildSources();
  const auto sources = compare_->sources();
  int r = -1;
  int t = -1;
  for (std::size_t i = 0; i < sources.size(); ++i) {
    if (sources[i].map == &reference) {
      r = int(i);
    }
    if (sources[i].map == &test) {
      t = int(i);
    }
  }
  if (r < 0 || t < 0) {
    if (error) {
      *error = tr("The label maps to compare are no longer open.");
    }
    return false;
  }
  reference_->setCurrentIndex(r);
  test_->setCurrentIndex(t);
  {
    const QSignalBlocker blockLabel(label_);
    const QSignalBlocker blockTolerance(tolerance_);
    label_->clear();
    label_->addItem(tr("All labels"), 0);
    if (labelValue != 0) {
      label_->addItem(labelName.isEmpty() ? QString::number(labelValue) : labelName, labelValue);
      label_->setCurrentIndex(1);
    }
    if (toleranceMm >= 0) {
      tolerance_->setValue(toleranceMm);
    }
  }
  CompareController::Request request;
  request.reference = r;
  request.test = t;
  request.label = static_cast<std::uint16_t>(labelValue);
  request.toleranceMm = tolerance_->value();
  request.matchByName = byName_->isChecked();
  return compare_->compare(request, error);
}

void CompareDock::showError(const QString& message) {
  message_->setText(message);
  message_->show();
}

void CompareDock::showResult() {
  const CompareController::Result* r = compare_->result();
  if (!r) {
    return;
  }
  // Label choices: every label the comparison measured.
  const int chosen = label_->currentData().toInt();
  {
    const QSignalBlocker block(label_);
    label_->clear();
    label_->addItem(tr("All labels"), 0);
    for (const auto& l : r->evaluation.labels) {
      if (l.value != 0) {
        label_->addItem(QString::fromStdString(l.name), int(l.value));
      }
    }
    label_->setCurrentIndex(std::max(0, label_->findData(chosen)));
  }
  table_->setSortingEnabled(false);
  table_->setRowCount(static_cast<int>(r->evaluation.labels.size()));
  int row = 0;
  for (const auto& l : r->evaluation.labels) {
    auto* name = new QTableWidgetItem(QString::fromStdString(l.name));
    if (!l.note.empty()) {
      name->setToolTip(QString::fromStdString(l.note));
    }
    table_->setItem(row, 0, name);
    for (std::size_t c = 0; c < std::size(kColumns); ++c) {
      table_->setItem(
          row, int(c) + 1,
          new NumericTableItem(l.metric(kColumns[c]), core::descriptor(kColumns[c]).decimals));
    }
    ++row;
  }
  table_->setSortingEnabled(true);
  table_->resizeColumnsToContents();

  const auto& c = r->counts;
  const double dice =
      2.0 * double(c.agree) /
      std::max(1.0, double(2 * c.agree + c.testOnly + c.referenceOnly + 2 * c.differentLabel));
  QString text = tr("<b>%1</b> against <b>%2</b> (%3): Dice %4 — %5 agreeing, %6 test only, "
                    "%7 reference only, %8 different label voxels.")
                     .arg(r->testName.toHtmlEscaped(), r->referenceName.toHtmlEscaped(),
                          label_->currentText().toHtmlEscaped())
                     .arg(dice, 0, 'f', 4)
                     .arg(c.agree)
                     .arg(c.testOnly)
                     .arg(c.referenceOnly)
                     .arg(c.differentLabel);
  for (const std::string& note : r->evaluation.notes) {
    text += QStringLiteral("<br>") + QString::fromStdString(note).toHtmlEscaped();
  }
  summary_->setText(text);
  updatePlot();
}

void CompareDock::updatePlot() {
  const int view = view_->currentIndex();
  chart_->setValues(compare_->viewSliceDice(view), tr("%1 slice").arg(view_->currentText()));
  updateWorstText();
}

void CompareDock::updateWorstText() {
  auto* view = compare_->followedSliceView();
  if (!compare_->result() || !view) {
    return;
  }
  const int slice = view->sliceIndex();
  chart_->setCurrentSlice(slice);
  const std::vector<double> dice = compare_->viewSliceDice(view_->currentIndex());
  const std::vector<int> order = compare_->worstOrder();
  const auto it = std::find(order.begin(), order.end(), slice);
  if (slice < 0 || slice >= static_cast<int>(dice.size()) || it == order.end()) {
    worst_->setText(tr("Slice %1: neither map has the label here (%2 slices have it).")
                        .arg(slice + 1)
                        .arg(order.size()));
    return;
  }
  worst_->setText(tr("Slice %1: Dice %2 — %3 of %4, worst first.")
                      .arg(slice + 1)
                      .arg(dice[std::size_t(slice)], 0, 'f', 3)
                      .arg(it - order.begin() + 1)
                      .arg(order.size()));
}

bool CompareDock::exportTable(const QString& path, QString* error) {
  try {
    compare_->exportTableCsv(path.toStdString());
    return true;
  } catch (const std::exception& e) {
    const QString message = tr("Could not export the table to %1: %2").arg(path, e.what());
    if (error) {
      *error = message;
    }
    showError(message);
    return false;
  }
}

bool CompareDock::exportPlot(const QString& path, QString* error) {
  if (chart_->savePng(path)) {
    return true;
  }
  const QString message = tr("Could not write the plot to %1.").arg(path);
  if (error) {
    *error = message;
  }
  showError(message);
  return false;
}

void CompareDock::chooseTableFile() {
  if (!interactive_) {
    return;
  }
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export metrics table"), QStringLiteral("comparison.csv"), tr("CSV files (*.csv)"));
  if (!path.isEmpty()) {
    exportTable(path);
  }
}

void CompareDock::choosePlotFile() {
  if (!interactive_) {
    return;
  }
  const QString path = QFileDialog::getSaveFileName(
      this, tr("Export Dice plot"), QStringLiteral("slice-dice.png"), tr("PNG images (*.png)"));
  if (!path.isEmpty()) {
    exportPlot(path);
  }
}

}  // namespace delineate::app
