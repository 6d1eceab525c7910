#pragma once
// The compare view's logic: two label maps of the open image (any of the session's maps, or the
// AI proposal) compared as reference and test. A background job matches their labels
// (core::evaluatePair), measures every label, builds the agreement map (agreement, test only,
// reference only, different label) and the per-slice Dice along each index axis; the result is
// drawn as an overlay on every slice view (LabelDisplayState::setComparison), as score strips
// beside the slice sliders, and stepped through worst slice first. Widgets: CompareDock.
#include <vtkPolyData.h>
#include <vtkSmartPointer.h>

#include <QObject>
#include <QString>
#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "core/metrics/AgreementMap.h"
#include "core/metrics/PairEvaluation.h"
#include "core/model/LabelMap.h"

class QTimer;

namespace delineate::viewers {
class SliceView;
class ViewLayout;
}  // namespace delineate::viewers

namespace delineate::app {

class AiController;
class EditSession;
class JobRunner;
class SurfaceController;

class CompareController : public QObject {
  Q_OBJECT

 public:
  // Agreement map values (core::agreementMap).
  enum Class { Agreement = 1, TestOnly = 2, ReferenceOnly = 3, DifferentLabel = 4 };

  struct Source {
    QString name;
    const core::LabelMap* map = nullptr;  // a session map, or the AI proposal
    bool proposal = false;
  };

  struct Result {
    QString referenceName;
    QString testName;
    std::uint16_t label = 0;  // 0: all labels
    core::PairEvaluation evaluation;
    std::shared_ptr<core::LabelMap> agreement;
    core::AgreementCounts counts;
    std::array<std::vector<double>, 3> sliceDice;  // per index axis (i, j, k)
    // The test's surfaces coloured by signed distance to the reference (the 3D view; built by a
    // second job after the rest: null until surfacesComputed), and the colour scale's half
    // range: the largest HD95 of the labels, at least 1 mm.
    vtkSmartPointer<vtkPolyData> surfaces;
    double distanceRangeMm = 1.0;
  };

  CompareController(EditSession* session, AiController* ai, viewers::ViewLayout* views,
                    SurfaceController* surfaces, QObject* parent = nullptr);
  ~CompareController() override;

  // The maps that can be compared: the session's label maps, then the AI proposal if any.
  std::vector<Source> sources() const;

  struct Request {
    int reference = 0;  // indices into sources()
    int test = 1;
    std::uint16_t label = 0;  // reference value of the label to show; 0: all labels
    double toleranceMm = 1.0;
    bool matchByName = true;  // pair labels by segment name (else by value)
  };
  // Starts the comparison (a job; cancels a running one). False with a message when the request
  // cannot run (same map twice, no such map, a map busy being copied is retried shortly).
  bool compare(const Request& request, QString* error = nullptr);
  // Leaves compare mode: the overlay, strips and result are dropped.
  void clear();
  bool busy() const;
  JobRunner* runner() const { return jobs_; }
  // The latest result (null before the first or after clear()).
  const Result* result() const { return result_ ? &*result_ : nullptr; }

  // Per-class visibility of the overlay (a toggle per agreement class) and whether the compared
  // maps stay drawn under it.
  void setClassVisible(Class c, bool visible);
  bool classVisible(Class c) const;
  void setMapsHidden(bool hidden);
  bool mapsHidden() const { return mapsHidden_; }

  // The slice view that worst-slice stepping and the plot follow (0 axial, 1 coronal, 2 sagittal).
  void setFollowedView(int view);
  int followedView() const { return followedView_; }
  // Per-slice Dice in the slice order of a view (its slider's), empty when the view's slices do
  // not run along an index axis of the image (oblique) or there is no result.
  std::vector<double> viewSliceDice(int view) const;
  // Goes to the next (or previous) slice in worst-first order of the followed view, counted from
  // the slice it shows (Next from a slice without the label goes to the worst); false when there
  // is none.
  bool nextWorstSlice();
  bool previousWorstSlice();
  // The followed view's slices with a Dice value, worst first.
  std::vector<int> worstOrder() const;
  viewers::SliceView* followedSliceView() const;

  // The label table as CSV (the dataset evaluation's columns; core::evaluationCsv). Throws
  // core::Error naming the file.
  void exportTableCsv(const std::filesystem::path& path) const;

 Q_SIGNALS:
  void sourcesChanged();
  void started();
  void computed();
  void surfacesComputed();
  void failed(const QString& message);
  void cleared();

 private:
  void recompare();
  void showResult();
  void buildSurfaces(std::shared_ptr<const core::LabelMap> reference,
                     std::shared_ptr<const core::LabelMap> compared,
                     std::vector<std::uint16_t> labels);
  void updateStrips();
  bool stepWorst(int delta);
  std::shared_ptr<const core::LabelMap> copyOf(const Source& source) const;

  EditSession* session_;
  AiController* ai_;
  viewers::ViewLayout* views_;
  SurfaceController* surfaces_;
  JobRunner* jobs_;
  QTimer* updateTimer_;
  // What was last asked for, by map (indices shift when maps come and go).
  struct Last {
    const core::LabelMap* reference = nullptr;
    const core::LabelMap* test = nullptr;
    bool referenceIsProposal = false;
    bool testIsProposal = false;
    std::uint16_t label = 0;
    double toleranceMm = 1.0;
    bool matchByName = true;
  } last_;
  std::optional<Result> result_;
  std::array<bool, 5> classVisible_{true, true, true, true, true};
  bool mapsHidden_ = true;
  int followedView_ = 0;
};

}  // namespace delineate::app
