#include "plugins/nninteractive/NnInteractiveBackend.h"

#include <algorithm>
#include <chrono>

#include "core/Error.h"
#include "core/ai/InferResponse.h"
#include "core/ai/MonaiRequests.h"
#include "core/ai/PackedArray.h"
#include "core/ai/ServerAnswerError.h"

namespace delineate::plugins {

namespace ai = core::ai;
namespace net = core::net;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

ai::NpDtype dtypeOf(core::ScalarType t) {
  switch (t) {
    case core::ScalarType::UInt8:
      return ai::NpDtype::UInt8;
    case core::ScalarType::Int8:
      return ai::NpDtype::Int8;
    case core::ScalarType::UInt16:
      return ai::NpDtype::UInt16;
    case core::ScalarType::Int16:
      return ai::NpDtype::Int16;
    case core::ScalarType::UInt32:
      return ai::NpDtype::UInt32;
    case core::ScalarType::Int32:
      return ai::NpDtype::Int32;
    case core::ScalarType::Float32:
      return ai::NpDtype::Float32;
    case core::ScalarType::Float64:
      return ai::NpDtype::Float64;
  }
  return ai::NpDtype::Float32;
}

// A volume box as the protocol's [[a0 lo, hi], [a1 ...], [a2 ...]] with a0 = k, a2 = i.
json arrayBox(const core::VoxelBox& b) {
  return json::array({json::array({b.lo[2], b.hi[2]}), json::array({b.lo[1], b.hi[1]}),
                      json::array({b.lo[0], b.hi[0]})});
}

bool samePrompt(const ai::Prompt& a, const ai::Prompt& b) {
  return a.kind == b.kind && a.positive == b.positive && a.point == b.point && a.box == b.box &&
         a.mask == b.mask;
}

double seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

}  // namespace

NnInteractiveBackend::NnInteractiveBackend(NnInteractiveConfig config,
                                           std::unique_ptr<net::HttpClient> http)
    : config_(std::move(config)), http_(http ? std::move(http) : net::makeHttpClient(config_.tls)) {
  if (config_.url.rfind("http://", 0) != 0 && config_.url.rfind("https://", 0) != 0) {
    throw core::Error(core::ErrorKind::InvalidInput, config_.url,
                      "an nnInteractive server's address starts with http:// or https://");
  }
  while (!config_.url.empty() && config_.url.back() == '/') {
    config_.url.pop_back();
  }
}

NnInteractiveBackend::~NnInteractiveBackend() {
  std::lock_guard lock(mutex_);
  releaseLease();
}

std::string NnInteractiveBackend::displayName() const {
  return "nnInteractive at " + config_.url;
}

std::string NnInteractiveBackend::leaseToken() const {
  std::lock_guard lock(mutex_);
  return lease_;
}

net::HttpResponse NnInteractiveBackend::call(const std::string& method, const std::string& path,
                                             const std::string& contentType, std::string body,
                                             const std::string& meta,
                                             std::chrono::milliseconds timeout,
                                             core::ProgressSink& progress) {
  net::HttpRequest r;
  r.method = method;
  r.url = config_.url + path;
  r.contentType = contentType;
  r.body = std::move(body);
  r.connectTimeout = config_.connectTimeout;
  r.timeout = timeout;
  if (!config_.apiKey.empty()) {
    r.headers.push_back({"Authorization", "Bearer " + config_.apiKey});
  }
  if (!lease_.empty()) {
    r.headers.push_back({"X-Lease-Token", lease_});
  }
  if (!meta.empty()) {
    r.headers.push_back({"X-Meta", meta});
  }
  try {
    net::HttpResponse answer = http_->send(r, progress);
    timings_.uploadSeconds += answer.timings.uploadSeconds;
    timings_.waitSeconds += answer.timings.waitSeconds;
    timings_.downloadSeconds += answer.timings.downloadSeconds;
    timings_.bytesSent += answer.timings.bytesSent;
    timings_.bytesReceived += answer.timings.bytesReceived;
    return answer;
  } catch (const core::CancelledError&) {
    throw;
  } catch (const core::Error& e) {
    throw core::Error(core::ErrorKind::Network, config_.url, e.detail());
  }
}

net::HttpResponse NnInteractiveBackend::checked(net::HttpResponse r, const std::string& what) {
  if (r.ok()) {
    return r;
  }
  const ai::ServerError e = ai::classifyServerAnswer(r.status, r.contentType(), r.body);
  std::string message = what + ": " + e.message;
  if (r.status == 401) {
    message = what + ": the server refused the API key (" +
              (e.detail.empty() ? std::string("401") : e.detail) +
              "); set the key in Preferences > AI servers";
  } else if (r.status == 503) {
    message = what + ": the server is full (every session is in use); try again later";
  }
  throw ai::ServerAnswerError(config_.url, message, r.status,
                              ai::parseRetryAfter(r.header("Retry-After")));
}

void NnInteractiveBackend::readCapabilities(core::ProgressSink& progress) {
  const net::HttpResponse r = checked(
      call("GET", "/capabilities", {}, {}, {}, config_.readTimeout, progress), "GET /capabilities");
  json c = json::parse(r.body, nullptr, false);
  if (!c.is_object()) {
    throw core::Error(core::ErrorKind::InvalidInput, config_.url,
                      "GET /capabilities did not answer a JSON object; is this an nnInteractive "
                      "server?");
  }
  std::lock_guard caps(capsMutex_);
  capabilities_ = std::move(c);
}

void NnInteractiveBackend::claim(core::ProgressSink& progress) {
  lease_.clear();
  const net::HttpResponse r =
      checked(call("POST", "/claim", {}, {}, {}, config_.readTimeout, progress), "POST /claim");
  const json c = json::parse(r.body, nullptr, false);
  if (!c.is_object() || !c.value("lease_token", json()).is_string()) {
    throw core::Error(core::ErrorKind::InvalidInput, config_.url,
                      "POST /claim answered no lease_token");
  }
  lease_ = c["lease_token"].get<std::string>();
  livenessSeconds_ = c.value("liveness_timeout_seconds", 0.0);
  image_.reset();
  sent_.clear();
  {
    std::lock_guard lock(beatMutex_);
    stopping_ = false;
    beatLease_ = lease_;
    beatKey_ = config_.apiKey;
  }
  if (livenessSeconds_ > 0 && !beat_.joinable()) {
    beat_ = std::thread([this] { heartbeatLoop(); });
  }
}

void NnInteractiveBackend::heartbeatLoop() {
  // Its own connection: a heartbeat must get through while a long set_image is on the wire.
  const std::unique_ptr<net::HttpClient> http = net::makeHttpClient(config_.tls);
  const auto interval = std::chrono::duration<double>(std::max(5.0, livenessSeconds_ / 2));
  std::unique_lock lock(beatMutex_);
  while (!beatWake_.wait_for(lock, interval, [this] { return stopping_; })) {
    // Copies kept for this thread: mutex_ may be held for minutes by a set_image.
    const std::string lease = beatLease_, key = beatKey_;
    if (lease.empty()) {
      continue;
    }
    lock.unlock();
    net::HttpRequest r;
    r.method = "POST";
    r.url = config_.url + "/heartbeat";
    r.connectTimeout = config_.connectTimeout;
    r.timeout = std::chrono::seconds(10);
    r.headers.push_back({"X-Lease-Token", lease});
    if (!key.empty()) {
      r.headers.push_back({"Authorization", "Bearer " + key});
    }
    try {
      core::NullProgress quiet;
      http->send(r, quiet);  // errors are ignored; a lost lease shows on the next prompt (410)
    } catch (const std::exception&) {
    }
    lock.lock();
  }
}

void NnInteractiveBackend::releaseLease() {
  {
    std::lock_guard lock(beatMutex_);
    stopping_ = true;
    beatLease_.clear();
  }
  beatWake_.notify_all();
  if (beat_.joinable() && beat_.get_id() != std::this_thread::get_id()) {
    // The heartbeat thread takes mutex_ briefly; release it while waiting.
    mutex_.unlock();
    beat_.join();
    mutex_.lock();
  }
  if (lease_.empty()) {
    return;
  }
  try {
    core::NullProgress quiet;
    call("POST", "/release", {}, {}, {}, std::chrono::seconds(5), quiet);
  } catch (const std::exception&) {
  }
  lease_.clear();
}

void NnInteractiveBackend::sendImage(core::ProgressSink& progress) {
  const core::Volume& v = *image_;
  const core::Size3 n = v.geometry().size;
  const std::vector<std::int64_t> shape{1, static_cast<std::int64_t>(n[2]),
                                        static_cast<std::int64_t>(n[1]),
                                        static_cast<std::int64_t>(n[0])};
  // The voxels, x fastest, are already the C-order bytes of [1, nz, ny, nx]: no copy.
  const auto* bytes = static_cast<const std::byte*>(v.voxels().data());
  std::string packed =
      ai::packArray(dtypeOf(v.scalarType()), shape, std::span(bytes, v.voxels().bytes()),
                    ai::Blosc2Codec::Zstd, v.voxels().type() != core::ScalarType::UInt8);
  const core::Vec3 s = v.geometry().spacing;
  const json meta = {{"image_properties", {{"spacing", {s[2], s[1], s[0]}}}}};
  checked(call("POST", "/set_image", "application/octet-stream", std::move(packed), meta.dump(),
               config_.setImageTimeout, progress),
          "POST /set_image");
  checked(call("POST", "/set_target_buffer", "application/json",
               json({{"shape", {n[2], n[1], n[0]}}, {"dtype", "uint8"}}).dump(), {},
               config_.readTimeout, progress),
          "POST /set_target_buffer");
  buffer_.assign(v.geometry().voxelCount(), 0);
  sent_.clear();
}

void NnInteractiveBackend::pasteAnswer(const net::HttpResponse& r, const std::string& what) {
  const json meta = json::parse(r.header("X-Meta"), nullptr, false);
  if (!meta.is_object()) {
    throw core::Error(core::ErrorKind::InvalidInput, config_.url,
                      what + " answered without its X-Meta header");
  }
  const json bbox = meta.value("bbox", json());
  if (bbox.is_null() || r.body.empty()) {
    return;
  }
  const core::Size3 n = image_->geometry().size;
  core::VoxelBox box;
  const std::size_t limits[3] = {n[2], n[1], n[0]};
  std::size_t lo[3] = {}, hi[3] = {};
  for (std::size_t a = 0; a < 3; ++a) {
    if (!bbox.is_array() || bbox.size() != 3 || !bbox[a].is_array() || bbox[a].size() != 2 ||
        !bbox[a][0].is_number_integer() || !bbox[a][1].is_number_integer() ||
        bbox[a][0].get<std::int64_t>() < 0 ||
        bbox[a][1].get<std::int64_t>() > static_cast<std::int64_t>(limits[a]) ||
        bbox[a][0].get<std::int64_t>() >= bbox[a][1].get<std::int64_t>()) {
      throw core::Error(core::ErrorKind::InvalidInput, config_.url,
                        what + " answered a region " + bbox.dump() + " outside the image");
    }
    lo[a] = static_cast<std::size_t>(bbox[a][0].get<std::int64_t>());
    hi[a] = static_cast<std::size_t>(bbox[a][1].get<std::int64_t>());
  }
  box.lo = {lo[2], lo[1], lo[0]};
  box.hi = {hi[2], hi[1], hi[0]};
  const ai::PackedArray region =
      ai::unpackArray(r.body, config_.url + " (" + what + ")", box.count() * 8);
  const std::vector<std::int64_t> expected{static_cast<std::int64_t>(hi[0] - lo[0]),
                                           static_cast<std::int64_t>(hi[1] - lo[1]),
                                           static_cast<std::int64_t>(hi[2] - lo[2])};
  if (region.shape != expected) {
    throw core::Error(core::ErrorKind::InvalidInput, config_.url,
                      what + " answered a region whose shape is not its bbox's");
  }
  // Overwrite (not OR) the region: it is the server's buffer there.
  const std::size_t item = ai::itemSize(region.dtype);
  std::size_t m = 0;
  for (std::size_t k = box.lo[2]; k < box.hi[2]; ++k) {
    for (std::size_t j = box.lo[1]; j < box.hi[1]; ++j) {
      for (std::size_t i = box.lo[0]; i < box.hi[0]; ++i, ++m) {
        bool set = false;
        for (std::size_t b = 0; b < item; ++b) {
          set = set || region.bytes[m * item + b] != 0;
        }
        buffer_[i + n[0] * (j + n[1] * k)] = set ? 1 : 0;
      }
    }
  }
}

void NnInteractiveBackend::sendPrompt(const ai::Prompt& p, core::ProgressSink& progress) {
  const std::string kind = ai::promptKindName(p.kind);
  json params = {{"include_interaction", p.positive},
                 {"run_prediction", true},
                 {"override_capability_checks", false}};
  net::HttpResponse r;
  std::string path;
  if (p.kind == ai::PromptKind::Point) {
    path = "/add_point_interaction";
    params["coordinates"] = {p.point[2], p.point[1], p.point[0]};
    r = call("POST", path, "application/json", params.dump(), {}, config_.readTimeout, progress);
  } else if (p.kind == ai::PromptKind::Box) {
    path = "/add_bbox_interaction";
    params["bbox_coords"] = arrayBox(p.box);
    r = call("POST", path, "application/json", params.dump(), {}, config_.readTimeout, progress);
  } else {
    path =
        p.kind == ai::PromptKind::Scribble ? "/add_scribble_interaction" : "/add_lasso_interaction";
    params["interaction_bbox"] = arrayBox(p.box);
    const std::vector<std::int64_t> shape{static_cast<std::int64_t>(p.box.hi[2] - p.box.lo[2]),
                                          static_cast<std::int64_t>(p.box.hi[1] - p.box.lo[1]),
                                          static_cast<std::int64_t>(p.box.hi[0] - p.box.lo[0])};
    // The crop, x fastest over the box: the C-order bytes of [dz, dy, dx].
    std::string packed =
        ai::packArray(ai::NpDtype::UInt8, shape,
                      std::span(reinterpret_cast<const std::byte*>(p.mask.data()), p.mask.size()));
    r = call("POST", path, "application/octet-stream", std::move(packed), params.dump(),
             config_.readTimeout, progress);
  }
  pasteAnswer(checked(std::move(r), "POST " + path + " (" + kind + ")"), "POST " + path);
}

void NnInteractiveBackend::sendInitialMask(const std::vector<std::uint8_t>& mask,
                                           core::ProgressSink& progress) {
  const core::Size3 n = image_->geometry().size;
  if (mask.size() != buffer_.size()) {
    throw core::Error(core::ErrorKind::InvalidInput, displayName(),
                      "the structure to refine is not on the image's grid");
  }
  // The whole mask, x fastest: the C-order bytes of [z, y, x].
  const std::vector<std::int64_t> shape{static_cast<std::int64_t>(n[2]),
                                        static_cast<std::int64_t>(n[1]),
                                        static_cast<std::int64_t>(n[0])};
  std::string packed =
      ai::packArray(ai::NpDtype::UInt8, shape,
                    std::span(reinterpret_cast<const std::byte*>(mask.data()), mask.size()));
  checked(
      call("POST", "/add_initial_seg_interaction", "application/octet-stream", std::move(packed),
           json{{"run_prediction", false}}.dump(), config_.readTimeout, progress),
      "POST /add_initial_seg_interaction");
  // The server does not send it back: the proposal starts from it.
  for (std::size_t i = 0; i < mask.size(); ++i) {
    buffer_[i] = mask[i] != 0 ? 1 : 0;
  }
}

json NnInteractiveBackend::capabilitiesJson() const {
  std::lock_guard caps(capsMutex_);
  return capabilities_;
}

ai::ServerInfo NnInteractiveBackend::info(core::ProgressSink& progress) {
  std::lock_guard lock(mutex_);
  readCapabilities(progress);
  const json caps = capabilitiesJson();
  ai::ServerInfo info;
  info.name = "nnInteractive";
  info.version = caps.value("inference_session_version", json("")).is_string()
                     ? caps.value("inference_session_version", "")
                     : "";
  const std::string license =
      caps.value("license", json("")).is_string() ? caps.value("license", "") : "";
  info.description = "nnInteractive v2 server" + (license.empty() ? "" : "; licence: " + license);
  ai::ModelInfo model;
  model.name = kModel;
  model.type = "deepgrow";
  model.description = "Promptable 3-D segmentation: points, boxes, scribbles, lassos" +
                      (license.empty() ? std::string() : " (model licence: " + license + ")");
  model.labels = {{"Structure", 1, false}};
  model.version = info.version;
  info.models = {model};
  info.raw = caps;
  return info;
}

ai::BackendCapabilities NnInteractiveBackend::capabilities() const {
  const json caps = capabilitiesJson();
  ai::BackendCapabilities c;
  c.sessions = true;
  c.initialMasks = caps.is_object() && caps.value("supports_initial_label", json(false)) == true;
  const json supported =
      caps.is_object() ? caps.value("supported_interactions", json::object()) : json::object();
  auto has = [&](const char* key, bool fallback) {
    const json v = supported.value(key, json());
    return v.is_boolean() ? v.get<bool>() : fallback;
  };
  if (has("points", true)) {
    c.promptKinds.push_back(ai::PromptKind::Point);
  }
  if (has("bbox2d", true) || has("bbox3d", false)) {
    c.promptKinds.push_back(ai::PromptKind::Box);
  }
  if (has("scribble", true)) {
    c.promptKinds.push_back(ai::PromptKind::Scribble);
  }
  if (has("lasso", true)) {
    c.promptKinds.push_back(ai::PromptKind::Lasso);
  }
  c.serverUndo = caps.is_object() && caps.value("supports_undo", json(false)) == true;
  return c;
}

ai::InferResult NnInteractiveBackend::proposal(const std::string& label) const {
  const auto start = Clock::now();
  core::Segment segment = core::defaultSegment(1);
  segment.name = label.empty() ? "Structure" : label;
  ai::InferResult result;
  result.labels = std::make_shared<core::LabelMap>(kModel, image_->geometry(),
                                                   std::vector<core::Segment>{segment});
  std::uint16_t* out = result.labels->mutableData();
  std::transform(buffer_.begin(), buffer_.end(), out, [](std::uint8_t v) { return v; });
  result.params = {{"label_names", {{segment.name, 1}}}, {"lease_renewed", leaseRenewed_}};
  result.timings.decodeSeconds = seconds(Clock::now() - start);
  return result;
}

ai::InferResult NnInteractiveBackend::infer(const ai::InferRequest& request,
                                            core::ProgressSink& progress) {
  const auto start = Clock::now();
  if (!request.image) {
    throw core::Error(core::ErrorKind::InvalidInput, displayName(), "no image to segment");
  }
  if (!request.model.empty() && request.model != kModel) {
    throw core::Error(core::ErrorKind::InvalidInput, displayName(),
                      "no model named '" + request.model + "' (an nnInteractive server has one)");
  }
  core::deid::requireSendable(*request.image, config_.outbound, config_.url);
  // The prompts, oldest first: clicks as points (foreground then background), then the others.
  std::vector<ai::Prompt> prompts;
  for (const bool positive : {true, false}) {
    for (const ai::VoxelIndex& v : positive ? request.foreground : request.background) {
      ai::Prompt p;
      p.positive = positive;
      const core::Size3 n = request.image->geometry().size;
      if (v[0] < 0 || v[1] < 0 || v[2] < 0 || static_cast<std::size_t>(v[0]) >= n[0] ||
          static_cast<std::size_t>(v[1]) >= n[1] || static_cast<std::size_t>(v[2]) >= n[2]) {
        throw core::Error(core::ErrorKind::InvalidInput, displayName(),
                          "a click lies outside the image");
      }
      p.point = {static_cast<std::size_t>(v[0]), static_cast<std::size_t>(v[1]),
                 static_cast<std::size_t>(v[2])};
      prompts.push_back(p);
    }
  }
  prompts.insert(prompts.end(), request.prompts.begin(), request.prompts.end());
  std::lock_guard lock(mutex_);
  if (capabilitiesJson().is_null()) {
    readCapabilities(progress);
  }
  const json supported = capabilitiesJson().value("supported_interactions", json::object());
  for (const ai::Prompt& p : prompts) {
    const bool box3d = p.kind == ai::PromptKind::Box && p.sliceAxis() < 0;
    const char* key = p.kind == ai::PromptKind::Point      ? "points"
                      : p.kind == ai::PromptKind::Scribble ? "scribble"
                      : p.kind == ai::PromptKind::Lasso    ? "lasso"
                      : box3d                              ? "bbox3d"
                                                           : "bbox2d";
    if (supported.value(key, json(!box3d)) != true) {
      throw core::Error(core::ErrorKind::Unsupported, displayName(),
                        std::string("the server's model does not take ") +
                            (box3d ? "3-D boxes (draw the box on one slice)" : key));
    }
  }
  leaseRenewed_ = false;
  timings_ = {};
  ai::InferResult result;
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      const bool fresh = lease_.empty();
      if (fresh) {
        claim(progress);
      }
      const bool sameImage = image_ == request.image;
      if (!sameImage) {
        image_ = request.image;
        sendImage(progress);
        result.timings.sessionCreated = true;
      }
      const bool sameInitial = request.initialMask == sentInitial_;
      const bool extends = sameImage && request.label == label_ && sameInitial &&
                           prompts.size() >= sent_.size() &&
                           std::equal(sent_.begin(), sent_.end(), prompts.begin(), samePrompt);
      if (sameImage && !extends) {
        checked(call("POST", "/reset_interactions", "application/json", "{}", {},
                     config_.readTimeout, progress),
                "POST /reset_interactions");
        std::fill(buffer_.begin(), buffer_.end(), 0);
        sent_.clear();
        sentInitial_.reset();
      }
      label_ = request.label;
      if (request.initialMask && !sentInitial_) {
        sendInitialMask(*request.initialMask, progress);
        sentInitial_ = request.initialMask;
      }
      for (std::size_t n = sent_.size(); n < prompts.size(); ++n) {
        progress.throwIfCancelled();
        sendPrompt(prompts[n], progress);
        sent_.push_back(prompts[n]);
      }
      break;
    } catch (const ai::ServerAnswerError& e) {
      if (e.httpStatus() != 410 || attempt == 1) {
        throw;
      }
      // The server dropped the lease (idle, a restart): claim again, send everything again.
      lease_.clear();
      image_.reset();
      sentInitial_.reset();
      leaseRenewed_ = true;
    }
  }
  const bool created = result.timings.sessionCreated;
  result = proposal(request.label);
  const double decode = result.timings.decodeSeconds;
  result.timings = timings_;
  result.timings.decodeSeconds = decode;
  result.timings.sessionCreated = created;
  result.timings.totalSeconds = seconds(Clock::now() - start);
  return result;
}

ai::SignInTokens NnInteractiveBackend::signInTokens() const {
  std::lock_guard lock(mutex_);
  ai::SignInTokens t;
  t.accessToken = config_.apiKey;
  return t;
}

void NnInteractiveBackend::setSignInTokens(const ai::SignInTokens& tokens) {
  std::lock_guard lock(mutex_);
  config_.apiKey = tokens.accessToken;
  std::lock_guard beat(beatMutex_);
  beatKey_ = config_.apiKey;
}

ai::InferResult NnInteractiveBackend::undoLastPrompt(core::ProgressSink& progress) {
  std::lock_guard lock(mutex_);
  if (lease_.empty() || !image_ || sent_.empty()) {
    throw core::Error(core::ErrorKind::InvalidInput, displayName(), "no prompt to take back");
  }
  const net::HttpResponse r =
      checked(call("POST", "/undo", "application/json", "{}", {}, config_.readTimeout, progress),
              "POST /undo");
  const json meta = json::parse(r.header("X-Meta"), nullptr, false);
  if (meta.is_object() && meta.value("ran_prediction", json(true)) == false) {
    throw core::Error(core::ErrorKind::InvalidInput, displayName(),
                      "the server keeps one step of undo, and it was taken already");
  }
  pasteAnswer(r, "POST /undo");
  sent_.pop_back();
  return proposal(label_);
}

}  // namespace delineate::plugins
