#pragma once
// The Clara AIAA v1 API subset the AIAA clients use (docs/ai.md, "Clara AIAA servers"), answered by
// the same backend and session store as the MONAI Label routes, so that one delineate-server serves
// both kinds of client:
//   GET  /v1/models[?model=|type=]           the backend's models in AIAA's shape
//   POST /v1/segmentation?model=[&session_id=] automatic segmentation of the image
//   POST /v1/deepgrow?model=[&session_id=]     params foreground / background clicks
//   POST /v1/dextr3d?model=[&session_id=]      params `points`: six extreme points (the client
//                                              sends the cropped, resampled image)
// The image comes in the form part `image` (or `datapoint`, the Python client's name) or from a
// session; a session that is unknown or expired answers HTTP 440 like AIAA. Errors have AIAA's
// JSON shape {"error": {"message": [...], "type": ...}, "success": false}.
#include <memory>
#include <string>

#include "app/server/SessionStore.h"
#include "core/ai/AiBackend.h"
#include "core/net/HttpServer.h"

namespace delineate::server {

class AiaaApi {
 public:
  // Advertised for DEXTR3D models: the margin (mm) and the size clients resample the crop to.
  static constexpr double kDextr3dPaddingMm = 20.0;
  static constexpr std::size_t kDextr3dRoi = 96;

  AiaaApi(std::shared_ptr<core::ai::AiBackend> backend, SessionStore& sessions);

  // `route`: the path after "/v1/", e.g. "models", "deepgrow".
  core::net::HttpResponse handle(const std::string& route, const core::net::ServerRequest& r);

 private:
  core::net::HttpResponse models(const core::net::ServerRequest& r);
  core::net::HttpResponse infer(const std::string& route, const core::net::ServerRequest& r);

  std::shared_ptr<core::ai::AiBackend> backend_;
  SessionStore& sessions_;
};

}  // namespace delineate::server
