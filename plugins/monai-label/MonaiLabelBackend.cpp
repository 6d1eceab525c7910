#include "plugins/monai-label/MonaiLabelBackend.h"

#include <chrono>

#include "core/Error.h"
#include "core/ai/InferResponse.h"
#include "core/ai/MonaiRequests.h"
#include "core/ai/Multipart.h"
#include "core/ai/VolumeBytes.h"
#include "core/edit/LabelMapEdit.h"

namespace delineate::plugins {

namespace ai = core::ai;
namespace net = core::net;
using nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

}  // namespace

MonaiLabelBackend::MonaiLabelBackend(MonaiServerConfig config,
                                     std::unique_ptr<net::HttpClient> http)
    : config_(std::move(config)),
      http_(http ? std::move(http) : net::makeHttpClient(config_.tls)) {}

std::string MonaiLabelBackend::displayName() const {
  return "MONAI Label at " + config_.url;
}

net::HttpResponse MonaiLabelBackend::call(const std::string& method, const std::string& path,
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
  if (!config_.token.empty()) {
    request.headers.emplace_back("Authorization", "Bearer " + config_.token);
  }
  try {
    return http_->send(request, progress);
  } catch (const core::CancelledError&) {
    throw;
  } catch (const core::Error& e) {
    throw core::Error(core::ErrorKind::Network, config_.url, e.detail());
  }
}

void MonaiLabelBackend::fail(const net::HttpResponse& response, const std::string& what) const {
  const ai::ServerError e =
      ai::classifyServerAnswer(response.status, response.contentType(), response.body);
  throw core::Error(core::ErrorKind::Network, config_.url, what + ": " + e.message);
}

ai::ServerInfo MonaiLabelBackend::info(core::ProgressSink& progress) {
  const net::HttpResponse r = call("GET", "info/", {}, {}, config_.infoTimeout, progress);
  if (!r.ok()) {
    fail(r, "GET /info/");
  }
  ai::ServerInfo parsed = ai::parseMonaiInfo(r.body, config_.url);
  std::lock_guard lock(mutex_);
  info_ = parsed;
  return parsed;
}

std::string MonaiLabelBackend::sessionFor(const core::Volume& image) {
  std::lock_guard lock(mutex_);
  return !sessionImage_.expired() && sessionImageRaw_ == &image ? sessionId_ : std::string();
}

std::string MonaiLabelBackend::createSession(const core::Volume& image, ai::InferTimings& timings,
                                             core::ProgressSink& progress) {
  ai::MultipartEncoder form;
  form.addFile("files", "image.nii.gz", ai::volumeToBytes(image, "image.nii.gz"));
  const std::string type = form.contentType();
  const net::HttpResponse r =
      call("PUT", "session/?expiry=" + std::to_string(config_.sessionExpiry.count()), type,
           form.finish(), config_.inferTimeout, progress);
  if (!r.ok()) {
    fail(r, "creating a session (PUT /session/)");
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

json MonaiLabelBackend::inferParams(const ai::InferRequest& request, core::ProgressSink& progress) {
  std::optional<ai::ServerInfo> known;
  {
    std::lock_guard lock(mutex_);
    known = info_;
  }
  if (!known) {
    known = info(progress);
  }
  const ai::MonaiModel* model = known->findModel(request.model);
  if (model == nullptr) {
    throw core::Error(core::ErrorKind::InvalidInput, config_.url,
                      "the server has no model named '" + request.model + "'");
  }
  ai::RequestOptions options;
  options.clientId = config_.clientId;
  options.base = ai::configDefaults(model->config);
  if (request.options.is_object()) {
    options.base.update(request.options);
  }
  if (!request.extremePoints.empty()) {
    json params = ai::automaticParams(options);
    params["points"] = request.extremePoints;
    if (!request.label.empty()) {
      params["label"] = request.label;
    }
    return params;
  }
  switch (ai::modelGroup(model->type)) {
    case ai::MonaiModelGroup::Deepgrow: {
      ai::DeepgrowClicks clicks;
      clicks.label = request.label;
      clicks.foreground = request.foreground;
      clicks.background = request.background;
      clicks.slice = model->dimension == 2 ? request.slice : std::nullopt;
      clicks.resetState = request.foreground.size() == 1 && request.background.empty();
      return ai::deepgrowParams(clicks, options);
    }
    case ai::MonaiModelGroup::Deepedit: {
      ai::DeepeditClicks clicks;
      clicks.label = request.label;
      clicks.perLabel = request.perLabel;
      if (clicks.perLabel.empty() && !request.label.empty()) {
        clicks.perLabel.push_back({request.label, request.foreground});
      }
      clicks.background = request.background;
      return ai::deepeditParams(clicks, options);
    }
    default:
      return ai::automaticParams(options);
  }
}

std::shared_ptr<core::LabelMap> MonaiLabelBackend::labelsFrom(
    const std::string& bytes, const std::string& name, const ai::InferRequest& request,
    const std::vector<ai::MonaiLabel>& names, core::ProgressSink& progress) const {
  const core::VolumePtr volume =
      ai::volumeFromBytes(bytes, name, "the label returned by " + config_.url, progress);
  const core::ImageGeometry& want = request.image->geometry();
  const std::string diff = volume->geometry().differenceFrom(want);
  if (!diff.empty()) {
    throw core::Error(core::ErrorKind::InvalidInput, config_.url,
                      "the returned label does not fit the image: " + diff +
                          " (label vs image); nothing was changed");
  }
  std::vector<core::Segment> segments;
  for (const ai::MonaiLabel& l : names) {
    if (!l.background && l.value > 0 && l.value <= 65535) {
      core::Segment s = core::defaultSegment(static_cast<std::uint16_t>(l.value));
      s.name = l.name;
      s.algorithmType = "SEMIAUTOMATIC";
      segments.push_back(s);
    }
  }
  if (segments.empty()) {
    core::Segment s = core::defaultSegment(1);
    s.name = request.label.empty() ? request.model : request.label;
    s.algorithmType = "SEMIAUTOMATIC";
    segments.push_back(s);
  }
  auto labels = std::make_shared<core::LabelMap>(request.model, want, segments);
  std::uint16_t* out = labels->mutableData();
  const std::size_t n = labels->voxelCount();
  const auto convert = [&](auto* in) {
    for (std::size_t i = 0; i < n; ++i) {
      const double v = static_cast<double>(in[i]);
      if (!(v >= 0 && v <= 65535)) {
        throw core::Error(
            core::ErrorKind::InvalidInput, config_.url,
            "the returned label holds a value that is no label (" + std::to_string(v) + ")");
      }
      out[i] = static_cast<std::uint16_t>(v + 0.5);
    }
  };
  const void* data = volume->voxels().data();
  switch (volume->scalarType()) {
    case core::ScalarType::UInt8:
      convert(static_cast<const std::uint8_t*>(data));
      break;
    case core::ScalarType::Int8:
      convert(static_cast<const std::int8_t*>(data));
      break;
    case core::ScalarType::UInt16:
      convert(static_cast<const std::uint16_t*>(data));
      break;
    case core::ScalarType::Int16:
      convert(static_cast<const std::int16_t*>(data));
      break;
    case core::ScalarType::UInt32:
      convert(static_cast<const std::uint32_t*>(data));
      break;
    case core::ScalarType::Int32:
      convert(static_cast<const std::int32_t*>(data));
      break;
    case core::ScalarType::Float32:
      convert(static_cast<const float*>(data));
      break;
    case core::ScalarType::Float64:
      convert(static_cast<const double*>(data));
      break;
    default:
      throw core::Error(core::ErrorKind::Unsupported, config_.url,
                        "the returned label has a voxel type we do not read");
  }
  labels->bumpVersion();
  return labels;
}

ai::InferResult MonaiLabelBackend::infer(const ai::InferRequest& request,
                                         core::ProgressSink& progress) {
  const auto start = Clock::now();
  if (!request.image) {
    throw core::Error(core::ErrorKind::InvalidInput, config_.url, "no image to send");
  }
  ai::InferResult result;
  const json params = inferParams(request, progress);
  for (int attempt = 0;; ++attempt) {
    std::string sessionId;
    const bool upload = request.imageId.empty() && !config_.useSessions;
    if (request.imageId.empty() && config_.useSessions) {
      sessionId = sessionFor(*request.image);
      if (sessionId.empty()) {
        sessionId = createSession(*request.image, result.timings, progress);
        std::lock_guard lock(mutex_);
        sessionImage_ = request.image;
        sessionImageRaw_ = request.image.get();
        sessionId_ = sessionId;
      }
    }
    ai::MultipartEncoder form;
    form.addField("params", ai::paramsText(params));
    if (upload) {
      form.addFile("file", "image.nii.gz", ai::volumeToBytes(*request.image, "image.nii.gz"));
    }
    const std::string type = form.contentType();
    const net::HttpResponse r =
        call("POST", ai::inferPath(request.model, request.imageId, sessionId), type, form.finish(),
             config_.inferTimeout, progress);
    ai::InferResponse answer;
    try {
      answer = ai::parseInferResponse(r.status, r.contentType(), r.body,
                                      r.header("Content-Disposition"));
    } catch (const core::Error& e) {
      throw core::Error(core::ErrorKind::InvalidInput, config_.url,
                        "the answer of '" + request.model + "' is malformed: " + e.detail());
    }
    if (answer.error && answer.error->kind == ai::ServerErrorKind::SessionNotFound &&
        attempt == 0 && !sessionId.empty()) {
      std::lock_guard lock(mutex_);
      sessionId_.clear();  // expired on the server: create it again, once
      sessionImageRaw_ = nullptr;
      continue;
    }
    if (answer.error) {
      throw core::Error(core::ErrorKind::Network, config_.url,
                        "inference with '" + request.model + "': " + answer.error->message);
    }
    if (!answer.hasImage) {
      throw core::Error(core::ErrorKind::InvalidInput, config_.url,
                        "the answer of '" + request.model + "' holds no label image");
    }
    result.timings.uploadSeconds += r.timings.uploadSeconds;
    result.timings.waitSeconds = r.timings.waitSeconds;
    result.timings.downloadSeconds = r.timings.downloadSeconds;
    result.timings.bytesSent += r.timings.bytesSent;
    result.timings.bytesReceived = r.timings.bytesReceived;
    result.timings.serverSeconds = answer.latencies.total;
    std::vector<ai::MonaiLabel> names = answer.labelNames;
    if (names.empty()) {
      std::lock_guard lock(mutex_);
      if (info_) {
        if (const ai::MonaiModel* m = info_->findModel(request.model)) {
          names = m->labels;
        }
      }
    }
    const auto decodeStart = Clock::now();
    result.labels =
        labelsFrom(answer.image, answer.imageFilename.value_or(""), request, names, progress);
    result.timings.decodeSeconds = since(decodeStart);
    result.params = answer.params;
    result.timings.totalSeconds = since(start);
    return result;
  }
}

std::string MonaiLabelBackend::uploadImage(const core::Volume& image, const std::string& id,
                                           core::ProgressSink& progress) {
  ai::MultipartEncoder form;
  form.addField("params", json{{"client_id", config_.clientId}}.dump());
  form.addFile("file", (id.empty() ? std::string("image") : id) + ".nii.gz",
               ai::volumeToBytes(image, "image.nii.gz"));
  const std::string type = form.contentType();
  const net::HttpResponse r = call(
      "PUT", "datastore/image" + (id.empty() ? std::string() : "?image=" + ai::percentEncode(id)),
      type, form.finish(), config_.inferTimeout, progress);
  if (!r.ok()) {
    fail(r, "uploading an image (PUT /datastore/image)");
  }
  const json answer = ai::parseServerJson(r.body, "the upload answer", config_.url);
  return answer.is_object() ? answer.value("image", id) : id;
}

void MonaiLabelBackend::submitLabel(const std::string& imageId, const core::LabelMap& labels,
                                    const std::string& tag, core::ProgressSink& progress) {
  json labelInfo = json::array();
  for (const core::Segment& s : labels.segments()) {
    labelInfo.push_back({{"name", s.name}, {"idx", s.label}});
  }
  ai::MultipartEncoder form;
  form.addField("params", json{{"label_info", labelInfo}, {"client_id", config_.clientId}}.dump());
  form.addFile("label", imageId + ".nii.gz", ai::volumeToBytes(*labels.asVolume(), "l.nii.gz"));
  const std::string type = form.contentType();
  const net::HttpResponse r =
      call("PUT",
           "datastore/label?image=" + ai::percentEncode(imageId) + "&tag=" + ai::percentEncode(tag),
           type, form.finish(), config_.inferTimeout, progress);
  if (!r.ok()) {
    fail(r, "submitting the label of '" + imageId + "'");
  }
}

std::optional<ai::NextSample> MonaiLabelBackend::nextSample(const std::string& strategy,
                                                            core::ProgressSink& progress) {
  const net::HttpResponse r =
      call("POST", "activelearning/" + ai::percentEncode(strategy), "application/json",
           json{{"client_id", config_.clientId}}.dump(), config_.infoTimeout, progress);
  if (!r.ok()) {
    fail(r, "active learning ('" + strategy + "')");
  }
  const json answer = ai::parseServerJson(r.body, "the active-learning answer", config_.url);
  if (!answer.is_object() || !answer.contains("id")) {
    return std::nullopt;  // nothing left to label
  }
  return ai::NextSample{answer.value("id", ""), answer.value("path", ""), answer};
}

namespace {

ai::TrainStatus trainStatusFrom(const json& j) {
  ai::TrainStatus s;
  s.raw = j;
  if (j.is_object()) {
    s.id = j.value("id", "");
    s.state = j.value("status", "");
    s.running = s.state == "RUNNING" || s.state == "SUBMITTED";
  }
  return s;
}

}  // namespace

ai::TrainStatus MonaiLabelBackend::startTraining(const std::string& model, const json& config,
                                                 core::ProgressSink& progress) {
  const net::HttpResponse r =
      call("POST", "train/" + ai::percentEncode(model), "application/json",
           config.is_object() ? config.dump() : "{}", config_.infoTimeout, progress);
  if (!r.ok()) {
    fail(r, "starting training of '" + model + "'");
  }
  return trainStatusFrom(ai::parseServerJson(r.body, "the training answer", config_.url));
}

ai::TrainStatus MonaiLabelBackend::trainingStatus(core::ProgressSink& progress) {
  const net::HttpResponse r = call("GET", "train/", {}, {}, config_.infoTimeout, progress);
  if (!r.ok()) {
    fail(r, "training status");
  }
  return trainStatusFrom(ai::parseServerJson(r.body, "the training status", config_.url));
}

void MonaiLabelBackend::stopTraining(core::ProgressSink& progress) {
  const net::HttpResponse r = call("DELETE", "train/", {}, {}, config_.infoTimeout, progress);
  if (!r.ok()) {
    fail(r, "stopping training");
  }
}

}  // namespace delineate::plugins
