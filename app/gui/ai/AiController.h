#pragma once
// AI-assisted segmentation in the app: the backends (made by the AI-backend plugins, see
// PluginHost: the built-in engine, and the servers in the settings), the click tools, the markers
// on the views, inference as a cancellable job (a click while one runs cancels it and asks again),
// the proposal drawn semi-transparent, and Accept (one undo step under the paint-over policy) /
// Reject / Freeze. The GUI never waits on the network. Servers with sign-in on are signed in
// through ServerSignIn (keychain first, then signInRequired for the dock's dialog).
#include <QObject>
#include <QString>
#include <QStringList>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "annotation/ai/AiClickTool.h"
#include "annotation/ai/AiInteraction.h"
#include "annotation/ai/ProposalLabelPlan.h"
#include "annotation/ai/SegmentMaskCache.h"
#include "core/ai/AiBackend.h"
#include "core/edit/VoxelDelta.h"
#include "core/metrics/ProposalSnapshot.h"

namespace delineate::viewers {
class LabelDisplayState;
class MarkerState;
}  // namespace delineate::viewers

namespace delineate::app {

class EditSession;
class JobRunner;
class ServerSignIn;
class EditJobs;
class ToolController;

class AiController : public QObject {
  Q_OBJECT

 public:
  struct Backend {
    QString name;
    QString url;    // empty for the built-in engine
    QString entry;  // as kept in the settings (ServerEntry): the URL, or "clara-aiaa <url>"
    // De-identify before sending (servers only; the built-in engine sends nothing): an image
    // that may show identifying text is refused with a warning, nothing sent.
    bool deidentify = true;
    std::shared_ptr<core::ai::AiBackend> backend;
    std::optional<core::ai::ServerInfo> info;
    QString status;  // "connected", or what went wrong
    QString kind;    // the plugin that made it ("builtin", "monai-label"); empty: the app itself
    QString note;    // said after the status: that its plugin is missing
  };

  // What an Accept merged: per label of the map, the proposal's voxels as the AI gave them (the
  // correction record compares the saved map with them).
  struct Accepted {
    const core::LabelMap* map = nullptr;
    std::vector<std::pair<std::uint16_t, core::ProposalSnapshot>> labels;  // map label, proposal
    QString backend;
    QString model;
    // The model's version as the server gives it, else the server's own version ("MONAI Label
    // app 0.8.1"); empty when it gives neither.
    QString modelVersion;
    // Who accepted it: the name signed in to the AI server, else the login name.
    QString reader;
    int clicks = 0;
  };

  AiController(EditSession* session, ToolController* tools, EditJobs* jobs,
               std::shared_ptr<viewers::MarkerState> markers, QObject* parent = nullptr);
  ~AiController() override;

  const std::vector<Backend>& backends() const { return backends_; }
  int backendIndex() const { return current_; }
  // Selects a backend and asks it for its models (a job); statusChanged tells the outcome.
  void setBackend(int index);
  // Where the labels of `model`'s proposals go on Accept, as the user set it (kept in the
  // settings per model name); empty: by the default (ProposalLabelPlan).
  annotation::LabelRules labelRules(const QString& model) const;
  void setLabelRules(const QString& model, const annotation::LabelRules& rules);
  // The label names the current model proposes: those of the proposal shown, else the model's
  // own (from the server's info); and the active label map's segment names.
  std::vector<std::string> modelLabelNames() const;
  std::vector<std::string> activeSegmentNames() const;
  // Adds a server of a plugin kind ("monai-label", "clara-aiaa", or a third party's), kept in the
  // settings; returns its index.
  int addServer(const QString& url, const QString& kind = QStringLiteral("monai-label"));
  // Forgets the server at `index` (not the built-in engine at 0): gone from the list and the
  // settings; a request running on it is cancelled. Returns false when there is nothing to remove.
  bool removeServer(int index);
  // Turns "de-identify before sending" on or off for the server at `index` (kept with its entry
  // in the settings); the built-in engine has no such setting. The server's client is made
  // again with the new policy, keeping its sign-in, models and any proposal shown.
  void setDeidentify(int index, bool on);
  // The kinds of server the loaded plugins can talk to (all but the built-in engine), and a
  // kind's display name ("MONAI Label").
  static QStringList serverKinds();
  static QString serverKindName(const QString& kind);
  // Asks the current backend for its models again (after signing in when the server wants it).
  void refresh();
  // Signs in to the server at `url` (a job), then asks it for its models.
  void signIn(const QString& url, const QString& user, const QString& password,
              bool rememberPassword);
  ServerSignIn* serverSignIn() const { return signIn_; }
  bool connected() const;

  // Models of the current backend that take clicks or run alone, and the chosen one.
  QStringList models() const;
  const QString& model() const { return model_; }
  void setModel(const QString& name);

  bool runOnClick() const { return runOnClick_; }
  void setRunOnClick(bool on) { runOnClick_ = on; }
  // Whether a request refines the target segment as it stands (its voxels sent as the initial
  // mask to a backend that takes one) instead of starting afresh.
  bool refineSegment() const { return refineSegment_; }
  void setRefineSegment(bool on) { refineSegment_ = on; }

  // A click of the tools (world LPS mm): recorded for the active segment, shown, and run.
  void click(const core::Vec3& world, annotation::ClickKind kind,
             const core::Vec3& sliceNormal = {0, 0, 1});
  void clearClicks();
  // A box, scribble or lasso (PromptShapes): refused, naming the backend and the prompt kind,
  // when the backend does not take it; else recorded for the active segment as one undo step,
  // shown until accepted, and run. False when refused.
  bool prompt(core::ai::Prompt prompt, annotation::AiInteraction::DrawnOutline drawn);
  // The structure ends on the slice through `cursor` (world LPS mm) along the axis of the
  // active segment's first box drawn on a slice (AiInteraction::markBoxEnd), as one undo step
  // ("Box end slice"), then run. Refused with a message (false) on a backend that does not use
  // a box's span, without such a box, or on the box's own slice.
  bool markBoxEnd(const core::Vec3& cursor);
  // Servers whose kind takes a static API key (nnInteractive): kept in the keychain per URL and
  // handed to the backend; empty forgets it.
  static bool usesApiKey(const QString& kind);
  void setApiKey(int index, const QString& key);
  // Takes back the latest click or prompt (Edit > Undo of its step): on a backend with server
  // undo (nnInteractive) the server takes it back, else the model runs on what is left.
  void takeBackLastStep();
  void run();
  bool busy() const;
  // The requests to the current backend (inference, and asking for its models): the AI panel
  // shows their progress with Cancel.
  JobRunner* inferJobs() const { return inferJobs_; }
  JobRunner* infoJobs() const { return infoJobs_; }
  void cancel();

  bool hasProposal() const { return interaction_.proposal() != nullptr; }
  const annotation::AiInteraction& interaction() const { return interaction_; }
  // Merges the proposal into the active label map (one undo entry); false when nothing merged.
  // A proposal over more than workerMergeVoxels() (an automatic model's whole-image answer) is
  // merged by a job, with progress and Cancel, while the views keep drawing: true then means
  // the merge started; `accepted` follows when it lands.
  bool accept();
  static constexpr std::size_t kWorkerMergeVoxels = std::size_t(4) << 20;
  // How long Run waits for the worker copy of the segment's map to catch up with the last edits.
  static constexpr int kRefineCopyRetryMs = 20;
  static constexpr int kRefineCopyRetries = 250;
  std::size_t workerMergeVoxels() const { return workerMergeVoxels_; }
  void setWorkerMergeVoxels(std::size_t voxels) { workerMergeVoxels_ = voxels; }
  void reject();
  // Freeze: later results may only add to the slice of the last click.
  void setFrozen(bool frozen);
  bool frozen() const { return interaction_.frozen().has_value(); }

  // The last inference's timings, the server's beside the client's.
  const std::optional<core::ai::InferTimings>& lastTimings() const { return timings_; }
  QString timingsText() const;

 Q_SIGNALS:
  void backendsChanged();
  void statusChanged(const QString& status);
  void modelsChanged();
  void proposalChanged();
  void accepted(const delineate::app::AiController::Accepted& accepted);
  void busyChanged(bool busy);
  void failed(const QString& message);
  // The server at `url` wants a user name and password (`reason`: why, e.g. a rejected one).
  void signInRequired(const QString& url, const QString& reason);

 private:
  // The target segment when refineSegment() is on and the segment is in its map's table.
  bool hasSegmentToRefine() const;
  // Whether the steps so far can run: a positive click or prompt, or a segment to refine.
  bool readyToRun() const;
  // After the merge: the undo entry, the clicks and proposal cleared, `accepted` emitted.
  bool finishAccept(Accepted record, core::VoxelDelta delta,
                    std::optional<std::vector<core::Segment>> table,
                    const std::shared_ptr<core::LabelMap>& proposal,
                    std::chrono::steady_clock::time_point start);
  // Made by the plugin of their kind (PluginHost); a server whose plugin is missing has no
  // backend, only a note saying so.
  static Backend serverBackend(const QString& entry);
  void saveServers() const;
  // The settings list of the servers (ServerEntry strings).
  static constexpr const char* kServersKey = "ai/servers";
  // Reads a server's API key from the keychain (asynchronously) into its backend.
  void attachApiKey(const Backend& b);
  static Backend builtinEngine();
  void needSignIn(int index, const QString& reason);
  void updateMarkers();
  // The undo entry of the step just added (its name: "Box prompt", "Click", "Box end slice";
  // `boxEnd`: the slice of a box end, which redo marks again).
  void pushStep(std::optional<std::size_t> boxEnd = std::nullopt);
  void showProposal();
  // Shows a result of the current backend as the proposal.
  void runJob(const QString& title, std::function<core::ai::InferResult(core::ProgressSink&)> work);
  void resetForImage();
  std::string segmentName() const;

  EditSession* session_;
  ToolController* tools_;
  EditJobs* jobs_;
  std::size_t workerMergeVoxels_ = kWorkerMergeVoxels;
  std::shared_ptr<viewers::MarkerState> markers_;
  std::shared_ptr<viewers::LabelDisplayState> display_;
  JobRunner* inferJobs_;
  JobRunner* infoJobs_;
  ServerSignIn* signIn_;
  std::vector<Backend> backends_;
  int current_ = 0;
  QString model_;
  bool runOnClick_ = true;
  bool refineSegment_ = false;
  // The label the current proposal refines (its segment's voxels it lacks are cleared on
  // accept); nullopt for a proposal made afresh.
  std::optional<std::uint16_t> proposalRefines_;
  int refineCopyRetries_ = 0;
  // Built in the AI job from a worker copy of the map (never on the GUI thread).
  std::shared_ptr<annotation::SegmentMaskCache> segmentMasks_ =
      std::make_shared<annotation::SegmentMaskCache>();
  annotation::AiInteraction interaction_;
  std::unique_ptr<annotation::AiClickTool> clickTool_;
  std::unique_ptr<annotation::AiClickTool> extremeTool_;
  std::optional<core::ai::InferTimings> timings_;
  bool leaseRenewed_ = false;  // the last result came after the server's session was renewed
  double mergeSeconds_ = 0;
  const core::Volume* image_ = nullptr;
  int lastAxis_ = 2;
  // Undo entries of AI steps call back only while this controller lives.
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
  core::ai::VoxelIndex lastVoxel_{};
};

}  // namespace delineate::app
