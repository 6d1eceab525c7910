#include "viewers/mammo/MammoReadingView.h"

#include <QGridLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QVBoxLayout>
#include <cmath>

#include "viewers/mammo/MammoViewport.h"

namespace delineate::viewers {

MammoReadingView::MammoReadingView(QWidget* parent)
    : QWidget(parent), state_(new MammoReadingState(this)) {
  auto* column = new QVBoxLayout(this);
  column->setContentsMargins(0, 0, 0, 0);
  column->setSpacing(0);
  banner_ = new QLabel(this);
  banner_->setObjectName(QStringLiteral("mammoNotes"));
  banner_->setWordWrap(true);
  banner_->setStyleSheet(
      QStringLiteral("QLabel { background: #4a3b10; color: #ffe9a8; padding: 4px 8px; }"));
  banner_->hide();
  column->addWidget(banner_);
  auto* gridHost = new QWidget(this);
  gridHost->setStyleSheet(QStringLiteral("background: black;"));
  grid_ = new QGridLayout(gridHost);
  grid_->setContentsMargins(0, 0, 0, 0);
  grid_->setSpacing(2);
  column->addWidget(gridHost, 1);
  findings_ = new QLabel(this);
  findings_->setObjectName(QStringLiteral("mammoFindings"));
  findings_->setWordWrap(true);
  findings_->setStyleSheet(
      QStringLiteral("QLabel { background: #102a3a; color: #cfe8ff; padding: 4px 8px; }"));
  findings_->hide();
  column->addWidget(findings_);
  setFocusPolicy(Qt::StrongFocus);
}

void MammoReadingView::setGrid(int rows, int columns,
                               const std::vector<core::mammo::ChestWall>& walls) {
  const std::size_t count = static_cast<std::size_t>(rows * columns);
  while (viewports_.size() > count) {
    delete viewports_.back();
    viewports_.pop_back();
  }
  while (viewports_.size() < count) {
    auto* v = new MammoViewport(state_, this);
    v->setFocusProxy(this);  // keys go to the reading view wherever one clicks
    connect(v, &MammoViewport::pointerMoved, this, &MammoReadingView::pointerMoved);
    connect(v, &MammoViewport::frameStepped, this, [this, v] { followStack(v); });
    viewports_.push_back(v);
  }
  for (std::size_t i = 0; i < count; ++i) {
    grid_->removeWidget(viewports_[i]);
  }
  for (std::size_t i = 0; i < count; ++i) {
    grid_->addWidget(viewports_[i], static_cast<int>(i) / columns, static_cast<int>(i) % columns);
    viewports_[i]->setWantedWall(i < walls.size() ? walls[i] : core::mammo::ChestWall::Left);
    viewports_[i]->setImage(std::nullopt);
  }
  for (int r = 0; r < 8; ++r) {
    grid_->setRowStretch(r, r < rows ? 1 : 0);
  }
  for (int c = 0; c < 8; ++c) {
    grid_->setColumnStretch(c, c < columns ? 1 : 0);
  }
  rows_ = rows;
  columns_ = columns;
}

void MammoReadingView::setNotes(const QStringList& notes) {
  notes_ = notes;
  banner_->setText(notes.join(QStringLiteral("  ·  ")));
  banner_->setVisible(!notes.isEmpty());
}

void MammoReadingView::setFindingsText(const QString& text) {
  findings_->setText(text);
  findings_->setVisible(!text.isEmpty());
}

QString MammoReadingView::findingsText() const {
  return findings_->text();
}

void MammoReadingView::zoomOneToOne() {
  for (MammoViewport* v : viewports_) {
    if (v->image()) {
      core::mammo::LinkedZoom z = state_->zoom();
      z.pixelsPerMm = 1.0 / v->image()->placed.spacing;
      state_->setZoom(z);
      return;
    }
  }
}

namespace {

bool isReadingKey(const QKeyEvent* event) {
  const auto mods = event->modifiers() & ~(Qt::KeypadModifier | Qt::ShiftModifier);
  if (mods != Qt::NoModifier) {
    return false;
  }
  switch (event->key()) {
    case Qt::Key_F:
    case Qt::Key_1:
    case Qt::Key_I:
    case Qt::Key_P:
    case Qt::Key_Escape:
    case Qt::Key_W:
    case Qt::Key_M:
    case Qt::Key_R:
    case Qt::Key_E:
    case Qt::Key_N:
    case Qt::Key_Delete:
    case Qt::Key_Backspace:
    case Qt::Key_PageDown:
    case Qt::Key_PageUp:
    case Qt::Key_Space:
      return true;
    default:
      return false;
  }
}

}  // namespace

bool MammoReadingView::event(QEvent* event) {
  if (event->type() == QEvent::ShortcutOverride && isReadingKey(static_cast<QKeyEvent*>(event))) {
    event->accept();
    return true;
  }
  return QWidget::event(event);
}

void MammoReadingView::keyPressEvent(QKeyEvent* event) {
  if (!isReadingKey(event)) {
    QWidget::keyPressEvent(event);
    return;
  }
  const bool shift = event->modifiers().testFlag(Qt::ShiftModifier);
  switch (event->key()) {
    case Qt::Key_PageDown:
      Q_EMIT layoutStepRequested(1);
      break;
    case Qt::Key_PageUp:
      Q_EMIT layoutStepRequested(-1);
      break;
    case Qt::Key_Space:
      Q_EMIT layoutStepRequested(shift ? -1 : 1);
      break;
    case Qt::Key_N:
      Q_EMIT markStepRequested(shift ? -1 : 1);
      break;
    case Qt::Key_F:
      state_->fit();
      break;
    case Qt::Key_1:
      zoomOneToOne();
      break;
    case Qt::Key_I:
      state_->setInverted(!state_->inverted());
      break;
    case Qt::Key_P:
    case Qt::Key_Escape:
      state_->setTool(MammoTool::Pan);
      break;
    case Qt::Key_W:
      state_->setTool(MammoTool::WindowLevel);
      break;
    case Qt::Key_M:
      state_->setTool(MammoTool::Magnifier);
      break;
    case Qt::Key_R:
      state_->setTool(MammoTool::Ruler);
      break;
    case Qt::Key_E:
      state_->setTool(MammoTool::Ellipse);
      break;
    case Qt::Key_Delete:
    case Qt::Key_Backspace:
      for (MammoViewport* v : viewports_) {
        if (v->underMouse()) {
          v->removeLastMeasurement();
        }
      }
      break;
    default:
      break;
  }
  event->accept();
}

void MammoReadingView::followStack(const MammoViewport* source) {
  if (!state_->stacksLinked() || !source->image() || source->frameCount() < 2) {
    return;
  }
  const auto side = source->image()->laterality;
  const double depth = double(source->frame()) / double(source->frameCount() - 1);
  for (MammoViewport* other : viewports_) {
    if (other != source && other->image() && other->frameCount() > 1 &&
        other->image()->laterality == side && side != core::mammo::Laterality::Unknown) {
      other->setFrame(static_cast<int>(std::lround(depth * (other->frameCount() - 1))));
    }
  }
}

}  // namespace delineate::viewers
