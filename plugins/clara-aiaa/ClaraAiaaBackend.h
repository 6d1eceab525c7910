#pragma once
// The NVIDIA Clara AIAA v1 client (docs/ai.md, "Clara AIAA servers"), Qt-free: GET /v1/models;
// automatic segmentation (POST /v1/segmentation); deepgrow from foreground/background clicks (POST
// /v1/deepgrow); DEXTR3D from six extreme points (POST /v1/dextr3d) with the client-side crop,
// resampling to the model's roi and paste-back (core/ai/Dextr3dCrop); the image sent once per
// server session (PUT /session/), and a session the server let expire (HTTP 440) created again
// and the call retried once. Errors name the server; a result is checked against the image grid
// before it becomes a proposal.
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/ai/AiBackend.h"
#include "core/ai/AiaaModels.h"
#include "core/ai/ImageSessionCache.h"
#include "core/deid/OutboundPolicy.h"
#include "core/net/HttpClient.h"

namespace delineate::plugins {

struct ClaraServerConfig {
  std::string url;  // e.g. http://gpu-box:5000
  core::net::TlsOptions tls;
  std::chrono::milliseconds connectTimeout{5000};
  std::chrono::milliseconds infoTimeout{30000};
  std::chrono::milliseconds inferTimeout{600000};
  std::chrono::seconds sessionExpiry{3600};
  // Checked before an image is sent (session, upload, datastore): with de-identification on, an
  // image that may show identifying text is refused (core::deid::HeldBackError), nothing sent.
  core::deid::OutboundPolicy outbound;
  bool useSessions = true;  // false: every call carries the image
  // The form field of the image: "image" (the C++ client, 4.x docs) or "datapoint" (the Python
  // client and the Slicer plugin).
  std::string imageField = "image";
};

class ClaraAiaaBackend : public core::ai::AiBackend {
 public:
  explicit ClaraAiaaBackend(ClaraServerConfig config,
                            std::unique_ptr<core::net::HttpClient> http = nullptr);

  std::string displayName() const override;
  core::ai::ServerInfo info(core::ProgressSink& progress) override;
  // Clicks and extreme points only; the image kept in a server session.
  core::ai::BackendCapabilities capabilities() const override {
    core::ai::BackendCapabilities c;
    c.sessions = true;
    return c;
  }
  core::ai::InferResult infer(const core::ai::InferRequest& request,
                              core::ProgressSink& progress) override;

  std::vector<core::ai::AiaaModel> models(core::ProgressSink& progress);
  // The server session holding `image`, if one was created (tests, diagnostics).
  std::string sessionFor(const core::Volume& image);

 private:
  core::net::HttpResponse call(const std::string& method, const std::string& path,
                               std::string contentType, std::string body,
                               std::chrono::milliseconds timeout, core::ProgressSink& progress);
  std::string createSession(const core::Volume& image, core::ai::InferTimings& timings,
                            core::ProgressSink& progress);
  core::ai::AiaaModel modelNamed(const std::string& name, core::ProgressSink& progress);
  core::ai::InferResult dextr3d(const core::ai::InferRequest& request,
                                const core::ai::AiaaModel& model, core::ProgressSink& progress);
  // One POST to /v1/<route> with the image in a session (or uploaded); the answer's label
  // volume and params. Retries once after a 440.
  struct Answer {
    core::VolumePtr volume;
    nlohmann::json params;
  };
  Answer post(const std::string& route, const std::string& model, const nlohmann::json& params,
              const core::VolumePtr& image, bool allowSession, core::ai::InferTimings& timings,
              core::ProgressSink& progress);

  ClaraServerConfig config_;
  std::unique_ptr<core::net::HttpClient> http_;
  std::mutex mutex_;
  std::optional<std::vector<core::ai::AiaaModel>> models_;
  core::ai::ImageSessionCache sessions_;
};

}  // namespace delineate::plugins
