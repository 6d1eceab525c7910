#include "plugins/monai-label/MonaiLabelBackend.h"

#include <chrono>

#include "core/Error.h"
#include "core/ai/InferResponse.h"
#include "core/ai/MonaiInfo.h"
#include "core/ai/MonaiRequests.h"
#include "core/ai/Multipart.h"
#include "core/ai/ResultLabels.h"
#include "core/ai/ServerAnswerError.h"
#include "core/ai/VolumeBytes.h"
#include "core/deid/OutboundPolicy.h"
#include "core/edit/LabelMapEdit.h"
#include "core/io/AtomicFile.h"

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
      http_(http ? std::move(http) : net::makeHttpClient(config_.tls)),
      auth_(config_.url, *http_, config_.connectTimeout, config_.infoTimeout) {
  if (!config_.token.empty()) {
    MonaiTokens given;
    given.accessToken = config_.token;
    auth_.setTokens(given);
  }
}

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
  // Uploads (datastore, sessions) never ride a kept-alive connection: see reuseConnection.
  request.reuseConnection = method != "PUT" && method != "DELETE";
  auth_.renewIfDue(progress);
  for (int attempt = 0;; ++attempt) {
    net::HttpRequest authorized = request;
    const std::string token = auth_.authorize(authorized);
    net::HttpResponse r;
    try {
      r = http_->send(authorized, progress);
    } catch (const core::CancelledError&) {
      throw;
    } catch (const core::Error& e) {
      throw core::Error(core::ErrorKind::Network, config_.url, e.detail());
    }
    if (r.status != 401) {
      return r;
    }
    // A token the server no longer validates (expired early, server restarted): renew it once
    // and send the call again; without a token, or after that, only a new sign-in helps.
    if (attempt == 0 && !token.empty()) {
      auth_.renew(token, progress);
      continue;
    }
    const core::ai::ServerError e = ai::classifyServerAnswer(r.status, r.contentType(), r.body);
    throw SignInRequired(config_.url, "sign-in needed: " + method + " /" + path +
                                          " answered HTTP 401" +
                                          (e.detail.empty() ? "" : " (" + e.detail + ")") +
                                          "; sign in to this server");
  }
}

void MonaiLabelBackend::fail(const net::HttpResponse& response, const std::string& what) const {
  const ai::ServerError e =
      ai::classifyServerAnswer(response.status, response.contentType(), response.body);
  throw ai::ServerAnswerError(config_.url, what + ": " + e.message, response.status,
                              ai::parseRetryAfter(response.header("Retry-After")));
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
  return sessions_.idFor(image);
}

std::string MonaiLabelBackend::createSession(const core::Volume& image, ai::InferTimings& timings,
                                             core::ProgressSink& progress) {
  ai::MultipartEncoder form;
  form.addFile("files", "image.nii.gz", ai::volumeToBytes(image, "image.nii.gz"));
  const std::string type = form.contentType();
  const net::HttpResponse r =
      call("PUT", "session/?expiry=" + std::to_string(config_.sessionExpiry.count()), type,
           form.finish(), config_.inferTimeout, progress);
  if (r.status == 406) {  // "Session Feature is Not Enabled" (MONAI_LABEL_SESSIONS=false)
    sessionsOff_ = true;
    return {};
  }
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

bool MonaiLabelBackend::sessionGone(const std::string& id, core::ProgressSink& progress) {
  return call("GET", "session/" + ai::percentEncode(id), {}, {}, config_.infoTimeout, progress)
             .status == 404;
}

namespace {

// The params of a model of its type: deepgrow and deepedit clicks, or the automatic keys.
json paramsForModel(const ai::InferRequest& request, const ai::ModelInfo& found,
                    const ai::RequestOptions& options, const core::VoxelBox& roi) {
  const ai::ModelInfo* model = &found;
  switch (ai::modelGroup(model->type)) {
    case ai::ModelGroup::Deepgrow: {
      ai::DeepgrowClicks clicks;
      clicks.label = request.label;
      clicks.foreground = request.foreground;
      if (clicks.foreground.empty() && !roi.empty()) {  // deepgrow needs a click: the box's centre
        clicks.foreground.push_back({std::int64_t((roi.lo[0] + roi.hi[0] - 1) / 2),
                                     std::int64_t((roi.lo[1] + roi.hi[1] - 1) / 2),
                                     std::int64_t((roi.lo[2] + roi.hi[2] - 1) / 2)});
      }
      clicks.background = request.background;
      clicks.slice = model->dimension == 2 ? request.slice : std::nullopt;
      clicks.resetState = request.foreground.size() == 1 && request.background.empty();
      return ai::deepgrowParams(clicks, options);
    }
    case ai::ModelGroup::Deepedit: {
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

}  // namespace

json MonaiLabelBackend::inferParams(const ai::InferRequest& request, core::ProgressSink& progress) {
  std::optional<ai::ServerInfo> known;
  {
    std::lock_guard lock(mutex_);
    known = info_;
  }
  if (!known) {
    known = info(progress);
  }
  const ai::ModelInfo* model = known->findModel(request.model);
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
  // Positive boxes as one region of interest: [i0, i1, j0, j1, k0, k1], half-open voxel indices.
  core::VoxelBox roi;
  for (const ai::Prompt& p : request.prompts) {
    if (p.kind != ai::PromptKind::Box || !p.positive) {
      throw core::Error(core::ErrorKind::InvalidInput, config_.url,
                        "model '" + request.model + "' does not take " +
                            (p.positive ? "" : "negative ") + ai::promptKindName(p.kind) +
                            " prompts (only clicks and boxes)");
    }
    roi.include(p.box);
  }
  json params = paramsForModel(request, *model, options, roi);
  if (!roi.empty()) {
    params["roi"] = {roi.lo[0], roi.hi[0], roi.lo[1], roi.hi[1], roi.lo[2], roi.hi[2]};
  }
  return params;
}

std::shared_ptr<core::LabelMap> MonaiLabelBackend::labelsFrom(
    const std::string& bytes, const std::string& name, const ai::InferRequest& request,
    const std::vector<ai::ModelLabel>& names, core::ProgressSink& progress) const {
  const ai::ResultLabelNames labels{names, request.label.empty() ? request.model : request.label};
  return ai::resultLabelMapFromBytes(bytes, name, request.image->geometry(), request.model, labels,
                                     config_.url, progress);
}

bool MonaiLabelBackend::resultIsJsonOnly(const ai::InferRequest& request) {
  if (!request.extremePoints.empty()) {
    return false;
  }
  std::lock_guard lock(mutex_);
  const ai::ModelInfo* model = info_ ? info_->findModel(request.model) : nullptr;
  return model != nullptr && ai::modelGroup(model->type) == ai::ModelGroup::Others;
}

ai::InferResult MonaiLabelBackend::infer(const ai::InferRequest& request,
                                         core::ProgressSink& progress) {
  const auto start = Clock::now();
  if (!request.image) {
    throw core::Error(core::ErrorKind::InvalidInput, config_.url, "no image to send");
  }
  if (request.imageId.empty()) {  // the image goes from here (session or upload), not by id
    core::deid::requireSendable(*request.image, config_.outbound, config_.url);
  }
  ai::InferResult result;
  const json params = inferParams(request, progress);
  for (int attempt = 0;; ++attempt) {
    std::string sessionId;
    if (request.imageId.empty() && config_.useSessions && !sessionsOff_) {
      sessionId = sessionFor(*request.image);
      if (sessionId.empty()) {
        sessionId = createSession(*request.image, result.timings, progress);
        if (!sessionId.empty()) {
          sessions_.remember(request.image, sessionId);
        }
      }
    }
    const bool upload = request.imageId.empty() && sessionId.empty();
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
    // Expired on the server: create it again, once. delineate-server says so (404 naming the
    // session); a MONAI Label server fails the inference (500) and only GET /session/{id} tells.
    if (answer.error && attempt == 0 && !sessionId.empty() &&
        (answer.error->kind == ai::ServerErrorKind::SessionNotFound ||
         (r.status >= 500 && sessionGone(sessionId, progress)))) {
      sessions_.forget();
      continue;
    }
    if (answer.error) {
      throw ai::ServerAnswerError(
          config_.url, "inference with '" + request.model + "': " + answer.error->message, r.status,
          ai::parseRetryAfter(r.header("Retry-After")));
    }
    if (!answer.hasImage && !resultIsJsonOnly(request)) {
      throw core::Error(core::ErrorKind::InvalidInput, config_.url,
                        "the answer of '" + request.model + "' holds no label image");
    }
    result.timings.uploadSeconds += r.timings.uploadSeconds;
    result.timings.waitSeconds = r.timings.waitSeconds;
    result.timings.downloadSeconds = r.timings.downloadSeconds;
    result.timings.bytesSent += r.timings.bytesSent;
    result.timings.bytesReceived = r.timings.bytesReceived;
    result.timings.serverSeconds = answer.latencies.total;
    result.params = answer.params;
    if (!answer.hasImage) {  // a detection or classification result: the JSON is all there is
      result.timings.totalSeconds = since(start);
      return result;
    }
    std::vector<ai::ModelLabel> names = answer.labelNames;
    bool deepgrow = false;
    {
      std::lock_guard lock(mutex_);
      if (const ai::ModelInfo* m = info_ ? info_->findModel(request.model) : nullptr) {
        deepgrow = ai::modelGroup(m->type) == ai::ModelGroup::Deepgrow;
        if (names.empty()) {
          names = m->labels;
        }
      }
    }
    // A deepgrow model answers the one structure clicked, as 1, whatever labels it lists
    // (MONAI Label's deepgrow models list every organ they know, by name only, and threshold
    // one mask): that structure is the one asked for.
    if (deepgrow && request.extremePoints.empty()) {
      std::vector<ai::ModelLabel> structures;
      for (const ai::ModelLabel& l : names) {
        if (!l.background) {
          structures.push_back(l);
        }
      }
      const std::string name = !request.label.empty()   ? request.label
                               : structures.size() == 1 ? structures.front().name
                                                        : request.model;
      names = {ai::ModelLabel{name, 1, false}};
    }
    const auto decodeStart = Clock::now();
    if (request.acceptProbability) {
      const ai::ResultLabelNames labels{names,
                                        request.label.empty() ? request.model : request.label};
      ai::ResultImage image = ai::resultImageFromBytes(
          answer.image, answer.imageFilename.value_or(""), request.image->geometry(), request.model,
          labels, config_.url, progress);
      result.labels = std::move(image.labels);
      result.probability = std::move(image.probability);
    } else {
      result.labels =
          labelsFrom(answer.image, answer.imageFilename.value_or(""), request, names, progress);
    }
    result.timings.decodeSeconds = since(decodeStart);
    result.timings.totalSeconds = since(start);
    return result;
  }
}

std::string MonaiLabelBackend::uploadImage(const core::Volume& image, const std::string& id,
                                           core::ProgressSink& progress) {
  core::deid::requireSendable(image, config_.outbound, config_.url);
  ai::DatastoreFile file;
  file.filename = (id.empty() ? std::string("image") : id) + ".nii.gz";
  file.bytes = ai::volumeToBytes(image, "image.nii.gz");
  return putImageFile(id, file, progress);
}

void MonaiLabelBackend::submitLabel(const std::string& imageId, const core::LabelMap& labels,
                                    const std::string& tag, core::ProgressSink& progress) {
  json labelInfo = json::array();
  for (const core::Segment& s : labels.segments()) {
    labelInfo.push_back({{"name", s.name}, {"idx", s.label}});
  }
  ai::DatastoreFile file;
  file.filename = imageId + ".nii.gz";
  file.bytes = ai::volumeToBytes(*labels.asVolume(), "l.nii.gz");
  file.info = {{"label_info", labelInfo}};
  putLabelFile(imageId, tag, file, progress);
}

namespace {

// The `params` of a datastore upload: the file's info, with our client id unless it has one.
std::string datastoreParams(const ai::DatastoreFile& file, const std::string& clientId) {
  json params = file.info.is_object() ? file.info : json::object();
  if (!params.contains("client_id")) {
    params["client_id"] = clientId;
  }
  return ai::paramsText(params);
}

}  // namespace

std::string MonaiLabelBackend::putImageFile(const std::string& id, const ai::DatastoreFile& file,
                                            core::ProgressSink& progress) {
  if (file.filename.empty()) {
    throw core::Error(
        core::ErrorKind::InvalidInput, config_.url,
        "uploading image '" + id + "': no file name (its extension names the format)");
  }
  ai::MultipartEncoder form;
  form.addField("params", datastoreParams(file, config_.clientId));
  form.addFile("file", file.filename, file.bytes);
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

void MonaiLabelBackend::putLabelFile(const std::string& imageId, const std::string& tag,
                                     const ai::DatastoreFile& file, core::ProgressSink& progress) {
  ai::MultipartEncoder form;
  form.addField("params", datastoreParams(file, config_.clientId));
  form.addFile("label", file.filename.empty() ? imageId + ".nii.gz" : file.filename, file.bytes);
  const std::string type = form.contentType();
  const net::HttpResponse r =
      call("PUT",
           "datastore/label?image=" + ai::percentEncode(imageId) + "&tag=" + ai::percentEncode(tag),
           type, form.finish(), config_.inferTimeout, progress);
  if (!r.ok()) {
    fail(r, "submitting the label of '" + imageId + "'");
  }
}

std::optional<json> MonaiLabelBackend::datastoreInfo(const std::string& path,
                                                     const std::string& what,
                                                     core::ProgressSink& progress) {
  const net::HttpResponse r = call("GET", path, {}, {}, config_.infoTimeout, progress);
  if (r.status == 404) {
    return std::nullopt;
  }
  if (!r.ok()) {
    fail(r, "reading " + what);
  }
  json answer = ai::parseServerJson(r.body, what, config_.url);
  if (answer.is_null() || (answer.is_object() && answer.empty())) {
    return std::nullopt;
  }
  if (!answer.is_object()) {
    throw core::Error(core::ErrorKind::InvalidInput, config_.url,
                      what + " is a JSON " + std::string(answer.type_name()) + ", not an object");
  }
  return answer;
}

std::optional<json> MonaiLabelBackend::imageInfo(const std::string& id,
                                                 core::ProgressSink& progress) {
  return datastoreInfo("datastore/image/info?image=" + ai::percentEncode(id),
                       "the info of image '" + id + "'", progress);
}

std::optional<json> MonaiLabelBackend::labelInfo(const std::string& imageId, const std::string& tag,
                                                 core::ProgressSink& progress) {
  return datastoreInfo(
      "datastore/label/info?label=" + ai::percentEncode(imageId) + "&tag=" + ai::percentEncode(tag),
      "the info of the '" + tag + "' label of '" + imageId + "'", progress);
}

json MonaiLabelBackend::datastoreObjects(core::ProgressSink& progress) {
  const net::HttpResponse r =
      call("GET", "datastore/?output=all", {}, {}, config_.infoTimeout, progress);
  if (!r.ok()) {
    fail(r, "listing the datastore (GET /datastore/?output=all)");
  }
  const json answer = ai::parseServerJson(r.body, "the datastore listing", config_.url);
  if (!answer.is_object() || !answer.contains("objects")) {
    return json::object();
  }
  if (!answer["objects"].is_object()) {
    throw core::Error(core::ErrorKind::InvalidInput, config_.url,
                      "the datastore listing's \"objects\" is not an object");
  }
  return answer["objects"];
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

void MonaiLabelBackend::fetchImage(const std::string& id, const std::string& path,
                                   core::ProgressSink& progress) {
  const net::HttpResponse r = call("GET", "datastore/image?image=" + ai::percentEncode(id), {}, {},
                                   config_.inferTimeout, progress);
  if (!r.ok()) {
    fail(r, "downloading image '" + id + "' (GET /datastore/image)");
  }
  core::writeTextAtomically(path, r.body, "the image downloaded from " + config_.url);
}

bool MonaiLabelBackend::fetchLabel(const std::string& imageId, const std::string& tag,
                                   const std::string& path, core::ProgressSink& progress) {
  const net::HttpResponse r =
      call("GET",
           "datastore/label?label=" + ai::percentEncode(imageId) + "&tag=" + ai::percentEncode(tag),
           {}, {}, config_.inferTimeout, progress);
  if (r.status == 404) {
    return false;
  }
  if (!r.ok()) {
    fail(r, "downloading the '" + tag + "' label of '" + imageId + "' (GET /datastore/label)");
  }
  core::writeTextAtomically(path, r.body, "the label downloaded from " + config_.url);
  return true;
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
  if (r.status == 404) {
    return {};  // MONAI Label's answer while it has no training run to report
  }
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
