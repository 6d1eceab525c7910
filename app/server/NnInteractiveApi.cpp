#include "app/server/NnInteractiveApi.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>

#include "app/server/InteractiveArrays.h"
#include "core/Error.h"
#include "core/ai/PackedArray.h"
#include "core/jobs/ProgressSink.h"

namespace delineate::server {

namespace net = core::net;
using core::ai::NpDtype;
using nlohmann::json;

namespace {

// An answer other than 200, thrown from deep inside a route.
struct Refusal {
  int status;
  json detail;
};

[[noreturn]] void refuse(int status, const std::string& detail) {
  throw Refusal{status, detail};
}

net::HttpResponse jsonReply(int status, const json& body) {
  net::HttpResponse r;
  r.status = status;
  r.headers = {{"Content-Type", "application/json"}};
  r.body = body.dump();
  return r;
}

// The answer of a prediction-capable route: X-Meta, and the region's packed array or nothing.
net::HttpResponse predictionReply(bool ran, const json& bbox, std::string body = {},
                                  const std::string& dtype = {}, const json& shape = nullptr) {
  json meta = {{"ran_prediction", ran}, {"bbox", bbox}};
  if (!body.empty()) {
    meta["dtype"] = dtype;
    meta["shape"] = shape;
  }
  net::HttpResponse r;
  r.status = 200;
  r.headers = {{"Content-Type", "application/octet-stream"}, {"X-Meta", meta.dump()}};
  r.body = std::move(body);
  return r;
}

json metaOf(const net::ServerRequest& r) {
  const std::string text = r.header("X-Meta");
  if (text.empty()) {
    return json::object();
  }
  json meta = json::parse(text, nullptr, false);
  if (meta.is_discarded() || !meta.is_object()) {
    refuse(400, "Bad X-Meta: not a JSON object");
  }
  return meta;
}

json jsonBody(const net::ServerRequest& r) {
  json body = json::parse(r.body, nullptr, false);
  if (body.is_discarded() || !body.is_object()) {
    throw Refusal{422, json::array({{{"type", "model_attributes_type"},
                                     {"loc", json::array({"body"})},
                                     {"msg", "Input should be a valid dictionary"}}})};
  }
  return body;
}

bool flag(const json& o, const char* key, std::optional<bool> fallback) {
  const auto it = o.find(key);
  if (it == o.end() || it->is_null()) {
    if (!fallback) {
      refuse(400, std::string("missing required field: ") + key);
    }
    return *fallback;
  }
  if (it->is_number()) {  // the reference server takes bool(value): 0 and 1 too
    return it->get<double>() != 0;
  }
  if (!it->is_boolean()) {
    refuse(400, std::string(key) + " must be true or false");
  }
  return it->get<bool>();
}

std::size_t voxelCount(const std::vector<std::int64_t>& shape) {
  std::size_t n = 1;
  for (const std::int64_t d : shape) {
    n *= static_cast<std::size_t>(d);
  }
  return n;
}

// Spatial shape [a0, a1, a2] of the session's image.
core::Size3 arrayShape(const InteractiveSession& s) {
  return {static_cast<std::size_t>(s.imageShape[1]), static_cast<std::size_t>(s.imageShape[2]),
          static_cast<std::size_t>(s.imageShape[3])};
}

// Array-axis [lo, hi) per axis to a volume box (i = a2, j = a1, k = a0).
core::VoxelBox toVolumeBox(const std::array<std::array<std::size_t, 2>, 3>& b) {
  return {{b[2][0], b[1][0], b[0][0]}, {b[2][1], b[1][1], b[0][1]}};
}

json toArrayBbox(const core::VoxelBox& b) {
  return json::array({json::array({b.lo[2], b.hi[2]}), json::array({b.lo[1], b.hi[1]}),
                      json::array({b.lo[0], b.hi[0]})});
}

// `[[l0, h0], [l1, h1], [l2, h2]]` as integers (rounded half to even, as Python's round).
std::array<std::array<std::int64_t, 2>, 3> bboxOf(const json& v, const char* what) {
  std::array<std::array<std::int64_t, 2>, 3> out{};
  if (!v.is_array() || v.size() != 3) {
    refuse(400, std::string(what) + " must be [[lo, hi], [lo, hi], [lo, hi]]");
  }
  for (std::size_t a = 0; a < 3; ++a) {
    if (!v[a].is_array() || v[a].size() != 2 || !v[a][0].is_number() || !v[a][1].is_number()) {
      refuse(400, std::string(what) + " must be [[lo, hi], [lo, hi], [lo, hi]]");
    }
    for (std::size_t e = 0; e < 2; ++e) {
      const double d = v[a][e].get<double>();
      if (!std::isfinite(d) || std::abs(d) > 1e15) {
        refuse(400, std::string(what) + " holds a number no index can be");
      }
      out[a][e] = static_cast<std::int64_t>(std::nearbyint(d));
    }
  }
  return out;
}

net::HttpResponse regionReply(const InteractiveSession& s, const core::VoxelBox& box) {
  if (box.empty()) {
    return predictionReply(true, nullptr);
  }
  const json shape =
      json::array({box.hi[2] - box.lo[2], box.hi[1] - box.lo[1], box.hi[0] - box.lo[0]});
  return predictionReply(
      true, toArrayBbox(box),
      packBufferRegion(s.target, s.image->geometry().size, box, core::ai::npDtypeOf(s.targetDtype)),
      s.targetDtype, shape);
}

void requireReady(const InteractiveSession& s) {
  if (!s.image) {
    refuse(400, "no image in this session: POST /set_image first");
  }
  if (s.targetDtype.empty()) {
    refuse(400, "no target buffer in this session: POST /set_target_buffer after /set_image");
  }
}

const std::vector<const char*>& integerDtypes() {
  static const std::vector<const char*> names{"bool",   "uint8", "int8",  "uint16", "int16",
                                              "uint32", "int32", "int64", "uint64"};
  return names;
}

}  // namespace

NnInteractiveApi::NnInteractiveApi(NnInteractiveOptions options)
    : options_(std::move(options)), leases_(options_.leases) {}

std::optional<net::HttpResponse> NnInteractiveApi::handle(const net::ServerRequest& r) {
  static const std::vector<std::string> routes{"/healthz",
                                               "/capabilities",
                                               "/claim",
                                               "/release",
                                               "/heartbeat",
                                               "/lease_status",
                                               "/set_image",
                                               "/set_target_buffer",
                                               "/set_do_autozoom",
                                               "/reset_interactions",
                                               "/undo",
                                               "/add_point_interaction",
                                               "/add_bbox_interaction",
                                               "/add_scribble_interaction",
                                               "/add_lasso_interaction",
                                               "/add_initial_seg_interaction"};
  std::string path = r.path;
  while (path.size() > 1 && path.back() == '/') {
    path.pop_back();
  }
  if (std::find(routes.begin(), routes.end(), path) == routes.end()) {
    return std::nullopt;
  }
  try {
    return route(path, r);
  } catch (const Refusal& e) {
    return jsonReply(e.status, {{"detail", e.detail}});
  } catch (const core::Error& e) {
    const int status =
        e.kind() == core::ErrorKind::TooLarge ? 413
        : e.kind() == core::ErrorKind::InvalidInput || e.kind() == core::ErrorKind::Unsupported
            ? 400
            : 500;
    return jsonReply(status, {{"detail", e.what()}});
  } catch (const std::exception& e) {
    return jsonReply(500, {{"detail", e.what()}});
  }
}

net::HttpResponse NnInteractiveApi::route(const std::string& path, const net::ServerRequest& r) {
  const std::string method =
      path == "/healthz" || path == "/capabilities" || path == "/lease_status" ? "GET" : "POST";
  if (r.method != method) {
    return jsonReply(405, {{"detail", "Method Not Allowed"}});
  }
  if (path == "/healthz") {
    return jsonReply(200, {{"ok", true}});
  }
  if (!options_.apiKey.empty()) {
    const std::string auth = r.header("Authorization");
    if (auth.rfind("Bearer ", 0) != 0) {
      refuse(401, "Missing bearer token");
    }
    if (auth.substr(7) != options_.apiKey) {
      refuse(401, "Invalid bearer token");
    }
  }
  if (path == "/capabilities") {
    return jsonReply(200, {{"supported_interactions",
                            {{"points", true},
                             {"bbox2d", true},
                             {"bbox3d", true},
                             {"scribble", true},
                             {"lasso", true}}},
                           {"channel_mapping", json::object()},
                           {"num_interaction_channels", 0},
                           {"supports_initial_label", true},
                           {"supports_zero_shot_label_refinement", false},
                           {"preferred_scribble_thickness", {2, 2, 2}},
                           {"interaction_decay", nullptr},
                           {"patch_size", nullptr},
                           {"do_autozoom", false},
                           {"inference_session_version", "delineate-server built-in engine"},
                           {"license", "no model weights (classical image processing)"},
                           {"supports_undo", true}});
  }
  const std::string token = r.header("X-Lease-Token");
  if (path == "/claim") {
    const auto claimed = leases_.claim();
    if (!claimed) {
      net::HttpResponse busy = jsonReply(
          503, {{"detail", "server is at capacity (" +
                               std::to_string(leases_.options().maxSessions) + " sessions)"}});
      busy.headers.push_back({"Retry-After", "10"});
      return busy;
    }
    return jsonReply(200, {{"lease_token", *claimed},
                           {"idle_timeout_seconds", leases_.options().idleTimeoutSeconds},
                           {"liveness_timeout_seconds", leases_.options().livenessTimeoutSeconds},
                           {"max_sessions", leases_.options().maxSessions}});
  }
  if (path == "/release") {
    leases_.release(token);
    return jsonReply(200, {{"released", true}});
  }
  if (token.empty()) {
    refuse(410, "lease token missing");
  }
  if (path == "/lease_status") {
    const auto left = leases_.idleSecondsLeft(token);
    if (!left) {
      refuse(410, "lease expired or unknown");
    }
    return jsonReply(200, {{"remaining_seconds", std::max(0.0, *left)},
                           {"idle_timeout_seconds", leases_.options().idleTimeoutSeconds}});
  }
  const auto touch =
      path == "/heartbeat" ? InteractiveLeases::Touch::Seen : InteractiveLeases::Touch::Active;
  const std::shared_ptr<InteractiveSession> session = leases_.find(token, touch);
  if (!session) {
    refuse(410, "lease expired or unknown");
  }
  if (path == "/heartbeat") {
    return jsonReply(200, {{"remaining_seconds", leases_.idleSecondsLeft(token).value_or(0.0)}});
  }
  std::lock_guard lock(session->lock);
  InteractiveSession& s = *session;
  if (path == "/set_image") {
    return setImage(s, r);
  }
  if (path == "/set_target_buffer") {
    return setTargetBuffer(s, r);
  }
  if (path == "/set_do_autozoom") {
    s.doAutozoom = flag(jsonBody(r), "do_autozoom", std::nullopt);
    return jsonReply(200, json::object());
  }
  if (path == "/reset_interactions") {
    std::fill(s.target.begin(), s.target.end(), 0);
    s.prompts.clear();
    s.initialSeg.reset();
    s.undo.reset();
    return jsonReply(200, json::object());
  }
  if (path == "/undo") {
    return undo(s);
  }
  if (path == "/add_initial_seg_interaction") {
    return addInitialSeg(s, r);
  }
  return addPrompt(s, path.substr(5, path.find("_interaction") - 5), r);
}

net::HttpResponse NnInteractiveApi::setImage(InteractiveSession& s, const net::ServerRequest& r) {
  const json meta = metaOf(r);
  const core::ai::PackedArray a =
      core::ai::unpackArray(r.body, "the uploaded image", options_.maxImageBytes);
  if (a.shape.size() != 4) {
    refuse(400, "the image must be a 4-D array [C, x, y, z], not " +
                    std::to_string(a.shape.size()) + "-D");
  }
  if (std::find(a.shape.begin(), a.shape.end(), 0) != a.shape.end()) {
    refuse(400, "the image has an empty axis");
  }
  core::ImageGeometry g;
  g.size = {static_cast<std::size_t>(a.shape[3]), static_cast<std::size_t>(a.shape[2]),
            static_cast<std::size_t>(a.shape[1])};
  // Optional, and null from some clients: the reference server reads it as {}.
  const json properties = meta.value("image_properties", json::object());
  const json spacing = properties.is_object() ? properties.value("spacing", json()) : json();
  if (spacing.is_array() && spacing.size() == 3 &&
      std::all_of(spacing.begin(), spacing.end(), [](const json& v) {
        return v.is_number() && v.get<double>() > 0 && v.get<double>() < 1e4;
      })) {
    g.spacing = {spacing[2].get<double>(), spacing[1].get<double>(), spacing[0].get<double>()};
  }
  const std::size_t count = g.voxelCount();
  auto voxels = std::make_shared<core::VoxelBuffer>(core::ScalarType::Float32, count);
  float* out = voxels->as<float>();
  channelZeroAsFloat(a, count, out);
  if (std::all_of(out, out + count, [](float v) { return v == 0.0f; })) {
    refuse(400, "Input image is entirely zero; nothing to segment");
  }
  core::VolumeInfo info;
  info.sourcePath = "nnInteractive client image";
  s.image = std::make_shared<const core::Volume>(g, voxels, info);
  s.imageShape = a.shape;
  s.target.clear();
  s.targetDtype.clear();
  s.prompts.clear();
  s.initialSeg.reset();
  s.undo.reset();
  return jsonReply(200, {{"original_image_shape", a.shape}});
}

net::HttpResponse NnInteractiveApi::setTargetBuffer(InteractiveSession& s,
                                                    const net::ServerRequest& r) {
  const json body = jsonBody(r);
  if (!body.contains("shape")) {
    refuse(400, "missing required field: shape");
  }
  if (!body.contains("dtype")) {
    refuse(400, "missing required field: dtype");
  }
  const json& shape = body["shape"];
  if (!shape.is_array()) {
    refuse(400, "shape must be a list of positive integers");
  }
  if (shape.size() != 3) {
    refuse(400, "shape must be 3D");
  }
  std::vector<std::int64_t> dims;
  for (const json& d : shape) {
    if (!d.is_number_integer()) {
      refuse(400, "shape must contain only integers");
    }
    if (d.get<std::int64_t>() <= 0) {
      refuse(400, "shape dimensions must be positive");
    }
    dims.push_back(d.get<std::int64_t>());
  }
  const std::string dtype = body["dtype"].is_string() ? body["dtype"].get<std::string>() : "";
  const auto& allowed = integerDtypes();
  if (std::find_if(allowed.begin(), allowed.end(), [&](const char* n) { return dtype == n; }) ==
      allowed.end()) {
    refuse(400, "unsupported dtype " + body["dtype"].dump() +
                    ": target buffer must be bool or an integer type");
  }
  if (!s.image) {
    refuse(400, "no image in this session: POST /set_image first");
  }
  if (dims != std::vector<std::int64_t>(s.imageShape.begin() + 1, s.imageShape.end())) {
    refuse(
        400,
        "the target buffer's shape " + shape.dump() + " is not the image's spatial shape " +
            json(std::vector<std::int64_t>(s.imageShape.begin() + 1, s.imageShape.end())).dump());
  }
  // Only the buffer is new: the prompts and the undo step stay, as on the reference server
  // (a client may send its buffer again in the middle of a session).
  s.target.assign(voxelCount(dims), 0);
  s.targetDtype = dtype;
  return jsonReply(200, json::object());
}

net::HttpResponse NnInteractiveApi::addPrompt(InteractiveSession& s, const std::string& kind,
                                              const net::ServerRequest& r) {
  const bool jsonRoute = kind == "point" || kind == "bbox";
  const json params = jsonRoute ? jsonBody(r) : metaOf(r);
  requireReady(s);
  const bool positive = flag(params, "include_interaction", std::nullopt);
  const bool run = flag(params, "run_prediction", true);
  const core::Size3 shape = arrayShape(s);  // [a0, a1, a2]
  core::ai::Prompt p;
  p.positive = positive;
  if (kind == "point") {
    const json& c = params.value("coordinates", json());
    if (!c.is_array() || c.size() != 3 || !c[0].is_number() || !c[1].is_number() ||
        !c[2].is_number()) {
      refuse(400, "coordinates must be three numbers");
    }
    std::int64_t v[3];
    for (std::size_t a = 0; a < 3; ++a) {
      const double d = c[a].get<double>();
      v[a] = std::isfinite(d) && std::abs(d) < 1e15 ? static_cast<std::int64_t>(std::nearbyint(d))
                                                    : -1;
      if (v[a] < 0 || static_cast<std::size_t>(v[a]) >= shape[a]) {
        refuse(400, "point " + c.dump() + " lies outside the image " +
                        json(std::vector<std::size_t>(shape.begin(), shape.end())).dump());
      }
    }
    p.kind = core::ai::PromptKind::Point;
    p.point = {static_cast<std::size_t>(v[2]), static_cast<std::size_t>(v[1]),
               static_cast<std::size_t>(v[0])};
    p.box = {p.point, {p.point[0] + 1, p.point[1] + 1, p.point[2] + 1}};
  } else if (kind == "bbox") {
    const auto b = bboxOf(params.value("bbox_coords", json()), "bbox_coords");
    std::array<std::array<std::size_t, 2>, 3> clipped{};
    for (std::size_t a = 0; a < 3; ++a) {
      const auto n = static_cast<std::int64_t>(shape[a]);
      // Clipped as the reference server clips: a box that clipping flattens keeps one slice
      // at the image's edge ([n, n+1] is slice n-1, [-2, -1] slice 0); one wholly beyond the
      // far edge or reversed stays flat and is refused.
      std::int64_t lo = std::max<std::int64_t>(b[a][0], 0);
      std::int64_t hi = std::min<std::int64_t>(b[a][1], n);
      if (hi <= lo) {
        if (lo == 0) {
          hi = std::min<std::int64_t>(1, n);
        } else {
          lo -= 1;
        }
      }
      if (hi - lo <= 0) {
        refuse(400, "bbox_coords has no extent along axis " + std::to_string(a) +
                        " inside the image " +
                        json(std::vector<std::size_t>(shape.begin(), shape.end())).dump());
      }
      clipped[a] = {static_cast<std::size_t>(lo), static_cast<std::size_t>(hi)};
    }
    p.kind = core::ai::PromptKind::Box;
    p.box = toVolumeBox(clipped);
  } else {
    const core::ai::PackedArray mask =
        core::ai::unpackArray(r.body, "the " + kind + " mask", s.target.size() * 8 + 64);
    if (mask.shape.size() != 3) {
      refuse(400, "the " + kind + " mask must be 3-D");
    }
    std::array<std::array<std::size_t, 2>, 3> region{};
    const json bbox = params.value("interaction_bbox", json());
    if (bbox.is_null()) {
      for (std::size_t a = 0; a < 3; ++a) {
        if (static_cast<std::size_t>(mask.shape[a]) != shape[a]) {
          refuse(400, "a " + kind + " mask without interaction_bbox must have the image's shape");
        }
        region[a] = {0, shape[a]};
      }
    } else {
      const auto b = bboxOf(bbox, "interaction_bbox");
      for (std::size_t a = 0; a < 3; ++a) {
        if (b[a][0] < 0 || b[a][1] > static_cast<std::int64_t>(shape[a])) {
          refuse(400, "interaction_bbox lies outside the image " +
                          json(std::vector<std::size_t>(shape.begin(), shape.end())).dump());
        }
        if (b[a][1] - b[a][0] <= 0) {
          refuse(400, "interaction_bbox has a non-positive extent along axis " + std::to_string(a));
        }
        if (b[a][1] - b[a][0] != mask.shape[a]) {
          refuse(400, "the " + kind + " mask's shape does not match interaction_bbox");
        }
        region[a] = {static_cast<std::size_t>(b[a][0]), static_cast<std::size_t>(b[a][1])};
      }
    }
    p.kind = kind == "scribble" ? core::ai::PromptKind::Scribble : core::ai::PromptKind::Lasso;
    p.box = toVolumeBox(region);
    const std::size_t item = core::ai::itemSize(mask.dtype);
    p.mask.resize(mask.elementCount());
    for (std::size_t n = 0; n < p.mask.size(); ++n) {
      bool set = false;
      for (std::size_t b = 0; b < item; ++b) {
        set = set || mask.bytes[n * item + b] != 0;
      }
      p.mask[n] = set ? 1 : 0;
    }
    if (std::none_of(p.mask.begin(), p.mask.end(), [](std::uint8_t v) { return v != 0; })) {
      return predictionReply(run, nullptr);  // nothing to queue
    }
  }
  s.undo = InteractiveSession::Snapshot{s.target, s.prompts, s.initialSeg};
  s.prompts.push_back(std::move(p));
  if (!run) {
    return predictionReply(false, nullptr);
  }
  return predict(s, s.prompts.back().box);
}

net::HttpResponse NnInteractiveApi::predict(InteractiveSession& s,
                                            const core::VoxelBox& promptRegion) {
  core::NullProgress progress;
  const core::Size3 size = s.image->geometry().size;
  // With an initial segmentation the prompts refine it (the engine's mask refiner).
  std::optional<annotation::BoxMask> initial;
  if (s.initialSeg) {
    annotation::BoxMask whole(core::VoxelBox::whole(size));
    whole.bits = *s.initialSeg;
    initial = whole.shrunkToContent();
  }
  const annotation::BoxMask found =
      segmenter_.segment(*s.image, s.prompts, progress, initial ? &*initial : nullptr);
  std::vector<std::uint8_t> next(s.target.size(), 0);
  for (std::size_t k = found.box.lo[2]; k < found.box.hi[2]; ++k) {
    for (std::size_t j = found.box.lo[1]; j < found.box.hi[1]; ++j) {
      for (std::size_t i = found.box.lo[0]; i < found.box.hi[0]; ++i) {
        if (found.at(i, j, k)) {
          next[i + size[0] * (j + size[1] * k)] = 1;
        }
      }
    }
  }
  core::VoxelBox region = differingBox(s.target, next, size);
  region.include(found.box);
  region.include(annotation::intersection(promptRegion, core::VoxelBox::whole(size)));
  s.target = std::move(next);
  return regionReply(s, region);
}

net::HttpResponse NnInteractiveApi::addInitialSeg(InteractiveSession& s,
                                                  const net::ServerRequest& r) {
  const json meta = metaOf(r);
  requireReady(s);
  const bool run = flag(meta, "run_prediction", false);
  const core::ai::PackedArray seg =
      core::ai::unpackArray(r.body, "the initial segmentation", s.target.size() * 8 + 64);
  if (seg.shape != std::vector<std::int64_t>(s.imageShape.begin() + 1, s.imageShape.end())) {
    refuse(400, "the initial segmentation must have the image's spatial shape");
  }
  const std::size_t item = core::ai::itemSize(seg.dtype);
  std::vector<std::uint8_t> bits(s.target.size(), 0);
  for (std::size_t n = 0; n < bits.size(); ++n) {
    for (std::size_t b = 0; b < item; ++b) {
      bits[n] = bits[n] || seg.bytes[n * item + b] != 0;
    }
  }
  s.undo = InteractiveSession::Snapshot{s.target, s.prompts, s.initialSeg};
  const core::VoxelBox region = differingBox(s.target, bits, s.image->geometry().size);
  s.prompts.clear();
  s.initialSeg = bits;
  s.target = std::move(bits);
  return run ? regionReply(s, region) : predictionReply(false, nullptr);
}

net::HttpResponse NnInteractiveApi::undo(InteractiveSession& s) {
  if (!s.undo || s.targetDtype.empty()) {
    return predictionReply(false, nullptr);
  }
  const core::VoxelBox region = differingBox(s.target, s.undo->target, s.image->geometry().size);
  s.target = std::move(s.undo->target);
  s.prompts = std::move(s.undo->prompts);
  s.initialSeg = std::move(s.undo->initialSeg);
  s.undo.reset();
  return regionReply(s, region);
}

}  // namespace delineate::server
