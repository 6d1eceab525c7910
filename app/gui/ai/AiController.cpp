#include "app/gui/ai/AiController.h"

#include <QKeySequence>
#include <QSettings>
#include <QTimer>
#include <algorithm>
#include <chrono>
#include <cmath>

#include "annotation/ai/AiRequestPlan.h"
#include "annotation/ai/PromptShapes.h"
#include "annotation/ai/ProposalLabelPlan.h"
#include "annotation/ai/ProposalMerge.h"
#include "annotation/engine/LocalEngineBackend.h"
#include "app/gui/ai/ServerEntry.h"
#include "app/gui/ai/ServerSignIn.h"
#include "app/gui/editing/EditJobs.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/ToolController.h"
#include "app/gui/preferences/Preferences.h"
#include "app/gui/shell/JobRunner.h"
#include "app/plugins/PluginHost.h"
#include "core/Error.h"
#include "core/deid/OutboundPolicy.h"
// The one backend the app knows by type: MONAI Label's sign-in (ServerSignIn) is not part of
// core::ai::AiBackend yet. The plugin makes the object; the cast below finds it by its type name.
#include "viewers/LabelDisplayState.h"
#include "viewers/MarkerState.h"

namespace delineate::app {

namespace {

constexpr double kProposalOpacity = 0.6;

// What asking a server for its models gave: its info, or why it wants a sign-in first.
struct InfoAnswer {
  std::optional<core::ai::ServerInfo> info;
  std::string signIn;
};

// A proposal and the box of its voxels, made by the inference job.
struct Proposal {
  std::shared_ptr<core::LabelMap> labels;
  core::VoxelBox box;
  core::ai::InferTimings timings;
  bool leaseRenewed = false;  // the server had dropped the session: claimed again, sent again
};

}  // namespace

AiController::AiController(EditSession* session, ToolController* tools, EditJobs* jobs,
                           std::shared_ptr<viewers::MarkerState> markers, QObject* parent)
    : QObject(parent),
      session_(session),
      tools_(tools),
      jobs_(jobs),
      markers_(std::move(markers)),
      display_(session->display()),
      inferJobs_(new JobRunner(this)),
      infoJobs_(new JobRunner(this)),
      signIn_(new ServerSignIn(this)) {
  connect(signIn_, &ServerSignIn::signInRequired, this, &AiController::signInRequired);
  // A sign-in that ended without connecting (cancelled) says so instead of "signing in…".
  connect(signIn_, &ServerSignIn::noteChanged, this,
          [this](const QString& url, const QString& note) {
            for (std::size_t i = 0; i < backends_.size(); ++i) {
              Backend& b = backends_[i];
              if (b.url == url && !b.info && !signIn_->busy()) {
                b.status = tr("%1: %2").arg(url, note);
                if (static_cast<int>(i) == current_) {
                  Q_EMIT statusChanged(b.status);
                }
              }
            }
          });
  backends_.push_back(builtinEngine());
  for (const QString& url : QSettings().value(QLatin1String(kServersKey)).toStringList()) {
    backends_.push_back(serverBackend(url));
    attachApiKey(backends_.back());
  }
  auto handler = [this](const core::Vec3& world, const core::Vec3& normal,
                        annotation::ClickKind kind) { click(world, kind, normal); };
  clickTool_ = std::make_unique<annotation::AiClickTool>(false, handler);
  extremeTool_ = std::make_unique<annotation::AiClickTool>(true, handler);
  tools->addTool(QStringLiteral("tool.aiClick"), tr("AI clicks"), QKeySequence(QStringLiteral("A")),
                 tr("Click inside the structure for the AI; Shift+click outside it (A)"),
                 clickTool_.get());
  tools->addTool(QStringLiteral("tool.aiExtreme"), tr("AI extreme points"), QKeySequence(),
                 tr("Click the six extreme points of the structure (left, right, front, back, "
                    "top, bottom)"),
                 extremeTool_.get());
  connect(session_, &EditSession::labelMapsChanged, this, [this] {
    if (session_->image().get() != image_) {
      resetForImage();
    }
    updateMarkers();
  });
  connect(session_, &EditSession::activeSegmentChanged, this, [this](std::uint16_t label) {
    interaction_.setTarget({session_->activeMap().get(), label});  // each segment its own clicks
    updateMarkers();
  });
  connect(inferJobs_, &JobRunner::started, this, [this] { Q_EMIT busyChanged(true); });
  connect(inferJobs_, &JobRunner::finished, this, [this] { Q_EMIT busyChanged(false); });
  setBackend(0);
}

AiController::~AiController() {
  if (tools_->toolId().startsWith(QLatin1String("tool.ai"))) {
    tools_->setTool(QStringLiteral("tool.navigate"));  // the router must not keep our tools
  }
  display_->setProposal(nullptr);
  markers_->setMarkers({});
  inferJobs_->cancel();
  infoJobs_->cancel();
  inferJobs_->waitForIdle();
  infoJobs_->waitForIdle();
}

void AiController::setBackend(int index) {
  if (index < 0 || index >= static_cast<int>(backends_.size())) {
    return;
  }
  inferJobs_->cancel();
  current_ = index;
  reject();
  refresh();
}

void AiController::refresh() {
  const int index = current_;
  std::shared_ptr<core::ai::AiBackend> backend = backends_[static_cast<std::size_t>(index)].backend;
  if (!backend) {  // its plugin is missing: nothing to ask
    Backend& b = backends_[static_cast<std::size_t>(index)];
    b.info.reset();
    b.status = b.note;
    model_.clear();
    Q_EMIT modelsChanged();
    Q_EMIT statusChanged(b.status);
    return;
  }
  backends_[static_cast<std::size_t>(index)].status = tr("connecting…");
  Q_EMIT statusChanged(backends_[static_cast<std::size_t>(index)].status);
  infoJobs_->run<InfoAnswer>(
      tr("Asking %1 for its models").arg(backends_[static_cast<std::size_t>(index)].name),
      [backend](core::ProgressSink& progress) {
        InfoAnswer answer;
        try {
          if (backend->signInTokens().empty() && backend->signInEnabled(progress)) {
            answer.signIn = backend->displayName() + ": sign-in needed";
            return answer;
          }
          answer.info = backend->info(progress);
        } catch (const core::ai::SignInRequired& e) {
          answer.signIn = e.what();
        }
        return answer;
      },
      [this, index, backend](InfoAnswer answer) {
        Backend& b = backends_[static_cast<std::size_t>(index)];
        if (!answer.info) {
          needSignIn(index, QString::fromStdString(answer.signIn));
          return;
        }
        b.status =
            tr("connected: %n model(s)", nullptr, static_cast<int>(answer.info->models.size()));
        if (!signIn_->note(b.url).isEmpty()) {
          b.status += QStringLiteral("; ") + signIn_->note(b.url);
          signIn_->keepRenewedToken(b.url, backend);
        }
        if (!b.note.isEmpty()) {
          b.status += QStringLiteral("; ") + b.note;
        }
        b.info = std::move(answer.info);
        if (index == current_) {
          const QStringList names = models();
          if (!names.contains(model_)) {
            model_ = names.isEmpty() ? QString() : names.front();
          }
          Q_EMIT modelsChanged();
          Q_EMIT statusChanged(b.status);
        }
      },
      [this, index](const QString& error, bool cancelled) {
        Backend& b = backends_[static_cast<std::size_t>(index)];
        b.info.reset();
        b.status = cancelled ? tr("not checked") : error;
        if (index == current_) {
          Q_EMIT modelsChanged();
          Q_EMIT statusChanged(b.status);
        }
      });
}

void AiController::needSignIn(int index, const QString& reason) {
  Backend& b = backends_[static_cast<std::size_t>(index)];
  b.info.reset();
  b.status = reason;
  if (index == current_) {
    Q_EMIT modelsChanged();
    Q_EMIT statusChanged(b.status);
  }
  signIn_->required(b.url, b.backend, reason, [this, index] {
    if (index == current_) {
      refresh();
    }
  });
}

void AiController::signIn(const QString& url, const QString& user, const QString& password,
                          bool rememberPassword) {
  for (std::size_t i = 0; i < backends_.size(); ++i) {
    const std::shared_ptr<core::ai::AiBackend> backend = backends_[i].backend;
    if (backends_[i].url != url || !backend) {
      continue;
    }
    const int index = static_cast<int>(i);
    backends_[i].status = tr("signing in as %1…").arg(user);
    if (index == current_) {
      Q_EMIT statusChanged(backends_[i].status);
    }
    signIn_->signIn(url, backend, user, password, rememberPassword, [this, index] {
      if (index == current_) {
        refresh();
      }
    });
    return;
  }
}

bool AiController::connected() const {
  return backends_[static_cast<std::size_t>(current_)].info.has_value();
}

QStringList AiController::models() const {
  QStringList out;
  const auto& info = backends_[static_cast<std::size_t>(current_)].info;
  if (!info) {
    return out;
  }
  // Click models first (the first is the default: what a click runs), then automatic ones; the
  // extreme-point tool finds its model by type.
  using Group = core::ai::ModelGroup;
  for (const Group g : {Group::Deepgrow, Group::Deepedit, Group::Automatic, Group::Scribbles,
                        Group::ExtremePoints}) {
    for (const core::ai::ModelInfo* m : info->modelsIn(g)) {
      out << QString::fromStdString(m->name);
    }
  }
  return out;
}

void AiController::setModel(const QString& name) {
  model_ = name;
  reject();
}

std::string AiController::segmentName() const {
  const auto map = session_->activeMap();
  const core::Segment* s = map ? map->segment(session_->activeLabel()) : nullptr;
  return s ? s->name : std::string();
}

void AiController::click(const core::Vec3& world, annotation::ClickKind kind,
                         const core::Vec3& sliceNormal) {
  const core::VolumePtr image = session_->image();
  if (!image) {
    return;
  }
  auto map = session_->ensureLabelMap();
  if (!map) {
    return;
  }
  interaction_.setTarget({map.get(), session_->activeLabel()});
  if (!interaction_.addClick(image->geometry(), world, kind)) {
    Q_EMIT session_->statusMessage(kind == annotation::ClickKind::Extreme
                                       ? tr("Six extreme points are set; clear them to start again")
                                       : tr("The click lies outside the image"));
    return;
  }
  lastAxis_ = annotation::sliceAxisFor(image->geometry(), sliceNormal);
  lastVoxel_ = interaction_.clicks().back().voxel;
  pushStep();
  updateMarkers();
  const bool ready =
      kind == annotation::ClickKind::Extreme ? interaction_.extremePoints() == 6 : readyToRun();
  if (runOnClick_ && ready) {
    run();
  }
}

void AiController::clearClicks() {
  inferJobs_->cancel();
  interaction_.clearClicks();
  updateMarkers();
}

void AiController::run() {
  const core::VolumePtr image = session_->image();
  const bool noBackend = !backends_[static_cast<std::size_t>(current_)].backend;  // no plugin
  if (!image || model_.isEmpty() || noBackend) {
    Q_EMIT failed(model_.isEmpty() || noBackend ? tr("No model: %1").arg(backends_[current_].status)
                                                : tr("No image"));
    return;
  }
  const Backend& current = backends_[static_cast<std::size_t>(current_)];
  annotation::AiRequestInputs inputs;
  inputs.model = model_.toStdString();
  inputs.image = image;
  inputs.segmentName = segmentName();
  inputs.segmentToRefine = hasSegmentToRefine();
  const annotation::AiRequestPlan plan =
      annotation::planAiRequest(interaction_, inputs, current.backend->capabilities(),
                                current.info ? &*current.info : nullptr);
  if (plan.next == annotation::AiRequestPlan::Next::WaitForExtremePoints) {
    Q_EMIT session_->statusMessage(QString::fromStdString(plan.note));
    return;
  }
  if (!plan.note.empty()) {
    Q_EMIT session_->statusMessage(current.name + QLatin1Char(' ') +
                                   QString::fromStdString(plan.note));
  }
  core::ai::InferRequest request = plan.request;
  proposalRefines_.reset();
  // The segment to refine is read from a worker copy of its map, in the job.
  std::shared_ptr<const core::LabelMap> refineCopy;
  const auto [refineMap, refineLabel] = interaction_.target();
  const std::uint64_t refineVersion = refineMap ? refineMap->version() : 0;
  if (plan.refinesSegment) {
    refineCopy = session_->readCopy(*refineMap);
    if (!refineCopy) {
      // The copy catches up with the last edits within a few event-loop turns, or once an
      // earlier job lets go of it.
      if (++refineCopyRetries_ > kRefineCopyRetries) {
        refineCopyRetries_ = 0;
        Q_EMIT failed(
            tr("%1: the segment to refine could not be read; try Run again").arg(current.name));
        return;
      }
      QTimer::singleShot(kRefineCopyRetryMs, this, [this] { run(); });
      return;
    }
    refineCopyRetries_ = 0;
    proposalRefines_ = refineLabel;
  }
  const Backend& chosen = backends_[static_cast<std::size_t>(current_)];
  if (!chosen.url.isEmpty()) {
    // Asked here, before any job, so that the warning comes at once and nothing changes; the
    // client asks again before it sends (the one check a script cannot skip).
    core::deid::OutboundPolicy policy;
    policy.deidentify = chosen.deidentify;
    if (const auto refusal = core::deid::outboundRefusal(*image, policy)) {
      Q_EMIT failed(tr("%1: not sent: %2. De-identification is on for this server; turn it off "
                       "only for a server trusted with identifiable images.")
                        .arg(chosen.name, QString::fromStdString(*refusal)));
      return;
    }
  }
  std::shared_ptr<core::ai::AiBackend> backend = chosen.backend;
  runJob(tr("AI: %1").arg(QString::fromStdString(request.model)),
         [backend, request, refineCopy, masks = segmentMasks_, source = refineMap, refineVersion,
          label = refineLabel](core::ProgressSink& progress) mutable {
           if (refineCopy) {
             request.initialMask = masks->maskOf(*refineCopy, source, refineVersion, label);
           }
           return backend->infer(request, progress);
         });
}

void AiController::runJob(const QString& title,
                          std::function<core::ai::InferResult(core::ProgressSink&)> work) {
  const QString server = backends_[static_cast<std::size_t>(current_)].name;
  // Starting a job cancels the one running: a click during a request re-issues it.
  inferJobs_->run<std::shared_ptr<Proposal>>(
      title,
      [work](core::ProgressSink& progress) {
        core::ai::InferResult result = work(progress);
        auto p = std::make_shared<Proposal>();
        p->labels = std::move(result.labels);
        p->box = core::contentBox(*p->labels);
        p->timings = result.timings;
        p->leaseRenewed = result.params.is_object() && result.params.value("lease_renewed", false);
        return p;
      },
      [this, server](std::shared_ptr<Proposal> p) {
        timings_ = p->timings;
        leaseRenewed_ = p->leaseRenewed;
        const core::VoxelBox changed = interaction_.setProposal(p->labels, p->box);
        showProposal();
        display_->voxelsChanged(*interaction_.proposal(), changed);
        Q_EMIT proposalChanged();
        Q_EMIT session_->statusMessage(
            p->leaseRenewed ? server + QStringLiteral(": ") + timingsText() : timingsText());
      },
      [this, server](const QString& error, bool cancelled) {
        if (!cancelled) {
          Q_EMIT failed(tr("%1: %2").arg(server, error));
        }
      });
}

bool AiController::busy() const {
  return inferJobs_->busy();
}

void AiController::cancel() {
  inferJobs_->cancel();
}

void AiController::showProposal() {
  const auto& p = interaction_.proposal();
  display_->setProposal(p);
  if (p) {
    for (const core::Segment& s : p->segments()) {
      display_->setSegmentOpacity(*p, s.label, kProposalOpacity);
    }
  }
}

bool AiController::accept() {
  const std::shared_ptr<core::LabelMap> proposal = interaction_.proposal();
  // An automatic model runs without clicks, so there may be no label map yet: make one.
  auto map = proposal ? session_->ensureLabelMap() : nullptr;
  if (!proposal || !map) {
    return false;
  }
  if (session_->refuseEdit()) {
    return false;
  }
  const auto start = std::chrono::steady_clock::now();
  // One structure: the active segment; several: the segments of their names (new ones added);
  // the user's rules for this model over both (ProposalLabelPlan).
  annotation::ProposalLabelPlan plan = annotation::planProposalLabels(
      *proposal, map->segments(), session_->activeLabel(), labelRules(model_));
  Accepted record;
  record.map = map.get();
  record.backend = current_ >= 0 ? backends_[std::size_t(current_)].name : QString();
  record.model = model_;
  if (current_ >= 0) {
    if (const auto& info = backends_[std::size_t(current_)].info) {
      const core::ai::ModelInfo* m = info->findModel(model_.toStdString());
      record.modelVersion =
          m && !m->version.empty() ? QString::fromStdString(m->version)
          : info->version.empty()
              ? QString()
              : QString::fromStdString(info->name + " " + info->version).trimmed();
    }
  }
  record.reader = readerName(current_ >= 0 && !backends_[std::size_t(current_)].url.isEmpty()
                                 ? signIn_->user(backends_[std::size_t(current_)].url)
                                 : QString());
  record.clicks = static_cast<int>(interaction_.clicksOf(interaction_.target()).size());
  // A refinement also takes away what the segment had and the proposal has not, anywhere.
  const std::optional<std::uint16_t> refined = proposalRefines_;
  const core::VoxelBox box =
      refined ? core::VoxelBox::whole(map->geometry().size) : interaction_.proposalBox();
  const core::PaintPolicy policy = session_->policy();
  if (box.count() <= workerMergeVoxels_) {
    for (const auto& [from, to] : plan.valueMap) {
      record.labels.emplace_back(to, core::captureProposal(*proposal, from, box));
    }
    core::VoxelDelta delta =
        annotation::mergeProposal(*proposal, *map, plan.valueMap, box, policy, refined);
    return finishAccept(std::move(record), std::move(delta), std::move(plan.table), proposal,
                        start);
  }
  // A whole-image answer: worked out on a worker from the map as it is (the session holds it
  // busy meanwhile), written into the map here in one pass.
  struct Merged {
    std::vector<std::pair<std::uint16_t, core::ProposalSnapshot>> labels;
    core::VoxelDelta delta;
  };
  const std::map<std::uint16_t, std::uint16_t> valueMap = plan.valueMap;
  return jobs_->run<Merged>(
      tr("Accepting the AI proposal"),
      [proposal, map, valueMap, box, policy, refined](core::ProgressSink& progress) {
        Merged m;
        for (const auto& [from, to] : valueMap) {
          progress.throwIfCancelled();
          m.labels.emplace_back(to, core::captureProposal(*proposal, from, box));
        }
        core::SubProgress merging(progress, 0.2, 1);
        m.delta =
            annotation::planProposalMerge(*proposal, *map, valueMap, box, policy, merging, refined);
        return m;
      },
      [this, map, record, table = std::move(plan.table), proposal, start](Merged m) mutable {
        if (session_->activeMap() != map) {
          return;  // the map was closed meanwhile
        }
        m.delta.apply(*map, true);
        record.labels = std::move(m.labels);
        finishAccept(std::move(record), std::move(m.delta), std::move(table), proposal, start);
      },
      [this](const QString& error) { Q_EMIT failed(tr("Accept: %1").arg(error)); });
}

bool AiController::finishAccept(Accepted record, core::VoxelDelta delta,
                                std::optional<std::vector<core::Segment>> table,
                                const std::shared_ptr<core::LabelMap>& proposal,
                                std::chrono::steady_clock::time_point start) {
  const bool changed = !delta.empty() || table;
  session_->commitEdit("Accept AI proposal", std::move(delta), std::move(table));
  mergeSeconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // A newer answer (a click made while a large merge ran) stays to be judged on its own.
  if (interaction_.proposal() == proposal) {
    interaction_.clearProposal();
    interaction_.clearClicks();
    interaction_.setFrozen(std::nullopt);
  }
  showProposal();
  updateMarkers();
  Q_EMIT proposalChanged();
  Q_EMIT session_->statusMessage(timingsText());
  if (changed) {
    Q_EMIT accepted(record);
  }
  return changed;
}

void AiController::reject() {
  inferJobs_->cancel();
  if (!interaction_.proposal()) {
    return;
  }
  interaction_.clearProposal();
  showProposal();
  Q_EMIT proposalChanged();
}

void AiController::setFrozen(bool frozen) {
  const core::VolumePtr image = session_->image();
  interaction_.setFrozen(frozen && image ? std::optional(annotation::sliceRegion(
                                               image->geometry(), lastVoxel_, lastAxis_))
                                         : std::nullopt);
}

QString AiController::timingsText() const {
  if (!timings_) {
    return {};
  }
  const core::ai::InferTimings& t = *timings_;
  QString text = leaseRenewed_ ? tr("Session renewed (the server had let it go; the image and "
                                    "prompts were sent again). ")
                               : QString();
  text += t.serverSeconds ? tr("Server %1 s").arg(*t.serverSeconds, 0, 'f', 2)
                          : tr("Server time not reported");
  text += tr(" · client: upload %1 s, wait %2 s, download %3 s, decode %4 s, merge %5 s")
              .arg(t.uploadSeconds, 0, 'f', 2)
              .arg(t.waitSeconds, 0, 'f', 2)
              .arg(t.downloadSeconds, 0, 'f', 2)
              .arg(t.decodeSeconds, 0, 'f', 3)
              .arg(mergeSeconds_, 0, 'f', 3);
  return text;
}

void AiController::resetForImage() {
  inferJobs_->cancel();
  image_ = session_->image().get();
  interaction_ = annotation::AiInteraction();
  showProposal();
  updateMarkers();
  Q_EMIT proposalChanged();
}

}  // namespace delineate::app
