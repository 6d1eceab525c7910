#pragma once
// What the workstation asks of an AI-assisted annotation backend: a MONAI Label server, a Clara
// AIAA server, an nnInteractive server or the built-in engine. Blocking calls, run as jobs by the
// app; each checks the ProgressSink for Cancel. Errors are core::Error naming the backend (the
// server URL) and what happened; the caller's label map is never touched here — a result is a
// proposal.
//
// ServerInfo (core/ai/ServerInfo.h) says what a backend offers, in MONAI Label's words (models
// with a type, labels with voxel values, dimension), the de-facto standard the other backends map
// onto; capabilities() what it takes.
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/ai/ClickIndex.h"
#include "core/ai/Prompt.h"
#include "core/ai/ServerInfo.h"
#include "core/ai/SignIn.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMap.h"
#include "core/model/Volume.h"

namespace delineate::core::ai {

struct InferRequest {
  std::string model;
  // The image the clicks were placed on; sent once per session (or referenced by `imageId`).
  VolumePtr image;
  std::string imageId;  // a datastore id the server knows; empty: use a session / upload
  std::string label;    // the segment the clicks are for (deepgrow, deepedit)
  std::vector<VoxelIndex> foreground;
  std::vector<VoxelIndex> background;
  // deepedit: clicks per label name (foreground of that label).
  std::vector<std::pair<std::string, std::vector<VoxelIndex>>> perLabel;
  // DEXTR3D / extreme-point models: six points on the structure's extremes.
  std::vector<VoxelIndex> extremePoints;
  std::optional<std::int64_t> slice;  // 2D models: the slice being worked on
  nlohmann::json options;             // model options chosen by the user (config keys)
  // Boxes, scribbles and lassos (and points given as prompts), oldest first, for backends whose
  // capabilities list their kinds. Clicks stay in foreground/background.
  std::vector<Prompt> prompts;
  // The structure as it stands, to be refined rather than started afresh (nnInteractive's
  // initial segmentation): 1 per voxel of the image grid, x fastest. Null: start from nothing.
  // Backends whose capabilities() do not list initialMasks ignore it.
  std::shared_ptr<const std::vector<std::uint8_t>> initialMask;
  // A probability map (floating-point values in 0..1) is a welcome answer: it comes back as
  // InferResult::probability instead of being refused as labels (mammography heatmaps).
  bool acceptProbability = false;
};

// What a backend takes and does, declared so that the app and the CLI offer only what works
// and refuse the rest naming the backend and the prompt kind.
struct BackendCapabilities {
  std::vector<PromptKind> promptKinds;  // what InferRequest::prompts may hold
  bool serverUndo = false;              // undoLastPrompt() takes a prompt back on the server
  bool initialMasks = false;            // InferRequest::initialMask is refined
  bool sessions = false;                // the image is sent once and kept by the server
  bool training = false;
  bool datastore = false;
  bool boxSpans = false;  // a 2-D box's span along its axis (Prompt::spanLo, spanHi) is used

  bool takes(PromptKind kind) const;
};

// Where the seconds of one inference went: the client's own view beside the server's.
struct InferTimings {
  double uploadSeconds = 0;    // image (first call of a session) and request sent
  double waitSeconds = 0;      // sent -> first byte of the answer (server work + queue)
  double downloadSeconds = 0;  // the answer's bytes
  double decodeSeconds = 0;    // reading the returned label volume onto the image grid
  double totalSeconds = 0;
  std::optional<double> serverSeconds;  // the server's own `latencies.total`, if it said
  std::size_t bytesSent = 0;
  std::size_t bytesReceived = 0;
  bool sessionCreated = false;  // this call uploaded the image
};

struct InferResult {
  // The proposal on the request image's grid; voxel values are the server's label values, and
  // the segment table names them (from `label_names`, else the model's labels). Null only for a
  // model without voxel output (ModelGroup::Others: detection, classification, ...) whose
  // answer carried no label volume: then `params` is the whole result.
  std::shared_ptr<LabelMap> labels;
  // With InferRequest::acceptProbability: the answer image when it is a probability map (then
  // `labels` is null), as the server sent it.
  VolumePtr probability;
  InferTimings timings;
  nlohmann::json params;  // the result params as the server sent them
};

// One image the server suggests labelling next (active learning).
struct NextSample {
  std::string id;
  std::string path;  // where the server keeps it; readable here only when both share a disk
  nlohmann::json info;
};

// A file on its way to a datastore, already encoded (NIfTI, NRRD, ...; the extension of `filename`
// says which), and the metadata the server stores beside it (MONAI Label's `params`, returned by
// GET /datastore/image/info and /datastore/label/info). The upload queue puts its checksum there.
struct DatastoreFile {
  std::string filename;
  std::string bytes;
  nlohmann::json info = nlohmann::json::object();
};

struct TrainStatus {
  bool running = false;
  std::string id;
  std::string state;  // "SUBMITTED", "RUNNING", "DONE", "ERROR", ...
  nlohmann::json raw;
};

class AiBackend {
 public:
  virtual ~AiBackend() = default;

  // "MONAI Label at https://gpu-box:8000", "Built-in engine".
  virtual std::string displayName() const = 0;
  virtual ServerInfo info(ProgressSink& progress) = 0;
  virtual InferResult infer(const InferRequest& request, ProgressSink& progress) = 0;
  // The default: clicks only, no server undo, nothing else declared.
  virtual BackendCapabilities capabilities() const;
  // Takes the latest prompt back on the server and returns the proposal as it was before it
  // (nnInteractive keeps one level). The default throws Error(Unsupported) naming the backend.
  virtual InferResult undoLastPrompt(ProgressSink& progress);

  // Datastore, active learning and training (the retraining workflow). The defaults throw
  // Error(Unsupported) naming the backend.
  virtual std::string uploadImage(const Volume& image, const std::string& id,
                                  ProgressSink& progress);
  virtual void submitLabel(const std::string& imageId, const LabelMap& labels,
                           const std::string& tag, ProgressSink& progress);
  // The same for files already encoded, with their metadata (dataset upload): PUT
  // /datastore/image?image=ID and PUT /datastore/label?image=ID&tag=TAG. Putting the same id again
  // replaces what the server holds (no second copy).
  virtual std::string putImageFile(const std::string& id, const DatastoreFile& file,
                                   ProgressSink& progress);
  virtual void putLabelFile(const std::string& imageId, const std::string& tag,
                            const DatastoreFile& file, ProgressSink& progress);
  // What the server holds: the stored info of an image / of its label under `tag`, nullopt when
  // it holds none (404).
  virtual std::optional<nlohmann::json> imageInfo(const std::string& id, ProgressSink& progress);
  virtual std::optional<nlohmann::json> labelInfo(const std::string& imageId,
                                                  const std::string& tag, ProgressSink& progress);
  // Every image the datastore holds with its labels by tag and their info: the `objects` of GET
  // /datastore/?output=all, {id: {"image": {"ext", "info"}, "labels": {tag: {"ext", "info"}}}}.
  virtual nlohmann::json datastoreObjects(ProgressSink& progress);
  virtual std::optional<NextSample> nextSample(const std::string& strategy, ProgressSink& progress);
  // Downloads a datastore image (GET /datastore/image?image=ID) into the file `path`, written
  // whole or not at all, for a client that cannot read the server's disk. fetchLabel does the
  // same for its label under `tag` and returns false when the server holds none.
  virtual void fetchImage(const std::string& id, const std::string& path, ProgressSink& progress);
  virtual bool fetchLabel(const std::string& imageId, const std::string& tag,
                          const std::string& path, ProgressSink& progress);
  virtual TrainStatus startTraining(const std::string& model, const nlohmann::json& config,
                                    ProgressSink& progress);
  virtual TrainStatus trainingStatus(ProgressSink& progress);
  virtual void stopTraining(ProgressSink& progress);

  // Sign-in, for servers that may ask for it. The defaults: a backend that never asks.
  // Whether the server wants signing in now (asked of the server once; network failures throw).
  virtual bool signInEnabled(ProgressSink& progress);
  // The password grant; throws Error naming the server (a rejected password says so).
  virtual SignInTokens signIn(const std::string& user, const std::string& password,
                              ProgressSink& progress);
  // The tokens in use, e.g. to keep the refresh token between runs; and to hand one back (its
  // access token empty: renewed on first use). Calls that need a sign-in throw SignInRequired.
  virtual SignInTokens signInTokens() const;
  virtual void setSignInTokens(const SignInTokens& tokens);
};

}  // namespace delineate::core::ai
