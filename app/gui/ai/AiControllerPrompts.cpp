// The AI controller's clicks and prompts as steps: boxes, scribbles and lassos recorded and
// refused, each step an undo entry, taken back (by the server where it can), and drawn on the
// slices; and the API keys of servers that use one (kept in the keychain).
#include "annotation/ai/AiStepCommand.h"
#include "app/gui/ai/AiController.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/pacs/KeychainSecrets.h"
#include "app/gui/shell/JobRunner.h"
#include "core/document/Document.h"
#include "viewers/MarkerState.h"

namespace delineate::app {

namespace {

const KeychainSecrets& apiKeys() {
  static const KeychainSecrets keys(QStringLiteral("aikey:"));
  return keys;
}

}  // namespace

bool AiController::prompt(core::ai::Prompt p, annotation::AiInteraction::DrawnOutline drawn) {
  const core::VolumePtr image = session_->image();
  const Backend& chosen = backends_[static_cast<std::size_t>(current_)];
  if (!image || !chosen.backend) {
    return false;
  }
  if (!chosen.backend->capabilities().takes(p.kind)) {
    Q_EMIT failed(
        tr("%1 does not take %2 prompts (model %3); use AI clicks, or a backend "
           "that takes them (the built-in engine, nnInteractive)")
            .arg(chosen.name, QString::fromLatin1(core::ai::promptKindName(p.kind)), model_));
    return false;
  }
  auto map = session_->ensureLabelMap();
  if (!map) {
    return false;
  }
  interaction_.setTarget({map.get(), session_->activeLabel()});
  lastAxis_ = p.sliceAxis() >= 0 ? p.sliceAxis() : lastAxis_;
  lastVoxel_ = {std::int64_t(p.box.lo[0]), std::int64_t(p.box.lo[1]), std::int64_t(p.box.lo[2])};
  interaction_.addPrompt(std::move(p), std::move(drawn));
  pushStep();
  updateMarkers();
  if (runOnClick_ && readyToRun()) {
    run();
  }
  return true;
}

void AiController::pushStep() {
  const std::string name = interaction_.lastStepName();
  // What redo puts back: the step as it is now.
  const annotation::AiInteraction::Target target = interaction_.target();
  std::optional<annotation::AiClick> click;
  std::optional<core::ai::Prompt> prompt;
  annotation::AiInteraction::DrawnOutline outline;
  if (name == "Click" || name == "Extreme point") {
    click = interaction_.clicks().back();
  } else {
    prompt = interaction_.prompts().back();
    outline = interaction_.promptOutlines().back();
  }
  std::weak_ptr<bool> alive = alive_;
  session_->document().undoStack().push(std::make_unique<annotation::AiStepCommand>(
      name,
      [this, alive, target] {
        if (alive.expired()) {
          return;
        }
        if (interaction_.target() != target) {
          // A step of another segment's clicks: taken back there, nothing to run now.
          const annotation::AiInteraction::Target current = interaction_.target();
          interaction_.setTarget(target);
          interaction_.removeLastStep();
          interaction_.setTarget(current);
          return;
        }
        takeBackLastStep();
      },
      [this, alive, target, click, prompt, outline] {
        const core::VolumePtr image = session_->image();
        if (alive.expired() || !image || interaction_.target() != target) {
          return;
        }
        if (click) {
          interaction_.addClick(image->geometry(), click->world, click->kind);
        } else {
          interaction_.addPrompt(*prompt, outline);
        }
        updateMarkers();
        if (runOnClick_ && readyToRun()) {
          run();
        }
      }));
  session_->flush();
}

void AiController::takeBackLastStep() {
  const bool hadProposal = interaction_.proposal() != nullptr;
  if (interaction_.removeLastStep().empty()) {
    return;
  }
  updateMarkers();
  const Backend& chosen = backends_[static_cast<std::size_t>(current_)];
  if (!readyToRun() || !hadProposal || !chosen.backend) {
    inferJobs_->cancel();
    reject();
    return;
  }
  if (chosen.backend->capabilities().serverUndo) {
    std::shared_ptr<core::ai::AiBackend> backend = chosen.backend;
    runJob(tr("AI: undo on %1").arg(chosen.name),
           [backend](core::ProgressSink& progress) { return backend->undoLastPrompt(progress); });
    return;
  }
  if (runOnClick_) {
    run();
  }
}

void AiController::updateMarkers() {
  std::vector<viewers::Marker> shown;
  for (const annotation::AiClick& c : interaction_.clicks()) {
    viewers::Marker m;
    m.world = c.world;
    m.kind = c.kind == annotation::ClickKind::Positive   ? viewers::Marker::Positive
             : c.kind == annotation::ClickKind::Negative ? viewers::Marker::Negative
                                                         : viewers::Marker::Extreme;
    shown.push_back(std::move(m));
  }
  const auto outlines = interaction_.promptOutlines();
  for (std::size_t n = 0; n < outlines.size() && n < interaction_.prompts().size(); ++n) {
    if (outlines[n].points.empty()) {
      continue;
    }
    viewers::Marker m;
    m.world = outlines[n].points.front();
    m.kind =
        interaction_.prompts()[n].positive ? viewers::Marker::Positive : viewers::Marker::Negative;
    m.outline = outlines[n].points;
    m.closed = outlines[n].closed;
    shown.push_back(std::move(m));
  }
  markers_->setMarkers(std::move(shown));
}

bool AiController::usesApiKey(const QString& kind) {
  return kind == QLatin1String("nninteractive");
}

void AiController::setApiKey(int index, const QString& key) {
  if (index < 0 || index >= static_cast<int>(backends_.size())) {
    return;
  }
  Backend& b = backends_[static_cast<std::size_t>(index)];
  if (!usesApiKey(b.kind) || !b.backend) {
    return;
  }
  if (key.isEmpty()) {
    apiKeys().forget(b.url.toStdString());
  } else {
    apiKeys().remember(b.url.toStdString(), key.toStdString());
  }
  core::ai::SignInTokens tokens;
  tokens.accessToken = key.toStdString();
  b.backend->setSignInTokens(tokens);
  refresh();
}

void AiController::attachApiKey(const Backend& b) {
  if (!usesApiKey(b.kind) || !b.backend) {
    return;
  }
  std::weak_ptr<core::ai::AiBackend> weak = b.backend;
  apiKeys().fetch(b.url.toStdString(), this, [weak](std::string key, QString, bool found) {
    if (auto backend = weak.lock(); backend && found) {
      core::ai::SignInTokens tokens;
      tokens.accessToken = std::move(key);
      backend->setSignInTokens(tokens);
    }
  });
}

bool AiController::hasSegmentToRefine() const {
  const auto& [map, label] = interaction_.target();
  return refineSegment_ && map != nullptr && label != 0 && map->segment(label) != nullptr;
}

bool AiController::readyToRun() const {
  return interaction_.hasPositive() || hasSegmentToRefine();
}

}  // namespace delineate::app
