// The AI controller's clicks and prompts as steps: boxes, scribbles and lassos recorded and
// refused, each step an undo entry, taken back (by the server where it can), and drawn on the
// slices; and the API keys of servers that use one (kept in the keychain).
#include <algorithm>

#include "annotation/ai/AiStepCommand.h"
#include "app/gui/ai/AiController.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/pacs/KeychainSecrets.h"
#include "app/gui/shell/JobRunner.h"
#include "core/ai/ClickIndex.h"
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

bool AiController::markBoxEnd(const core::Vec3& cursor) {
  const core::VolumePtr image = session_->image();
  const Backend& chosen = backends_[static_cast<std::size_t>(current_)];
  if (!image || !chosen.backend) {
    return false;
  }
  if (!chosen.backend->capabilities().boxSpans) {
    Q_EMIT failed(tr("%1 does not take a box's end slices (model %2); the built-in engine does")
                      .arg(chosen.name, model_));
    return false;
  }
  const auto& prompts = interaction_.prompts();
  const auto box = std::find_if(prompts.begin(), prompts.end(), [](const core::ai::Prompt& p) {
    return p.kind == core::ai::PromptKind::Box && p.positive;
  });
  if (box == prompts.end()) {
    Q_EMIT failed(
        tr("Draw an AI box (D) round the structure on one slice first; then, on the "
           "slice where it ends, press T"));
    return false;
  }
  if (box->sliceAxis() < 0) {
    Q_EMIT failed(tr("The first AI box is 3-D: it bounds the structure on every side already"));
    return false;
  }
  const std::optional<core::ai::VoxelIndex> at =
      core::ai::clickIndexInside(image->geometry(), cursor);
  const std::size_t axis = std::size_t(box->sliceAxis());
  if (!at || !interaction_.markBoxEnd(std::size_t((*at)[axis]))) {
    Q_EMIT failed(
        tr("The box is drawn on this slice: move to the slice where the structure "
           "ends, then press T"));
    return false;
  }
  pushStep(std::size_t((*at)[axis]));
  const auto end = [](const std::optional<std::size_t>& slice, std::size_t offset) {
    return slice ? QString::number(*slice - offset) : QStringLiteral("?");
  };
  Q_EMIT session_->statusMessage(tr("AI box: the structure spans slices %1 to %2")
                                     .arg(end(box->spanLo, 0), end(box->spanHi, 1)));
  updateMarkers();
  if (runOnClick_ && readyToRun()) {
    run();
  }
  return true;
}

void AiController::pushStep(std::optional<std::size_t> boxEnd) {
  const std::string name = interaction_.lastStepName();
  // What redo puts back: the step as it is now.
  const annotation::AiInteraction::Target target = interaction_.target();
  std::optional<annotation::AiClick> click;
  std::optional<core::ai::Prompt> prompt;
  annotation::AiInteraction::DrawnOutline outline;
  if (name == "Click" || name == "Extreme point") {
    click = interaction_.clicks().back();
  } else if (!boxEnd) {
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
      [this, alive, target, click, prompt, outline, boxEnd] {
        const core::VolumePtr image = session_->image();
        if (alive.expired() || !image || interaction_.target() != target) {
          return;
        }
        if (click) {
          interaction_.addClick(image->geometry(), click->world, click->kind);
        } else if (boxEnd) {
          interaction_.markBoxEnd(*boxEnd);
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
    shown.push_back(m);
    // A box's end slices: its rectangle again on each.
    const core::ai::Prompt& p = interaction_.prompts()[n];
    const core::VolumePtr image = session_->image();
    if (p.kind != core::ai::PromptKind::Box || p.sliceAxis() < 0 || !image) {
      continue;
    }
    const std::size_t axis = std::size_t(p.sliceAxis());
    for (const std::optional<std::size_t> end :
         {p.spanLo, p.spanHi ? std::optional<std::size_t>(*p.spanHi - 1) : std::nullopt}) {
      if (!end) {
        continue;
      }
      core::Vec3 step{0, 0, 0};
      step[axis] = double(*end) - double(p.box.lo[axis]);
      const core::Vec3 to = image->geometry().indexToWorld(step);
      const core::Vec3 from = image->geometry().indexToWorld({0, 0, 0});
      const auto moved = [&](core::Vec3 point) {
        for (std::size_t a = 0; a < 3; ++a) {
          point[a] += to[a] - from[a];
        }
        return point;
      };
      viewers::Marker atEnd = m;
      atEnd.world = moved(m.world);
      for (core::Vec3& point : atEnd.outline) {
        point = moved(point);
      }
      shown.push_back(std::move(atEnd));
    }
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
