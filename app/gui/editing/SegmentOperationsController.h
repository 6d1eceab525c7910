#pragma once
// Whole-segment operations on the active segment (annotation/ops/SegmentOperations.h) as
// segment.* commands: islands, smoothing, margins, logical operators with another segment, fill
// between slices. Each computes in an EditJobs job (progress + Cancel; the label map is busy
// meanwhile) and is applied on the GUI thread as one undo entry under the paint-over policy.
// Interactive windows ask for the parameter; otherwise the last (or default) value is used.
#include <QObject>
#include <QString>
#include <cstddef>
#include <cstdint>

class QMenu;

namespace delineate::app {

class CommandRegistry;
class EditJobs;
class EditSession;

enum class SegmentOp {
  KeepLargestIsland,
  RemoveSmallIslands,
  SmoothMedian,
  SmoothOpening,
  SmoothClosing,
  Grow,
  Shrink,
  Union,
  Intersect,
  Subtract,
  Xor,
  FillBetweenSlices,
};

struct SegmentOpParams {
  std::size_t minVoxels = 100;  // remove small islands
  double radiusMm = 1.0;        // smoothing kernel radius
  double marginMm = 2.0;        // grow / shrink
  std::uint16_t other = 0;      // logical operators: the other segment
  int axis = 2;                 // fill between slices: the index axis across the drawn slices
};

class SegmentOperationsController : public QObject {
  Q_OBJECT

 public:
  SegmentOperationsController(EditSession* session, EditJobs* jobs, CommandRegistry* commands,
                              bool interactive, QObject* parent = nullptr);

  // Fills a "Segment" menu with the commands.
  void populateMenu(QMenu* menu) const;
  // Starts `op` on the active segment; false when refused (busy, no segment).
  bool run(SegmentOp op, const SegmentOpParams& params);
  SegmentOpParams& lastParams() { return params_; }

 private:
  void trigger(SegmentOp op);
  bool askParams(SegmentOp op);

  EditSession* session_;
  EditJobs* jobs_;
  CommandRegistry* commands_;
  bool interactive_;
  SegmentOpParams params_;
};

}  // namespace delineate::app
