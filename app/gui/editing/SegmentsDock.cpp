#include "app/gui/editing/SegmentsDock.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QColorDialog>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIcon>
#include <QInputDialog>
#include <QLabel>
#include <QPixmap>
#include <QSignalBlocker>
#include <QSlider>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <cmath>

#include "annotation/ops/BoxMask.h"
#include "app/gui/editing/EditJobs.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/SegmentMeasurer.h"
#include "core/edit/LabelMapEdit.h"

namespace delineate::app {

namespace {

QToolButton* button(const QString& text, const char* name, const QString& tip, QWidget* parent) {
  auto* b = new QToolButton(parent);
  b->setText(text);
  b->setObjectName(QString::fromLatin1(name));
  b->setToolTip(tip);
  return b;
}

QSlider* percentSlider(const char* name, int value, QWidget* parent) {
  auto* s = new QSlider(Qt::Horizontal, parent);
  s->setObjectName(QString::fromLatin1(name));
  s->setRange(0, 100);
  s->setValue(value);
  return s;
}

}  // namespace

SegmentsDock::SegmentsDock(EditSession* session, EditJobs* jobs, SegmentMeasurer* measurer,
                           bool interactive, QWidget* parent)
    : QWidget(parent),
      session_(session),
      jobs_(jobs),
      measurer_(measurer),
      interactive_(interactive) {
  maps_ = new QComboBox(this);
  maps_->setObjectName(QStringLiteral("labelMapCombo"));
  maps_->setToolTip(tr("The label map being edited"));

  table_ = new QTableWidget(0, ColumnCount, this);
  table_->setObjectName(QStringLiteral("segmentTable"));
  table_->setHorizontalHeaderLabels({QString(), tr("Name"), tr("Show"), tr("Lock"), tr("Voxels"),
                                     tr("Volume (ml)"), tr("Mean ± SD"), tr("Diameter (mm)")});
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setSectionResizeMode(Name, QHeaderView::Interactive);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setColumnWidth(Name, 110);
  table_->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);

  auto* add = button(tr("Add"), "addSegment", tr("Add a segment"), this);
  auto* del = button(tr("Delete"), "deleteSegment", tr("Delete the segment and its voxels"), this);
  auto* merge = button(tr("Merge…"), "mergeSegments",
                       tr("Merge another segment into the selected one"), this);
  auto* up = button(tr("▲"), "moveSegmentUp", tr("Move up"), this);
  auto* down = button(tr("▼"), "moveSegmentDown", tr("Move down"), this);
  auto* copy = button(tr("Copy"), "copyTable", tr("Copy the table with measurements (TSV)"), this);
  auto* buttons = new QGridLayout;  // two short rows: the dock stays narrow
  int n = 0;
  for (QToolButton* b : {add, del, merge, up, down, copy}) {
    b->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    buttons->addWidget(b, n / 3, n % 3);
    ++n;
  }

  opacity_ = percentSlider("labelOpacity", 100, this);
  segmentOpacity_ = percentSlider("segmentOpacity", 100, this);
  fill_ = new QCheckBox(tr("Fill"), this);
  fill_->setChecked(true);
  outline_ = new QCheckBox(tr("Outline"), this);
  outline_->setChecked(true);
  auto* drawn = new QHBoxLayout;
  drawn->addWidget(fill_);
  drawn->addWidget(outline_);
  drawn->addStretch(1);

  paintOver_ = new QComboBox(this);
  paintOver_->setObjectName(QStringLiteral("paintOver"));
  paintOver_->addItems({tr("Overwrite all"), tr("Only empty voxels"), tr("Only inside segment")});
  inside_ = new QComboBox(this);
  inside_->setObjectName(QStringLiteral("insideSegment"));
  inside_->setEnabled(false);
  auto* policy = new QVBoxLayout;
  policy->addWidget(paintOver_);
  policy->addWidget(inside_);

  auto* form = new QFormLayout;
  form->addRow(tr("Opacity"), opacity_);
  form->addRow(tr("Segment opacity"), segmentOpacity_);
  form->addRow(tr("Draw"), drawn);
  form->addRow(tr("Paint over"), policy);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(maps_);
  layout->addWidget(table_, 1);
  layout->addLayout(buttons);
  layout->addLayout(form);

  connect(add, &QToolButton::clicked, this, &SegmentsDock::addSegment);
  connect(del, &QToolButton::clicked, this,
          [this] { deleteSegment(labelAt(table_->currentRow())); });
  connect(merge, &QToolButton::clicked, this, &SegmentsDock::mergeSelected);
  connect(up, &QToolButton::clicked, this, [this] { moveSelected(-1); });
  connect(down, &QToolButton::clicked, this, [this] { moveSelected(1); });
  connect(copy, &QToolButton::clicked, this, &SegmentsDock::copyTable);
  connect(table_, &QTableWidget::itemChanged, this, &SegmentsDock::onItemChanged);
  connect(table_, &QTableWidget::itemSelectionChanged, this, &SegmentsDock::onSelectionChanged);
  connect(table_, &QTableWidget::cellDoubleClicked, this, [this](int row, int column) {
    if (column == Color) {
      chooseColor(labelAt(row));
    }
  });
  connect(maps_, &QComboBox::activated, this, [this](int index) {
    if (!session_->refuseEdit()) {
      session_->setActiveLabelMap(index);
    } else {
      rebuild();
    }
  });
  for (QSlider* s : {opacity_, segmentOpacity_}) {
    connect(s, &QSlider::valueChanged, this, &SegmentsDock::applyDisplay);
  }
  for (QCheckBox* c : {fill_, outline_}) {
    connect(c, &QCheckBox::toggled, this, &SegmentsDock::applyDisplay);
  }
  connect(paintOver_, &QComboBox::currentIndexChanged, this, &SegmentsDock::applyPolicy);
  connect(inside_, &QComboBox::currentIndexChanged, this, &SegmentsDock::applyPolicy);

  connect(session_, &EditSession::segmentsChanged, this, &SegmentsDock::rebuild);
  connect(session_, &EditSession::labelMapsChanged, this, &SegmentsDock::rebuild);
  connect(session_, &EditSession::activeSegmentChanged, this, &SegmentsDock::selectActive);
  connect(measurer_, &SegmentMeasurer::measured, this, &SegmentsDock::updateMeasurements);
  rebuild();
}

int SegmentsDock::rowOf(std::uint16_t label) const {
  for (int r = 0; r < table_->rowCount(); ++r) {
    if (labelAt(r) == label) {
      return r;
    }
  }
  return -1;
}

std::uint16_t SegmentsDock::labelAt(int row) const {
  const QTableWidgetItem* item = row >= 0 ? table_->item(row, Name) : nullptr;
  return item != nullptr ? static_cast<std::uint16_t>(item->data(Qt::UserRole).toUInt()) : 0;
}

void SegmentsDock::rebuild() {
  rebuilding_ = true;
  const QSignalBlocker blockTable(table_);
  const QSignalBlocker blockMaps(maps_);
  const QSignalBlocker blockInside(inside_);
  maps_->clear();
  for (const auto& m : session_->document().labelMaps()) {
    maps_->addItem(QString::fromStdString(m->name()));
  }
  maps_->setCurrentIndex(session_->activeMapIndex());
  const std::uint16_t insideLabel = session_->policy().insideLabel;
  inside_->clear();
  table_->setRowCount(0);
  const auto map = session_->activeMap();
  if (map) {
    table_->setRowCount(static_cast<int>(map->segments().size()));
    int row = 0;
    for (const core::Segment& s : map->segments()) {
      const QColor color(s.color[0], s.color[1], s.color[2]);
      QPixmap chip(14, 14);  // an icon, so that the row's selection does not hide it
      chip.fill(color);
      auto* swatch = new QTableWidgetItem(QIcon(chip), QString());
      swatch->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
      swatch->setToolTip(tr("Double-click to choose a colour"));
      auto* name = new QTableWidgetItem(QString::fromStdString(s.name));
      name->setData(Qt::UserRole, s.label);
      name->setToolTip(tr("Label value %1").arg(s.label));
      auto check = [](bool on) {
        auto* item = new QTableWidgetItem;
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable | Qt::ItemIsUserCheckable);
        item->setCheckState(on ? Qt::Checked : Qt::Unchecked);
        return item;
      };
      table_->setItem(row, Color, swatch);
      table_->setItem(row, Name, name);
      table_->setItem(row, Visible, check(s.visible));
      table_->setItem(row, Locked, check(s.locked));
      for (int c = Voxels; c < ColumnCount; ++c) {
        auto* item = new QTableWidgetItem;
        item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        table_->setItem(row, c, item);
      }
      inside_->addItem(QString::fromStdString(s.name), s.label);
      ++row;
    }
  }
  const int insideIndex = inside_->findData(insideLabel);
  inside_->setCurrentIndex(insideIndex >= 0 ? insideIndex : 0);
  rebuilding_ = false;
  selectActive();
  updateMeasurements();
}

void SegmentsDock::updateMeasurements() {
  const QSignalBlocker block(table_);
  for (const core::SegmentMeasurement& m : measurer_->results()) {
    const int row = rowOf(m.label);
    if (row < 0) {
      continue;
    }
    table_->item(row, Voxels)->setText(QString::number(m.voxels));
    table_->item(row, Volume)->setText(QString::number(m.volumeMl, 'f', 2));
    table_->item(row, Mean)->setText(
        m.voxels > 0 ? QStringLiteral("%1 ± %2").arg(m.mean, 0, 'f', 1).arg(m.sd, 0, 'f', 1)
                     : QString());
    table_->item(row, Diameter)->setText(QString::number(m.largestDiameterMm, 'f', 1));
  }
}

void SegmentsDock::selectActive() {
  const int row = rowOf(session_->activeLabel());
  if (row >= 0 && row != table_->currentRow()) {
    const QSignalBlocker block(table_);
    table_->selectRow(row);
    table_->setCurrentCell(row, Name);
  }
  const auto map = session_->activeMap();
  const QSignalBlocker block(segmentOpacity_);
  segmentOpacity_->setValue(
      map ? static_cast<int>(std::lround(
                100 * session_->display()->segmentOpacity(*map, session_->activeLabel())))
          : 100);
}

void SegmentsDock::onSelectionChanged() {
  if (!rebuilding_) {
    session_->setActiveLabel(labelAt(table_->currentRow()));
    selectActive();
  }
}

void SegmentsDock::onItemChanged(QTableWidgetItem* item) {
  if (rebuilding_) {
    return;
  }
  const std::uint16_t label = labelAt(item->row());
  switch (item->column()) {
    case Name:
      if (!session_->renameSegment(label, item->text().trimmed())) {
        rebuild();
      }
      break;
    case Visible:
      session_->setSegmentVisible(label, item->checkState() == Qt::Checked);
      break;
    case Locked:
      session_->setSegmentLocked(label, item->checkState() == Qt::Checked);
      break;
    default:
      break;
  }
}

std::uint16_t SegmentsDock::addSegment() {
  return session_->addSegment();
}

bool SegmentsDock::deleteSegment(std::uint16_t label) {
  const auto map = session_->activeMap();
  if (!map || map->segment(label) == nullptr) {
    return false;
  }
  std::shared_ptr<const core::LabelMap> source = map;
  EditSession* session = session_;
  return jobs_->run<core::VoxelDelta>(
      tr("Deleting a segment"),
      [source, label](core::ProgressSink& progress) {
        progress.throwIfCancelled();
        const annotation::BoxMask voxels = annotation::extractSegment(*source, label);
        progress.throwIfCancelled();
        core::LabelMapEdit edit = core::LabelMapEdit::staged(*source);
        annotation::applyPaint(edit, voxels, 0);
        return edit.commit();
      },
      [session, label](core::VoxelDelta cleared) {
        session->deleteSegment(label, std::move(cleared));
      });
}

bool SegmentsDock::mergeSegments(std::uint16_t into, std::uint16_t from) {
  const auto map = session_->activeMap();
  if (!map || into == from || map->segment(into) == nullptr || map->segment(from) == nullptr) {
    return false;
  }
  std::shared_ptr<const core::LabelMap> source = map;
  EditSession* session = session_;
  return jobs_->run<core::VoxelDelta>(
      tr("Merging segments"),
      [source, into, from](core::ProgressSink& progress) {
        progress.throwIfCancelled();
        const annotation::BoxMask voxels = annotation::extractSegment(*source, from);
        progress.throwIfCancelled();
        core::LabelMapEdit edit = core::LabelMapEdit::staged(*source);
        annotation::applyPaint(edit, voxels, into);
        return edit.commit();
      },
      [session, into, from](core::VoxelDelta moved) {
        session->mergeSegments(into, from, std::move(moved));
      });
}

void SegmentsDock::mergeSelected() {
  const auto map = session_->activeMap();
  const std::uint16_t into = labelAt(table_->currentRow());
  if (!map || into == 0 || !interactive_) {
    return;
  }
  QStringList names;
  std::vector<std::uint16_t> labels;
  for (const core::Segment& s : map->segments()) {
    if (s.label != into) {
      names << QString::fromStdString(s.name);
      labels.push_back(s.label);
    }
  }
  bool ok = false;
  const QString chosen = QInputDialog::getItem(
      this, tr("Merge segments"),
      tr("Merge into \"%1\":").arg(QString::fromStdString(map->segment(into)->name)), names, 0,
      false, &ok);
  if (ok && names.contains(chosen)) {
    mergeSegments(into, labels[static_cast<std::size_t>(names.indexOf(chosen))]);
  }
}

void SegmentsDock::moveSelected(int delta) {
  session_->moveSegment(labelAt(table_->currentRow()), delta);
}

void SegmentsDock::chooseColor(std::uint16_t label) {
  const auto map = session_->activeMap();
  const core::Segment* s = map ? map->segment(label) : nullptr;
  if (s == nullptr || !interactive_) {
    return;
  }
  const QColor c = QColorDialog::getColor(QColor(s->color[0], s->color[1], s->color[2]), this,
                                          tr("Colour of %1").arg(QString::fromStdString(s->name)));
  if (c.isValid()) {
    session_->recolorSegment(
        label, {static_cast<std::uint8_t>(c.red()), static_cast<std::uint8_t>(c.green()),
                static_cast<std::uint8_t>(c.blue())});
  }
}

QString SegmentsDock::tableText() const {
  return QString::fromStdString(core::measurementsToTsv(measurer_->results()));
}

void SegmentsDock::copyTable() {
  QApplication::clipboard()->setText(tableText());
  Q_EMIT session_->statusMessage(tr("Segment table copied"));
}

void SegmentsDock::applyPolicy() {
  core::PaintPolicy p;
  p.mode = static_cast<core::OverwriteMode>(paintOver_->currentIndex());
  p.insideLabel = static_cast<std::uint16_t>(inside_->currentData().toUInt());
  inside_->setEnabled(p.mode == core::OverwriteMode::InsideSegment);
  session_->setPolicy(p);
}

void SegmentsDock::applyDisplay() {
  viewers::LabelDisplaySettings d = session_->display()->settings();
  d.opacity = opacity_->value() / 100.0;
  d.showFill = fill_->isChecked();
  d.showOutline = outline_->isChecked();
  session_->display()->setSettings(d);
  if (const auto map = session_->activeMap()) {
    const double segment = segmentOpacity_->value() / 100.0;
    if (std::abs(segment - session_->display()->segmentOpacity(*map, session_->activeLabel())) >
        1e-9) {
      session_->display()->setSegmentOpacity(*map, session_->activeLabel(), segment);
    }
  }
}

}  // namespace delineate::app
