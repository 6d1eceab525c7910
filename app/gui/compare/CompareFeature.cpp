#include "app/gui/compare/CompareFeature.h"

#include <QAction>
#include <QDockWidget>
#include <QMainWindow>
#include <QMenu>

#include "app/gui/CommandRegistry.h"
#include "app/gui/ai/CorrectionRecorder.h"
#include "app/gui/compare/CompareController.h"
#include "app/gui/compare/CompareDock.h"
#include "app/gui/editing/EditJobs.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/reading/SurfaceController.h"
#include "core/metrics/ProposalSnapshot.h"
#include "viewers/ViewLayout.h"

namespace delineate::app {

CompareFeature::CompareFeature(QMainWindow* window, CommandRegistry* commands,
                               viewers::ViewLayout* views, EditingFeature* editing,
                               bool interactive)
    : QObject(window), editing_(editing), commands_(commands) {
  controller_ =
      new CompareController(editing->session(), editing->ai(), views, editing->surfaces(), this);
  panel_ = new CompareDock(controller_, views->state(), interactive);
  dock_ = new QDockWidget(tr("Compare"), window);
  dock_->setObjectName(QStringLiteral("compareDock"));
  dock_->setWidget(panel_);
  window->addDockWidget(Qt::RightDockWidgetArea, dock_);
  dock_->hide();

  connect(commands_->add(QStringLiteral("analysis.compare"), tr("&Compare label maps…"),
                         QKeySequence(tr("Ctrl+Shift+C"))),
          &QAction::triggered, this, &CompareFeature::show);
  connect(commands_->add(QStringLiteral("analysis.nextWorstSlice"), tr("Next worst slice"),
                         QKeySequence(tr("N"))),
          &QAction::triggered, controller_, &CompareController::nextWorstSlice);
  connect(commands_->add(QStringLiteral("analysis.previousWorstSlice"), tr("Previous worst slice"),
                         QKeySequence(tr("Shift+N"))),
          &QAction::triggered, controller_, &CompareController::previousWorstSlice);
  connect(commands_->add(QStringLiteral("analysis.addAcceptedProposal"),
                         tr("Compare with the &accepted AI proposal")),
          &QAction::triggered, this, &CompareFeature::addAcceptedProposal);
}

CompareFeature::~CompareFeature() = default;

void CompareFeature::populateMenu(QMenu* menu) {
  menu->addAction(commands_->action(QStringLiteral("analysis.compare")));
  menu->addAction(commands_->action(QStringLiteral("analysis.nextWorstSlice")));
  menu->addAction(commands_->action(QStringLiteral("analysis.previousWorstSlice")));
  menu->addAction(commands_->action(QStringLiteral("analysis.addAcceptedProposal")));
}

void CompareFeature::show() {
  dock_->show();
  dock_->raise();
}

bool CompareFeature::addAcceptedProposal() {
  show();
  EditSession* session = editing_->session();
  const std::shared_ptr<core::LabelMap> corrected = session->activeMap();
  const CorrectionRecorder::Proposals proposals =
      corrected ? editing_->corrections()->acceptedProposals(*corrected)
                : CorrectionRecorder::Proposals{};
  if (proposals.empty()) {
    panel_->showError(corrected ? tr("No AI proposal was accepted into %1 in this session.")
                                      .arg(QString::fromStdString(corrected->name()))
                                : tr("Open or create a label map first."));
    return false;
  }
  const std::string name = corrected->name() + " AI proposal";
  const core::ImageGeometry grid = corrected->geometry();
  std::vector<core::Segment> segments;
  for (const auto& [label, snapshot] : proposals) {
    if (const core::Segment* s = corrected->segment(label)) {
      segments.push_back(*s);
    }
  }
  const core::LabelMap* correctedMap = corrected.get();
  return editing_->jobs()->run<std::shared_ptr<core::LabelMap>>(
      tr("Drawing the accepted AI proposal"),
      [name, grid, segments, proposals](core::ProgressSink& progress) {
        auto map = std::make_shared<core::LabelMap>(name, grid, segments);
        for (const auto& [label, snapshot] : proposals) {
          progress.throwIfCancelled();
          core::paintSnapshot(snapshot, label, *map);
        }
        return map;
      },
      [this, session, correctedMap](std::shared_ptr<core::LabelMap> map) {
        const core::LabelMap* added = map.get();
        const int active = session->activeMapIndex();
        session->addLabelMap(std::move(map));
        session->setActiveLabelMap(active);  // the annotator keeps editing the corrected map
        QString error;
        if (!panel_->compareMaps(*correctedMap, *added, 0, QString(), -1, &error)) {
          panel_->showError(error);
          return;
        }
        Q_EMIT acceptedProposalAdded();
      },
      [this](const QString& error) { panel_->showError(error); });
}

}  // namespace delineate::app
