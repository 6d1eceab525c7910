#include "app/gui/compare/CompareController.h"

#include <QTimer>
#include <algorithm>
#include <cmath>
#include <cstring>

#include "annotation/review/PairComparison.h"
#include "app/gui/ai/AiController.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/reading/SurfaceController.h"
#include "app/gui/shell/JobRunner.h"
#include "core/Error.h"
#include "core/metrics/AgreementSlices.h"
#include "core/metrics/DatasetEvaluation.h"
#include "core/metrics/EvaluationReport.h"
#include "viewers/SliceGeometry.h"
#include "viewers/SliceView.h"
#include "viewers/SurfaceDistanceColoring.h"
#include "viewers/ViewLayout.h"

namespace delineate::app {

namespace {

constexpr int kCompareRetryMs = 30;
constexpr int kUpdateDelayMs = 700;

// A copy of the proposal's voxels (only its box is copied; the rest of the fresh map is zero
// pages), so the job never reads a map the GUI thread may still change.
std::shared_ptr<const core::LabelMap> snapshotProposal(const core::LabelMap& proposal,
                                                       const core::VoxelBox& box) {
  auto copy =
      std::make_shared<core::LabelMap>(proposal.name(), proposal.geometry(), proposal.segments());
  if (box.empty()) {
    return copy;
  }
  const std::size_t width = box.hi[0] - box.lo[0];
  for (std::size_t k = box.lo[2]; k < box.hi[2]; ++k) {
    for (std::size_t j = box.lo[1]; j < box.hi[1]; ++j) {
      const std::size_t n = proposal.index(box.lo[0], j, k);
      std::memcpy(copy->mutableData() + n, proposal.data() + n, width * sizeof(std::uint16_t));
    }
  }
  return copy;
}

}  // namespace

CompareController::CompareController(EditSession* session, AiController* ai,
                                     viewers::ViewLayout* views, SurfaceController* surfaces,
                                     QObject* parent)
    : QObject(parent),
      session_(session),
      ai_(ai),
      views_(views),
      surfaces_(surfaces),
      jobs_(new JobRunner(this)),
      updateTimer_(new QTimer(this)) {
  updateTimer_->setSingleShot(true);
  updateTimer_->setInterval(kUpdateDelayMs);
  connect(updateTimer_, &QTimer::timeout, this, [this] { recompare(); });
  connect(session_, &EditSession::labelMapsChanged, this, [this] {
    const auto& maps = session_->document().labelMaps();
    const auto present = [&](const core::LabelMap* map, bool proposal) {
      return proposal ||
             std::any_of(maps.begin(), maps.end(), [&](const auto& m) { return m.get() == map; });
    };
    const bool gone = !present(last_.reference, last_.referenceIsProposal) ||
                      !present(last_.test, last_.testIsProposal);
    if (result_ && (gone || !session_->image() ||
                    !result_->agreement->geometry().sameGrid(session_->image()->geometry()))) {
      clear();
    }
    Q_EMIT sourcesChanged();
  });
  // Editing a compared map updates the comparison a moment after the last change.
  connect(session_, &EditSession::voxelsChanged, this, [this] {
    if (result_ || jobs_->busy()) {
      updateTimer_->start();
    }
  });
  if (ai_) {
    connect(ai_, &AiController::proposalChanged, this, [this] {
      Q_EMIT sourcesChanged();
      if ((result_ || jobs_->busy()) && (last_.referenceIsProposal || last_.testIsProposal)) {
        if (ai_->hasProposal()) {
          updateTimer_->start();
        } else {
          clear();
        }
      }
    });
  }
}

CompareController::~CompareController() {
  jobs_->cancel();
  jobs_->waitForIdle();
}

std::vector<CompareController::Source> CompareController::sources() const {
  std::vector<Source> out;
  for (const auto& map : session_->document().labelMaps()) {
    out.push_back({QString::fromStdString(map->name()), map.get(), false});
  }
  if (ai_ && ai_->hasProposal()) {
    out.push_back({tr("AI proposal"), ai_->interaction().proposal().get(), true});
  }
  return out;
}

std::shared_ptr<const core::LabelMap> CompareController::copyOf(const Source& source) const {
  if (source.proposal) {
    return snapshotProposal(*source.map, ai_->interaction().proposalBox());
  }
  return session_->readCopy(*source.map);
}

bool CompareController::busy() const {
  return jobs_->busy() || updateTimer_->isActive();
}

bool CompareController::compare(const Request& request, QString* error) {
  const std::vector<Source> all = sources();
  const auto fail = [&](const QString& message) {
    if (error) {
      *error = message;
    }
    return false;
  };
  const int n = static_cast<int>(all.size());
  if (request.reference < 0 || request.reference >= n || request.test < 0 || request.test >= n) {
    return fail(
        tr("Pick a reference and a test label map (the image has %n label map(s)).", "", n));
  }
  if (request.reference == request.test) {
    return fail(tr("Pick two different label maps to compare."));
  }
  const Source& reference = all[std::size_t(request.reference)];
  const Source& test = all[std::size_t(request.test)];
  last_ = {reference.map,      test.map,      reference.proposal,
           test.proposal,      request.label, request.toleranceMm,
           request.matchByName};
  auto referenceCopy = copyOf(reference);
  auto testCopy = copyOf(test);
  if (!referenceCopy || !testCopy) {
    updateTimer_->start(kCompareRetryMs);  // a copy is being brought up to date
    return true;
  }
  core::PairEvaluationOptions options;
  options.toleranceMm = request.toleranceMm;
  options.referenceHasTable = request.matchByName;
  options.testHasTable = request.matchByName;
  const std::uint16_t label = request.label;
  const QString referenceName = reference.name;
  const QString testName = test.name;
  Q_EMIT started();
  // First the numbers, overlay and strips (a fraction of a second on 512^3), then the 3D
  // distance surfaces (seconds for large structures) as a second job.
  jobs_->run<std::shared_ptr<annotation::PairComparison>>(
      tr("Comparing %1 with %2").arg(testName, referenceName),
      [referenceCopy, testCopy, options, label](core::ProgressSink& progress) {
        return std::make_shared<annotation::PairComparison>(
            annotation::comparePair(referenceCopy, testCopy, options, label, progress));
      },
      [this, referenceCopy, referenceName, testName,
       label](std::shared_ptr<annotation::PairComparison> c) {
        Result r;
        r.referenceName = referenceName;
        r.testName = testName;
        r.label = label;
        r.evaluation = std::move(c->evaluation);
        r.agreement = std::move(c->agreement);
        r.counts = c->counts;
        r.sliceDice = std::move(c->sliceDice);
        r.distanceRangeMm = c->distanceRangeMm;
        result_ = std::move(r);
        showResult();
        Q_EMIT computed();
        buildSurfaces(referenceCopy, std::move(c->compared), std::move(c->shownLabels));
      },
      [this](const QString& message, bool cancelled) {
        if (!cancelled) {
          Q_EMIT failed(message);
        }
      });
  return true;
}

void CompareController::buildSurfaces(std::shared_ptr<const core::LabelMap> reference,
                                      std::shared_ptr<const core::LabelMap> compared,
                                      std::vector<std::uint16_t> labels) {
  const viewers::SurfaceOptions options = surfaces_->options();
  jobs_->run<vtkSmartPointer<vtkPolyData>>(
      tr("Surface distances of %1").arg(result_->testName),
      [reference, compared, labels, options](core::ProgressSink& progress) {
        return viewers::buildDistanceSurfaces(*reference, *compared, labels, options, progress);
      },
      [this](vtkSmartPointer<vtkPolyData> surfaces) {
        if (!result_) {
          return;
        }
        result_->surfaces = std::move(surfaces);
        surfaces_->showDistanceSurfaces(result_->surfaces, result_->agreement->geometry(),
                                        result_->distanceRangeMm);
        Q_EMIT surfacesComputed();
      },
      [this](const QString& message, bool cancelled) {
        if (!cancelled) {
          Q_EMIT failed(message);
        }
      });
}

void CompareController::recompare() {
  const std::vector<Source> all = sources();
  Request request;
  request.reference = request.test = -1;
  for (std::size_t s = 0; s < all.size(); ++s) {
    if (all[s].proposal ? last_.referenceIsProposal : all[s].map == last_.reference) {
      request.reference = int(s);
    }
    if (all[s].proposal ? last_.testIsProposal : all[s].map == last_.test) {
      request.test = int(s);
    }
  }
  request.label = last_.label;
  request.toleranceMm = last_.toleranceMm;
  request.matchByName = last_.matchByName;
  QString error;
  if (!compare(request, &error)) {
    clear();
  }
}

void CompareController::clear() {
  updateTimer_->stop();
  jobs_->cancel();
  result_.reset();
  session_->display()->setComparison(nullptr, false);
  surfaces_->clearDistanceSurfaces();
  updateStrips();
  Q_EMIT cleared();
}

void CompareController::showResult() {
  for (core::Segment& s : result_->agreement->segments()) {
    s.visible = s.label < classVisible_.size() ? classVisible_[s.label] : true;
  }
  session_->display()->setComparison(result_->agreement, mapsHidden_);
  surfaces_->clearDistanceSurfaces();  // until this result's are built
  updateStrips();
}

void CompareController::setClassVisible(Class c, bool visible) {
  classVisible_[std::size_t(c)] = visible;
  if (!result_) {
    return;
  }
  if (core::Segment* s = result_->agreement->segment(std::uint16_t(c))) {
    s->visible = visible;
    session_->display()->segmentsChanged(*result_->agreement);
  }
}

bool CompareController::classVisible(Class c) const {
  return classVisible_[std::size_t(c)];
}

void CompareController::setMapsHidden(bool hidden) {
  mapsHidden_ = hidden;
  if (result_) {
    session_->display()->setComparison(result_->agreement, mapsHidden_);
  }
}

void CompareController::setFollowedView(int view) {
  followedView_ = std::clamp(view, 0, 2);
}

std::vector<double> CompareController::viewSliceDice(int view) const {
  if (!result_) {
    return {};
  }
  const core::ImageGeometry& grid = result_->agreement->geometry();
  const auto orientation = static_cast<viewers::SliceOrientation>(view);
  const viewers::AlignedAxis aligned =
      viewers::alignedAxis(grid, viewers::sliceAxes(orientation).normal);
  const std::vector<double>& dice = result_->sliceDice[std::size_t(aligned.axis)];
  const int n = viewers::sliceCount(grid, orientation);
  if (n != static_cast<int>(dice.size())) {
    return {};  // oblique: the view's slices cross the index axes
  }
  std::vector<double> out(dice.size());
  for (int s = 0; s < n; ++s) {
    out[std::size_t(s)] = dice[std::size_t(aligned.positive ? s : n - 1 - s)];
  }
  return out;
}

void CompareController::updateStrips() {
  for (int v = 0; v < 3; ++v) {
    views_->sliceView(v)->setSliceScores(viewSliceDice(v), tr("Dice"));
  }
}

bool CompareController::nextWorstSlice() {
  return stepWorst(+1);
}

bool CompareController::previousWorstSlice() {
  return stepWorst(-1);
}

std::vector<int> CompareController::worstOrder() const {
  return core::worstSlicesFirst(viewSliceDice(followedView_));
}

viewers::SliceView* CompareController::followedSliceView() const {
  return views_->sliceView(followedView_);
}

bool CompareController::stepWorst(int delta) {
  const std::optional<int> slice =
      annotation::stepInOrder(worstOrder(), followedSliceView()->sliceIndex(), delta);
  if (!slice) {
    return false;
  }
  followedSliceView()->setSliceIndex(*slice);
  return true;
}

void CompareController::exportTableCsv(const std::filesystem::path& path) const {
  if (!result_) {
    throw core::Error(core::ErrorKind::InvalidInput, path.string(), "nothing compared yet");
  }
  core::writeEvaluationCsv(
      annotation::asOneCaseEvaluation(
          result_->evaluation, (result_->testName + " vs " + result_->referenceName).toStdString()),
      path);
}

}  // namespace delineate::app
