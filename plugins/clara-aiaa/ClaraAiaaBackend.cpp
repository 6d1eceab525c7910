#include "plugins/clara-aiaa/ClaraAiaaBackend.h"

#include "core/Error.h"
#include "core/ai/Dextr3dCrop.h"
#include "core/ai/InferResponse.h"
#include "core/ai/MonaiInfo.h"
#include "core/ai/MonaiRequests.h"
#include "core/ai/Multipart.h"
#include "core/ai/ResultLabels.h"
#include "core/ai/ServerAnswerError.h"
#include "core/ai/VolumeBytes.h"
#include "core/deid/OutboundPolicy.h"

namespace delineate::plugins {

namespace ai = core::ai;
namespace net = core::net;
using nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

json pointsJson(const std::vector<ai::VoxelIndex>& points) {
  json out = json::array();
  for (const ai::VoxelIndex& p : points) {
    out.push_back({p[0], p[1], p[2]});
  }
  return out;
}

ai::ResultLabelNames namesFor(const ai::AiaaModel& model, const ai::InferRequest& request) {
  ai::ResultLabelNames names;
  for (std::size_t i = 0; i < model.labels.size(); ++i) {
    names.labels.push_back({model.labels[i], int(i + 1), model.labels[i] == "background"});
  }
  // A one-label model's mask is the structure the user clicked: name it after the segment.
  if (names.labels.size() <= 1 && !request.label.empty()) {
    names.labels.clear();
  }
  names.fallback = request.label.empty() ? model.name : request.label;
  return names;
}

}  // namespace

ClaraAiaaBackend::ClaraAiaaBackend(ClaraServerConfig config, std::unique_ptr<net::HttpClient> http)
    : config_(std::move(config)),
      http_(http ? std::move(http) : net::makeHttpClient(config_.tls)) {}

std::string ClaraAiaaBackend::displayName() const {
  return "Clara AIAA at " + config_.url;
}

net::HttpResponse ClaraAiaaBackend::call(const std::string& method, const std::string& path,
                                         std::string contentType, std::string body,
                                         std::chrono::milliseconds timeout,
                                         core::ProgressSink& progress) {
  net::HttpRequest request;
  request.method = method;
  request.url = ai::joinUrl(config_.url, path);
  request.contentType = std::move(contentType);
  request.body = std::move(body);
  request.connectTimeout = config_.connectTimeout;
  request.timeout = timeout;
  try {
    return http_->send(request, progress);
  } catch (const core::CancelledError&) {
    throw;
  } catch (const core::Error& e) {
    throw core::Error(core::ErrorKind::Network, config_.url, e.detail());
  }
}

std::vector<ai::AiaaModel> ClaraAiaaBackend::models(core::ProgressSink& progress) {
  const net::HttpResponse r = call("GET", "v1/models", {}, {}, config_.infoTimeout, progress);
  if (!r.ok()) {
    const ai::ServerError e = ai::classifyServerAnswer(r.status, r.contentType(), r.body);
    throw ai::ServerAnswerError(config_.url, "GET /v1/models: " + e.message, r.status,
                                ai::parseRetryAfter(r.header("Retry-After")));
  }
  std::vector<ai::AiaaModel> parsed = ai::parseAiaaModels(r.body, config_.url);
  std::lock_guard lock(mutex_);
  models_ = parsed;
  return parsed;
}

ai::ServerInfo ClaraAiaaBackend::info(core::ProgressSink& progress) {
  return ai::aiaaInfo(models(progress), config_.url);
}

ai::AiaaModel ClaraAiaaBackend::modelNamed(const std::string& name, core::ProgressSink& progress) {
  std::optional<std::vector<ai::AiaaModel>> known;
  {
    std::lock_guard lock(mutex_);
    known = models_;
  }
  if (!known) {
    known = models(progress);
  }
  for (const ai::AiaaModel& m : *known) {
    if (m.name == name) {
      return m;
    }
  }
  throw core::Error(core::ErrorKind::InvalidInput, config_.url,
                    "the server has no model named '" + name + "'");
}

std::string ClaraAiaaBackend::sessionFor(const core::Volume& image) {
  return sessions_.idFor(image);
}

std::string ClaraAiaaBackend::createSession(const core::Volume& image, ai::InferTimings& timings,
                                            core::ProgressSink& progress) {
  ai::MultipartEncoder form;
  form.addFile("image", "image.nii.gz", ai::volumeToBytes(image, "image.nii.gz"));
  const std::string type = form.contentType();
  const net::HttpResponse r =
      call("PUT", "session/?expiry=" + std::to_string(config_.sessionExpiry.count()), type,
           form.finish(), config_.inferTimeout, progress);
  if (!r.ok()) {
    const ai::ServerError e = ai::classifyServerAnswer(r.status, r.contentType(), r.body);
    throw ai::ServerAnswerError(config_.url, "creating a session (PUT /session/): " + e.message,
                                r.status, ai::parseRetryAfter(r.header("Retry-After")));
  }
  const json answer = ai::parseServerJson(r.body, "the session answer", config_.url);
  const std::string id = answer.is_object() ? answer.value("session_id", "") : "";
  if (id.empty()) {
    throw core::Error(core::ErrorKind::InvalidInput, config_.url,
                      "the session answer has no session_id");
  }
  timings.sessionCreated = true;
  timings.uploadSeconds += r.timings.uploadSeconds + r.timings.waitSeconds;
  timings.bytesSent += r.timings.bytesSent;
  return id;
}

ClaraAiaaBackend::Answer ClaraAiaaBackend::post(const std::string& route, const std::string& model,
                                                const json& params, const core::VolumePtr& image,
                                                bool allowSession, ai::InferTimings& timings,
                                                core::ProgressSink& progress) {
  const bool session = allowSession && config_.useSessions;
  for (int attempt = 0;; ++attempt) {
    std::string sessionId;
    if (session) {
      sessionId = sessionFor(*image);
      if (sessionId.empty()) {
        sessionId = createSession(*image, timings, progress);
        sessions_.remember(image, sessionId);
      }
    }
    ai::MultipartEncoder form;
    form.addField("params", ai::paramsText(params));
    if (!session) {
      form.addFile(config_.imageField, "image.nii.gz", ai::volumeToBytes(*image, "image.nii.gz"));
    }
    std::string path = "v1/" + route + "?model=" + ai::percentEncode(model);
    if (!sessionId.empty()) {
      path += "&session_id=" + ai::percentEncode(sessionId);
    }
    const std::string type = form.contentType();
    const net::HttpResponse r =
        call("POST", path, type, form.finish(), config_.inferTimeout, progress);
    ai::InferResponse answer;
    try {
      answer = ai::parseInferResponse(r.status, r.contentType(), r.body,
                                      r.header("Content-Disposition"));
    } catch (const core::Error& e) {
      throw core::Error(core::ErrorKind::InvalidInput, config_.url,
                        "the answer of '" + model + "' is malformed: " + e.detail());
    }
    const bool expired =
        answer.error && (answer.error->kind == ai::ServerErrorKind::SessionExpired ||
                         answer.error->kind == ai::ServerErrorKind::SessionNotFound);
    if (expired && attempt == 0 && !sessionId.empty()) {
      sessions_.forget();  // the server let it expire: create it again and retry, once
      continue;
    }
    if (answer.error) {
      throw ai::ServerAnswerError(config_.url,
                                  route + " with '" + model + "': " + answer.error->message,
                                  r.status, ai::parseRetryAfter(r.header("Retry-After")));
    }
    if (!answer.hasImage) {
      throw core::Error(core::ErrorKind::InvalidInput, config_.url,
                        "the answer of '" + model + "' holds no label image");
    }
    timings.uploadSeconds += r.timings.uploadSeconds;
    timings.waitSeconds = r.timings.waitSeconds;
    timings.downloadSeconds = r.timings.downloadSeconds;
    timings.bytesSent += r.timings.bytesSent;
    timings.bytesReceived = r.timings.bytesReceived;
    timings.serverSeconds = answer.latencies.total;
    const auto decodeStart = Clock::now();
    Answer out;
    out.volume = ai::volumeFromBytes(answer.image, answer.imageFilename.value_or("label.nii.gz"),
                                     "the label returned by " + config_.url, progress);
    out.params = answer.params;
    timings.decodeSeconds = since(decodeStart);
    return out;
  }
}

ai::InferResult ClaraAiaaBackend::dextr3d(const ai::InferRequest& request,
                                          const ai::AiaaModel& model,
                                          core::ProgressSink& progress) {
  const auto start = Clock::now();
  const ai::Dextr3dCrop crop = ai::planDextr3dCrop(request.image->geometry(), request.extremePoints,
                                                   model.paddingMm, model.roi);
  const core::VolumePtr cropped = ai::resampleCrop(*request.image, crop);
  const json params = {{"points", pointsJson(ai::pointsInCrop(request.extremePoints, crop))}};
  ai::InferResult result;
  // The crop is new with every set of points: it travels with the call, never in a session.
  const Answer answer =
      post("dextr3d", model.name, params, cropped, false, result.timings, progress);
  const ai::ResultLabelNames names = namesFor(model, request);
  const auto mask = ai::resultLabelMap(*answer.volume, crop.grid, model.name, names, config_.url);
  const auto pasteStart = Clock::now();
  result.labels =
      std::make_shared<core::LabelMap>(model.name, request.image->geometry(), mask->segments());
  ai::pasteCrop(*mask, crop, *result.labels);
  result.timings.decodeSeconds += since(pasteStart);
  result.params = answer.params;
  result.timings.totalSeconds = since(start);
  return result;
}

ai::InferResult ClaraAiaaBackend::infer(const ai::InferRequest& request,
                                        core::ProgressSink& progress) {
  const auto start = Clock::now();
  if (!request.image) {
    throw core::Error(core::ErrorKind::InvalidInput, config_.url, "no image to send");
  }
  // AIAA has no datastore: the image (or its DEXTR3D crop) always goes from here.
  core::deid::requireSendable(*request.image, config_.outbound, config_.url);
  const ai::AiaaModel model = modelNamed(request.model, progress);
  if (!request.extremePoints.empty() || model.isDextr3d()) {
    return dextr3d(request, model, progress);
  }
  ai::InferResult result;
  json params = json::object();
  std::string route = "segmentation";
  if (model.isDeepgrow()) {
    if (request.foreground.empty()) {
      throw core::Error(core::ErrorKind::InvalidInput, config_.url,
                        "deepgrow model '" + model.name + "' needs a click inside the structure");
    }
    route = "deepgrow";
    params = {{"foreground", pointsJson(request.foreground)},
              {"background", pointsJson(request.background)},
              {"current_point", pointsJson({request.foreground.back()}).front()}};
  }
  const Answer answer =
      post(route, model.name, params, request.image, true, result.timings, progress);
  const auto decodeStart = Clock::now();
  result.labels = ai::resultLabelMap(*answer.volume, request.image->geometry(), model.name,
                                     namesFor(model, request), config_.url);
  result.timings.decodeSeconds += since(decodeStart);
  result.params = answer.params;
  result.timings.totalSeconds = since(start);
  return result;
}

}  // namespace delineate::plugins
