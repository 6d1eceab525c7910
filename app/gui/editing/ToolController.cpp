#include "app/gui/editing/ToolController.h"

#include <QAction>
#include <QActionGroup>
#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QToolBar>

#include "annotation/tools/BrushTool.h"
#include "annotation/tools/LassoTool.h"
#include "annotation/tools/RegionGrowTool.h"
#include "app/gui/CommandRegistry.h"
#include "app/gui/editing/EditJobs.h"
#include "app/gui/editing/EditSession.h"
#include "viewers/SliceGeometry.h"
#include "viewers/ToolEventRouter.h"
#include "viewers/ViewLayout.h"

namespace delineate::app {

namespace {

struct ToolCommand {
  const char* id;
  const char* text;
  const char* shortcut;
  const char* tip;
};

// Single keys as in ITK-SNAP and 3D Slicer's segment editor habits (see docs/annotating.md).
constexpr ToolCommand kTools[] = {
    {"tool.navigate", "Navigate", "C", "Move the cursor, window/level, zoom and pan (C)"},
    {"tool.brush", "Brush", "B", "Paint the active segment (B); [ ] or Ctrl+wheel: size"},
    {"tool.eraser", "Eraser", "E", "Erase (E); [ ] or Ctrl+wheel: size"},
    {"tool.regionGrow", "Region grow", "G",
     "Click grows the active segment over similar values in the slice; Shift+click in 3D (G)"},
    {"tool.lasso", "Lasso", "L", "Draw an outline to fill it with the active segment (L)"},
    {"tool.scissors", "Scissors", "X",
     "Draw an outline to cut the active segment inside it, through all slices (X)"},
};

}  // namespace

ToolController::ToolController(EditSession* session, EditJobs* jobs, CommandRegistry* commands,
                               viewers::ViewLayout* views, QObject* parent)
    : QObject(parent),
      session_(session),
      jobs_(jobs),
      commands_(commands),
      router_(new viewers::ToolEventRouter(this)) {
  annotation::EditContext& context = session_->context();
  brush_ = std::make_unique<annotation::BrushTool>(context);
  eraser_ = std::make_unique<annotation::BrushTool>(context, true);
  grow_ = std::make_unique<annotation::RegionGrowTool>(context);
  lasso_ = std::make_unique<annotation::LassoTool>(context, annotation::LassoMode::Fill);
  scissors_ = std::make_unique<annotation::LassoTool>(context, annotation::LassoMode::EraseInside);
  // An outline through all slices reads the whole segment: worked out by a job, with progress.
  const annotation::LassoTool::Offload offload =
      [this](const std::string& title, std::function<core::VoxelDelta(core::ProgressSink&)> work,
             std::function<void(core::VoxelDelta)> apply) {
        EditSession* session = session_;
        jobs_->run<core::VoxelDelta>(QString::fromStdString(title), std::move(work),
                                     [session, apply](core::VoxelDelta delta) {
                                       apply(std::move(delta));
                                       session->flush();
                                     });
      };
  lasso_->setOffload(offload);
  scissors_->setOffload(offload);
  // A fill in 3D can take the whole image: a job too.
  grow_->setOffload([this](const std::string& title,
                           std::function<annotation::BoxMask(core::ProgressSink&)> work,
                           std::function<void(annotation::BoxMask)> apply) {
    EditSession* session = session_;
    jobs_->run<annotation::BoxMask>(QString::fromStdString(title), std::move(work),
                                    [session, apply](annotation::BoxMask mask) {
                                      apply(std::move(mask));
                                      session->flush();
                                    });
  });

  // Every tool by the command id it declares (Tool::id): choosing one is a lookup, not code.
  for (annotation::Tool* t : std::initializer_list<annotation::Tool*>{
           brush_.get(), eraser_.get(), grow_.get(), lasso_.get(), scissors_.get()}) {
    tools_[QString::fromStdString(t->id())] = t;
  }
  views->setToolRouter(router_);
  router_->setEditGate([this](const annotation::PointerEvent&) { return allowPress(); });
  connect(router_, &viewers::ToolEventRouter::toolUsed, session_, &EditSession::flush);
  connect(router_, &viewers::ToolEventRouter::pickRequested, this, &ToolController::pick);
  connect(router_, &viewers::ToolEventRouter::brushScaleRequested, this,
          [this](double f) { setBrushRadiusMm(brushRadiusMm() * f); });

  group_ = new QActionGroup(this);
  for (const ToolCommand& t : kTools) {
    QAction* a = commands_->add(QString::fromLatin1(t.id), tr(t.text),
                                QKeySequence(QString::fromLatin1(t.shortcut)));
    a->setCheckable(true);
    a->setToolTip(tr(t.tip));
    group_->addAction(a);
    const QString id = QString::fromLatin1(t.id);
    connect(a, &QAction::triggered, this, [this, id] { setTool(id); });
  }
  commands_->action("tool.navigate")->setChecked(true);
  connect(
      // [ ] as in many paint programs; - + as in 3D Slicer and ITK-SNAP.
      commands_->add(
          "tool.brushSmaller", tr("Smaller brush"),
          QList<QKeySequence>{QKeySequence(Qt::Key_BracketLeft), QKeySequence(Qt::Key_Minus)}),
      &QAction::triggered, this, [this] { setBrushRadiusMm(brushRadiusMm() / 1.2); });
  connect(
      commands_->add("tool.brushLarger", tr("Larger brush"),
                     QList<QKeySequence>{QKeySequence(Qt::Key_BracketRight),
                                         QKeySequence(Qt::Key_Plus), QKeySequence(Qt::Key_Equal)}),
      &QAction::triggered, this, [this] { setBrushRadiusMm(brushRadiusMm() * 1.2); });
  QAction* sphere = commands_->add("tool.brushSphere", tr("3D brush (ball)"));
  sphere->setCheckable(true);
  connect(sphere, &QAction::toggled, this, &ToolController::setBrushSphere);
}

ToolController::~ToolController() {
  router_->setTool(nullptr);
}

void ToolController::setTool(const QString& id) {
  annotation::Tool* tool = nullptr;  // tool.navigate: none
  if (id != QLatin1String("tool.navigate")) {
    const auto it = tools_.find(id);
    if (it == tools_.end()) {
      return;
    }
    tool = it->second;
  }
  router_->setTool(tool);
  session_->flush();  // a cancelled stroke was rolled back
  if (QAction* a = commands_->action(id)) {
    a->setChecked(true);
  }
}

QAction* ToolController::addTool(const QString& id, const QString& text,
                                 const QKeySequence& shortcut, const QString& tip,
                                 annotation::Tool* tool) {
  QAction* a = commands_->add(id, text, shortcut);
  a->setCheckable(true);
  a->setToolTip(tip);
  group_->addAction(a);
  tools_[id] = tool;
  addedTools_ << id;
  connect(a, &QAction::triggered, this, [this, id] { setTool(id); });
  return a;
}

QString ToolController::toolId() const {
  annotation::Tool* t = router_->tool();
  return t == nullptr ? QStringLiteral("tool.navigate") : QString::fromStdString(t->id());
}

double ToolController::brushRadiusMm() const {
  return brush_->shape().radiusMm;
}

void ToolController::setBrushRadiusMm(double radius) {
  brush_->shape().radiusMm = 1;
  brush_->scaleRadius(radius);  // clamps to the tool's range
  eraser_->shape().radiusMm = brush_->shape().radiusMm;
  if (radius_ != nullptr) {
    const QSignalBlocker block(radius_);
    radius_->setValue(brush_->shape().radiusMm);
  }
  router_->refreshOutline();
}

void ToolController::setBrushSphere(bool sphere) {
  brush_->shape().sphere = sphere;
  eraser_->shape().sphere = sphere;
  if (sphere_ != nullptr) {
    const QSignalBlocker block(sphere_);
    sphere_->setChecked(sphere);
  }
  if (QAction* a = commands_->action("tool.brushSphere"); a && a->isChecked() != sphere) {
    a->setChecked(sphere);
  }
}

QToolBar* ToolController::createToolBar(QWidget* parent) {
  auto* bar = new QToolBar(tr("Tools"), parent);
  bar->setObjectName(QStringLiteral("toolsToolBar"));
  for (const ToolCommand& t : kTools) {
    bar->addAction(commands_->action(QString::fromLatin1(t.id)));
  }
  for (const QString& id : addedTools_) {
    bar->addAction(commands_->action(id));
  }
  bar->addSeparator();
  bar->addWidget(new QLabel(tr(" Brush "), bar));
  radius_ = new QDoubleSpinBox(bar);
  radius_->setObjectName(QStringLiteral("brushRadius"));
  radius_->setRange(0.5, 100);
  radius_->setDecimals(1);
  radius_->setSuffix(tr(" mm"));
  radius_->setToolTip(tr("Brush radius ([ and ], Ctrl+wheel in a view)"));
  radius_->setValue(brushRadiusMm());
  connect(radius_, &QDoubleSpinBox::valueChanged, this, &ToolController::setBrushRadiusMm);
  bar->addWidget(radius_);
  sphere_ = new QCheckBox(tr("3D"), bar);
  sphere_->setObjectName(QStringLiteral("brushSphere"));
  sphere_->setToolTip(tr("Paint a ball instead of a disc in the slice"));
  connect(sphere_, &QCheckBox::toggled, this, &ToolController::setBrushSphere);
  bar->addWidget(sphere_);
  bar->addSeparator();
  rangeEnabled_ = new QCheckBox(tr("Range"), bar);
  rangeEnabled_->setObjectName(QStringLiteral("paintRangeEnabled"));
  rangeEnabled_->setToolTip(tr("Paint only where the image value lies in this range"));
  bar->addWidget(rangeEnabled_);
  rangeMin_ = new QDoubleSpinBox(bar);
  rangeMax_ = new QDoubleSpinBox(bar);
  rangeMin_->setObjectName(QStringLiteral("paintRangeMin"));
  rangeMax_->setObjectName(QStringLiteral("paintRangeMax"));
  for (QDoubleSpinBox* box : {rangeMin_, rangeMax_}) {
    box->setRange(-1e6, 1e6);
    box->setDecimals(0);
    box->setEnabled(false);
    bar->addWidget(box);
    connect(box, &QDoubleSpinBox::valueChanged, this, [this] { applyRangeWidgets(); });
  }
  rangeMin_->setValue(-100);
  rangeMax_->setValue(300);
  connect(rangeEnabled_, &QCheckBox::toggled, this, [this](bool on) {
    rangeMin_->setEnabled(on);
    rangeMax_->setEnabled(on);
    applyRangeWidgets();
  });
  return bar;
}

void ToolController::applyRangeWidgets() {
  if (rangeEnabled_ == nullptr) {
    return;
  }
  if (!rangeEnabled_->isChecked()) {
    session_->context().intensityRange.reset();
    return;
  }
  const double lo = std::min(rangeMin_->value(), rangeMax_->value());
  const double hi = std::max(rangeMin_->value(), rangeMax_->value());
  session_->context().intensityRange = std::pair{lo, hi};
}

void ToolController::setPaintRange(std::optional<std::pair<double, double>> range) {
  if (rangeEnabled_ == nullptr) {
    session_->context().intensityRange = range;
    return;
  }
  if (range) {
    const QSignalBlocker a(rangeMin_), b(rangeMax_);
    rangeMin_->setValue(range->first);
    rangeMax_->setValue(range->second);
  }
  rangeEnabled_->setChecked(range.has_value());
  applyRangeWidgets();
}

bool ToolController::allowPress() {
  if (session_->refuseEdit()) {
    return false;
  }
  auto map = session_->ensureLabelMap();
  if (!map) {
    return false;
  }
  const bool erasing = router_->tool() == eraser_.get() || router_->tool() == scissors_.get();
  const core::Segment* s = map->segment(session_->activeLabel());
  if (!erasing && s != nullptr && s->locked) {
    Q_EMIT session_->statusMessage(
        tr("Segment \"%1\" is locked: unlock it to paint").arg(QString::fromStdString(s->name)));
    return false;
  }
  return true;
}

void ToolController::pick(const core::Vec3& world) {
  auto map = session_->activeMap();
  if (!map || !viewers::containsVoxel(map->geometry(), world)) {
    return;
  }
  const auto v = viewers::nearestVoxel(map->geometry(), world);
  const std::uint16_t label = map->at(std::size_t(v[0]), std::size_t(v[1]), std::size_t(v[2]));
  if (const core::Segment* s = map->segment(label)) {
    session_->setActiveLabel(label);
    Q_EMIT session_->statusMessage(tr("Active segment: %1").arg(QString::fromStdString(s->name)));
  }
}

}  // namespace delineate::app
