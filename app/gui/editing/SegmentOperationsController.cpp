#include "app/gui/editing/SegmentOperationsController.h"

#include <QAction>
#include <QApplication>
#include <QInputDialog>
#include <QMenu>
#include <memory>

#include "annotation/ops/SegmentOperations.h"
#include "annotation/tools/RegionGrowTool.h"
#include "app/gui/CommandRegistry.h"
#include "app/gui/editing/EditJobs.h"
#include "app/gui/editing/EditSession.h"

namespace delineate::app {

namespace {

struct OpCommand {
  SegmentOp op;
  const char* id;
  const char* text;
  bool separatorBefore;
};

constexpr OpCommand kOps[] = {
    {SegmentOp::KeepLargestIsland, "segment.keepLargestIsland", "Keep largest island", false},
    {SegmentOp::RemoveSmallIslands, "segment.removeSmallIslands", "Remove small islands…", false},
    {SegmentOp::SmoothMedian, "segment.smoothMedian", "Median smoothing…", true},
    {SegmentOp::SmoothOpening, "segment.smoothOpening", "Opening (remove thin parts)…", false},
    {SegmentOp::SmoothClosing, "segment.smoothClosing", "Closing (fill holes)…", false},
    {SegmentOp::Grow, "segment.grow", "Grow by margin…", true},
    {SegmentOp::Shrink, "segment.shrink", "Shrink by margin…", false},
    {SegmentOp::Union, "segment.union", "Add another segment…", true},
    {SegmentOp::Intersect, "segment.intersect", "Intersect with a segment…", false},
    {SegmentOp::Subtract, "segment.subtract", "Subtract a segment…", false},
    {SegmentOp::Xor, "segment.xor", "Exclusive-or with a segment…", false},
    {SegmentOp::FillBetweenSlices, "segment.fillBetweenSlices", "Fill between slices", true},
};

bool isLogical(SegmentOp op) {
  return op == SegmentOp::Union || op == SegmentOp::Intersect || op == SegmentOp::Subtract ||
         op == SegmentOp::Xor;
}

annotation::LogicalOp logicalOf(SegmentOp op) {
  switch (op) {
    case SegmentOp::Intersect:
      return annotation::LogicalOp::Intersect;
    case SegmentOp::Subtract:
      return annotation::LogicalOp::Subtract;
    case SegmentOp::Xor:
      return annotation::LogicalOp::Xor;
    default:
      return annotation::LogicalOp::Union;
  }
}

QString textOf(SegmentOp op) {
  for (const OpCommand& c : kOps) {
    if (c.op == op) {
      return QString::fromUtf8(c.text).remove(QStringLiteral("…"));
    }
  }
  return QStringLiteral("Operation");
}

annotation::BoxMask compute(const core::LabelMap& map, std::uint16_t label, SegmentOp op,
                            const SegmentOpParams& p, core::ProgressSink& progress) {
  using annotation::SmoothingKind;
  switch (op) {
    case SegmentOp::KeepLargestIsland:
      return annotation::computeKeepLargestIsland(map, label, progress);
    case SegmentOp::RemoveSmallIslands:
      return annotation::computeRemoveSmallIslands(map, label, p.minVoxels, progress);
    case SegmentOp::SmoothMedian:
      return annotation::computeSmoothing(map, label, SmoothingKind::Median, p.radiusMm, progress);
    case SegmentOp::SmoothOpening:
      return annotation::computeSmoothing(map, label, SmoothingKind::Opening, p.radiusMm, progress);
    case SegmentOp::SmoothClosing:
      return annotation::computeSmoothing(map, label, SmoothingKind::Closing, p.radiusMm, progress);
    case SegmentOp::Grow:
      return annotation::computeMargin(map, label, p.marginMm, progress);
    case SegmentOp::Shrink:
      return annotation::computeMargin(map, label, -p.marginMm, progress);
    case SegmentOp::FillBetweenSlices:
      return annotation::computeFillBetweenSlices(map, label, p.axis, progress);
    default:
      return annotation::computeLogical(map, label, p.other, logicalOf(op), progress);
  }
}

}  // namespace

SegmentOperationsController::SegmentOperationsController(EditSession* session, EditJobs* jobs,
                                                         CommandRegistry* commands,
                                                         bool interactive, QObject* parent)
    : QObject(parent),
      session_(session),
      jobs_(jobs),
      commands_(commands),
      interactive_(interactive) {
  for (const OpCommand& c : kOps) {
    QAction* a = commands_->add(QString::fromLatin1(c.id), tr(c.text));
    const SegmentOp op = c.op;
    connect(a, &QAction::triggered, this, [this, op] { trigger(op); });
  }
}

void SegmentOperationsController::populateMenu(QMenu* menu) const {
  for (const OpCommand& c : kOps) {
    if (c.separatorBefore) {
      menu->addSeparator();
    }
    menu->addAction(commands_->action(QString::fromLatin1(c.id)));
  }
}

void SegmentOperationsController::trigger(SegmentOp op) {
  if (const auto& image = session_->image(); op == SegmentOp::FillBetweenSlices && image) {
    // Slices are usually drawn in the axial view: the index axis closest to superior.
    params_.axis = annotation::nearestIndexAxis(image->geometry(), {0, 0, 1});
  }
  if (session_->refuseEdit() || !askParams(op)) {
    return;
  }
  run(op, params_);
}

bool SegmentOperationsController::askParams(SegmentOp op) {
  if (!interactive_) {
    return true;
  }
  QWidget* parent = QApplication::activeWindow();
  bool ok = true;
  switch (op) {
    case SegmentOp::RemoveSmallIslands:
      params_.minVoxels = static_cast<std::size_t>(QInputDialog::getInt(
          parent, tr("Remove small islands"), tr("Keep islands of at least (voxels):"),
          static_cast<int>(params_.minVoxels), 1, 100000000, 10, &ok));
      break;
    case SegmentOp::SmoothMedian:
    case SegmentOp::SmoothOpening:
    case SegmentOp::SmoothClosing:
      params_.radiusMm = QInputDialog::getDouble(parent, textOf(op), tr("Kernel radius (mm):"),
                                                 params_.radiusMm, 0.1, 50, 1, &ok);
      break;
    case SegmentOp::Grow:
    case SegmentOp::Shrink:
      params_.marginMm = QInputDialog::getDouble(parent, textOf(op), tr("Margin (mm):"),
                                                 params_.marginMm, 0.1, 100, 1, &ok);
      break;
    default:
      if (isLogical(op)) {
        const auto map = session_->activeMap();
        if (!map) {
          return false;
        }
        QStringList names;
        std::vector<std::uint16_t> labels;
        for (const core::Segment& s : map->segments()) {
          if (s.label != session_->activeLabel()) {
            names << QString::fromStdString(s.name);
            labels.push_back(s.label);
          }
        }
        const QString chosen =
            QInputDialog::getItem(parent, textOf(op), tr("Other segment:"), names, 0, false, &ok);
        if (ok && names.contains(chosen)) {
          params_.other = labels[static_cast<std::size_t>(names.indexOf(chosen))];
        }
      }
      break;
  }
  return ok;
}

bool SegmentOperationsController::run(SegmentOp op, const SegmentOpParams& params) {
  const auto map = session_->activeMap();
  const std::uint16_t label = session_->activeLabel();
  if (!map || map->segment(label) == nullptr) {
    Q_EMIT session_->statusMessage(tr("Select a segment first"));
    return false;
  }
  if (isLogical(op) && (map->segment(params.other) == nullptr || params.other == label)) {
    Q_EMIT session_->statusMessage(tr("Choose another segment of the same label map"));
    return false;
  }
  std::shared_ptr<const core::LabelMap> source = map;
  EditSession* session = session_;
  const QString text = textOf(op);
  const core::PaintPolicy policy = session_->context().policy;
  return jobs_->run<core::VoxelDelta>(
      text,
      [source, label, op, params, policy](core::ProgressSink& progress) {
        const annotation::BoxMask result = compute(*source, label, op, params, progress);
        progress.throwIfCancelled();
        return annotation::planSegmentResult(*source, label, result, policy);
      },
      [session, source, text](core::VoxelDelta delta) {
        if (session->activeMap() != source) {
          return;  // the user switched label maps meanwhile
        }
        const std::size_t changed =
            annotation::landSegmentResult(session->context(), std::move(delta), text.toStdString());
        session->flush();
        Q_EMIT session->statusMessage(tr("%1: %2 voxels changed").arg(text).arg(changed));
      });
}

}  // namespace delineate::app
