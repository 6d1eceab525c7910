#pragma once
// The MONAI Label client (docs/ai-protocol.md; docs/ai.md), Qt-free: /info/ models, inference with
// clicks (deepgrow, deepedit), automatic models and extreme points, the image sent once per server
// session (PUT /session/) or referenced by datastore id, the session re-created once when the
// server forgot it, the datastore, active learning and training. Every answer other than success
// becomes a core::Error naming the server and what happened (a ServerAnswerError with the HTTP
// status and Retry-After when the server answered); the returned label is checked
// against the image grid before anything reaches the user's label map. With auth on, every call
// carries the bearer token and renews it once (MonaiAuth) when it is about to expire or the
// server says it no longer validates; a call that still answers 401 throws SignInRequired.
// Models without voxel output (detection, classification: MONAI Label answers their result JSON
// alone) give an InferResult with null labels and the result in `params`.
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "core/ai/AiBackend.h"
#include "core/ai/ImageSessionCache.h"
#include "core/deid/OutboundPolicy.h"
#include "core/net/HttpClient.h"
#include "plugins/monai-label/MonaiAuth.h"

namespace delineate::plugins {

struct MonaiServerConfig {
  std::string url;    // e.g. http://127.0.0.1:8000
  std::string token;  // access token when the server has auth on (no renewal); empty: none
  core::net::TlsOptions tls;
  std::string clientId = "delineate";
  std::chrono::milliseconds connectTimeout{5000};
  std::chrono::milliseconds infoTimeout{30000};  // may stall behind someone's inference
  std::chrono::milliseconds inferTimeout{600000};
  std::chrono::seconds sessionExpiry{3600};
  // Checked before an image is sent (session, upload, datastore): with de-identification on, an
  // image that may show identifying text is refused (core::deid::HeldBackError), nothing sent.
  core::deid::OutboundPolicy outbound;
  // true: the image goes once into a server session and clicks reference it; false: every
  // request carries the image (one call, for scripts).
  bool useSessions = true;
};

class MonaiLabelBackend : public core::ai::AiBackend {
 public:
  explicit MonaiLabelBackend(MonaiServerConfig config,
                             std::unique_ptr<core::net::HttpClient> http = nullptr);

  std::string displayName() const override;
  core::ai::ServerInfo info(core::ProgressSink& progress) override;
  // Clicks (deepgrow, deepedit, DEXTR3D as extreme points) and positive boxes, sent as the
  // region of interest MONAI Label's models read (`roi`, as 3D Slicer sends it; a deepgrow model
  // without a foreground click gets the box's centre as one); sessions, datastore, training.
  core::ai::BackendCapabilities capabilities() const override {
    core::ai::BackendCapabilities c;
    c.promptKinds = {core::ai::PromptKind::Box};
    c.sessions = c.datastore = c.training = true;
    return c;
  }
  core::ai::InferResult infer(const core::ai::InferRequest& request,
                              core::ProgressSink& progress) override;

  std::string uploadImage(const core::Volume& image, const std::string& id,
                          core::ProgressSink& progress) override;
  void submitLabel(const std::string& imageId, const core::LabelMap& labels, const std::string& tag,
                   core::ProgressSink& progress) override;
  std::string putImageFile(const std::string& id, const core::ai::DatastoreFile& file,
                           core::ProgressSink& progress) override;
  void putLabelFile(const std::string& imageId, const std::string& tag,
                    const core::ai::DatastoreFile& file, core::ProgressSink& progress) override;
  // MONAI Label answers {} for an id it does not hold; that, null and 404 are all "none".
  std::optional<nlohmann::json> imageInfo(const std::string& id,
                                          core::ProgressSink& progress) override;
  std::optional<nlohmann::json> labelInfo(const std::string& imageId, const std::string& tag,
                                          core::ProgressSink& progress) override;
  // An answer without `objects` (an empty datastore of an older server) is an empty listing.
  nlohmann::json datastoreObjects(core::ProgressSink& progress) override;
  std::optional<core::ai::NextSample> nextSample(const std::string& strategy,
                                                 core::ProgressSink& progress) override;
  void fetchImage(const std::string& id, const std::string& path,
                  core::ProgressSink& progress) override;
  bool fetchLabel(const std::string& imageId, const std::string& tag, const std::string& path,
                  core::ProgressSink& progress) override;
  core::ai::TrainStatus startTraining(const std::string& model, const nlohmann::json& config,
                                      core::ProgressSink& progress) override;
  core::ai::TrainStatus trainingStatus(core::ProgressSink& progress) override;
  void stopTraining(core::ProgressSink& progress) override;

  // Sign-in (docs/ai.md, "Signing in"): whether GET /auth/ says auth is on, the password grant, and
  // the token state (the app keeps the refresh token in the keychain and hands it back here).
  bool signInEnabled(core::ProgressSink& progress) override { return auth_.enabled(progress); }
  core::ai::SignInTokens signIn(const std::string& user, const std::string& password,
                                core::ProgressSink& progress) override {
    return auth_.login(user, password, progress);
  }
  core::ai::SignInTokens signInTokens() const override { return auth_.tokens(); }
  void setSignInTokens(const core::ai::SignInTokens& tokens) override { auth_.setTokens(tokens); }

  // The server session holding `image`, if one was created (tests, diagnostics).
  std::string sessionFor(const core::Volume& image);

 private:
  core::net::HttpResponse call(const std::string& method, const std::string& path,
                               std::string contentType, std::string body,
                               std::chrono::milliseconds timeout, core::ProgressSink& progress);
  // Throws the user-facing error for a non-2xx answer: a core::ai::ServerAnswerError carrying the
  // status and Retry-After, so that a queue can tell "try again later" from "refused".
  [[noreturn]] void fail(const core::net::HttpResponse& response, const std::string& what) const;
  // GET of a datastore info route: the JSON object, nullopt when the server holds none.
  std::optional<nlohmann::json> datastoreInfo(const std::string& path, const std::string& what,
                                              core::ProgressSink& progress);
  // The new session's id; empty when the server has sessions turned off (406), which then
  // holds for this server: the image goes with each request instead.
  std::string createSession(const core::Volume& image, core::ai::InferTimings& timings,
                            core::ProgressSink& progress);
  // Whether the server no longer knows session `id` (GET /session/{id} answers 404). A real
  // MONAI Label server answers an inference on an expired session with a bare 500.
  bool sessionGone(const std::string& id, core::ProgressSink& progress);
  nlohmann::json inferParams(const core::ai::InferRequest& request, core::ProgressSink& progress);
  // Whether the request's model has no voxel output (ModelGroup::Others: detection,
  // classification, ...), so that an answer of JSON alone is its whole result; for the other
  // models such an answer is an error, as it always was.
  bool resultIsJsonOnly(const core::ai::InferRequest& request);
  std::shared_ptr<core::LabelMap> labelsFrom(const std::string& bytes, const std::string& name,
                                             const core::ai::InferRequest& request,
                                             const std::vector<core::ai::ModelLabel>& names,
                                             core::ProgressSink& progress) const;

  MonaiServerConfig config_;
  std::unique_ptr<core::net::HttpClient> http_;
  MonaiAuth auth_;
  std::mutex mutex_;
  std::optional<core::ai::ServerInfo> info_;
  core::ai::ImageSessionCache sessions_;
  std::atomic<bool> sessionsOff_{false};  // the server answered 406 to PUT /session/
};

}  // namespace delineate::plugins
