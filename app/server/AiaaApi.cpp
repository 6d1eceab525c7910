#include "app/server/AiaaApi.h"

#include <chrono>

#include "app/server/ClickParams.h"
#include "app/server/JsonAnswer.h"
#include "core/Error.h"
#include "core/ai/Multipart.h"
#include "core/ai/VolumeBytes.h"

namespace delineate::server {

namespace net = core::net;
namespace ai = core::ai;
using nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;

net::HttpResponse aiaaError(int status, const std::string& type, const std::string& message) {
  return jsonAnswer(status, {{"error", {{"message", json::array({message})}, {"type", type}}},
                             {"success", false}});
}

std::string aiaaType(const ai::ModelInfo& m) {
  switch (ai::modelGroup(m.type)) {
    case ai::ModelGroup::Deepgrow:
      return "deepgrow";
    case ai::ModelGroup::ExtremePoints:
      return "annotation";
    default:
      return "segmentation";
  }
}

json modelJson(const ai::ModelInfo& m) {
  json labels = json::array();
  for (const ai::ModelLabel& l : m.labels) {
    if (!l.background) {
      labels.push_back(l.name);
    }
  }
  json j = {{"name", m.name},
            {"type", aiaaType(m)},
            {"labels", labels},
            {"description", m.description},
            {"version", "1"}};
  if (j["type"] == "annotation") {
    const auto roi = AiaaApi::kDextr3dRoi;
    j["padding"] = AiaaApi::kDextr3dPaddingMm;
    j["roi"] = {roi, roi, roi};
    j["sigma"] = 3;
  }
  if (j["type"] == "deepgrow") {
    j["deepgrow"] = m.dimension == 2 ? "2D" : "3D";
  }
  return j;
}

// The label as uint8 NIfTI (AIAA's masks are small integers).
std::string maskBytes(const core::LabelMap& labels) {
  auto bytes = std::make_shared<core::VoxelBuffer>(core::ScalarType::UInt8, labels.voxelCount());
  auto* dst = bytes->as<std::uint8_t>();
  const std::uint16_t* src = labels.data();
  for (std::size_t i = 0; i < labels.voxelCount(); ++i) {
    dst[i] = static_cast<std::uint8_t>(std::min<std::uint16_t>(src[i], 255));
  }
  const core::Volume volume(labels.geometry(), bytes, labels.asVolume()->info());
  return ai::volumeToBytes(volume, "label.nii.gz");
}

}  // namespace

AiaaApi::AiaaApi(std::shared_ptr<ai::AiBackend> backend, SessionStore& sessions)
    : backend_(std::move(backend)), sessions_(sessions) {}

net::HttpResponse AiaaApi::handle(const std::string& route, const net::ServerRequest& r) {
  try {
    if (route == "models" && r.method == "GET") {
      return models(r);
    }
    if ((route == "segmentation" || route == "deepgrow" || route == "dextr3d" ||
         route == "inference") &&
        r.method == "POST") {
      return infer(route, r);
    }
    return aiaaError(404, "NotFound", "No route /v1/" + route + " for " + r.method);
  } catch (const core::CancelledError&) {
    return aiaaError(500, "Cancelled", "cancelled");
  } catch (const core::Error& e) {
    return aiaaError(e.kind() == core::ErrorKind::InvalidInput ? 400 : 500, "ValueError", e.what());
  } catch (const std::exception& e) {
    return aiaaError(500, "Exception", e.what());
  }
}

net::HttpResponse AiaaApi::models(const net::ServerRequest& r) {
  core::NullProgress progress;
  const ai::ServerInfo info = backend_->info(progress);
  const std::string name = r.queryValue("model");
  const std::string type = r.queryValue("type");
  json list = json::array();
  for (const ai::ModelInfo& m : info.models) {
    const json j = modelJson(m);
    if (!name.empty() && m.name == name) {
      return jsonAnswer(200, j);
    }
    if (name.empty() && (type.empty() || j["type"] == type)) {
      list.push_back(j);
    }
  }
  if (!name.empty()) {
    return aiaaError(404, "NotFound", "Model '" + name + "' Not Found");
  }
  return jsonAnswer(200, list);
}

net::HttpResponse AiaaApi::infer(const std::string& route, const net::ServerRequest& r) {
  const auto start = Clock::now();
  core::NullProgress progress;
  ai::InferRequest request;
  request.model = r.queryValue("model");
  if (request.model.empty()) {
    return aiaaError(400, "ValueError", "the query parameter 'model' is missing");
  }
  const auto parts = ai::multipartBoundary(r.header("Content-Type"))
                         ? ai::parseMultipart(r.header("Content-Type"), r.body)
                         : std::vector<ai::MultipartPart>{};
  json params = json::object();
  if (const ai::MultipartPart* p = ai::findPart(parts, "params"); p && !p->body.empty()) {
    params = json::parse(p->body, nullptr, false);
    if (!params.is_object()) {
      return aiaaError(400, "ValueError", "the params field is not a JSON object");
    }
  }
  const ai::MultipartPart* file = nullptr;
  for (const char* field : {"image", "datapoint", "file"}) {
    if (file == nullptr) {
      file = ai::findPart(parts, field);
    }
  }
  const std::string sessionId = r.queryValue("session_id");
  if (!sessionId.empty()) {
    const auto s = sessions_.find(sessionId);
    if (!s) {
      return aiaaError(440, "SessionExpired", "Session '" + sessionId + "' has expired");
    }
    request.image = s->image;
  } else if (file != nullptr) {
    request.image =
        ai::volumeFromBytes(std::string(file->body), file->filename.value_or("image.nii.gz"),
                            "the uploaded image", progress);
  } else {
    return aiaaError(400, "ValueError", "no image: send the form part 'image' or a session_id");
  }
  if (route == "deepgrow") {
    request.foreground = clicksOf(params, "foreground");
    request.background = clicksOf(params, "background");
    if (request.foreground.empty()) {
      return aiaaError(400, "ValueError", "deepgrow needs at least one foreground point");
    }
  } else if (route == "dextr3d") {
    request.extremePoints = clicksOf(params, "points");
    if (request.extremePoints.size() < 6) {
      return aiaaError(400, "ValueError", "DEXTR3D needs at least 6 extreme points");
    }
  } else {
    request.foreground = clicksOf(params, "foreground");
    request.background = clicksOf(params, "background");
    request.extremePoints = clicksOf(params, "points");
  }
  request.options = params;
  const ai::InferResult result = backend_->infer(request, progress);
  json out = result.params.is_object() ? result.params : json::object();
  out["latencies"]["total"] = std::chrono::duration<double>(Clock::now() - start).count();
  ai::MultipartEncoder form;
  form.addField("params", out.dump());
  form.addFile("image", "label.nii.gz", maskBytes(*result.labels));
  net::HttpResponse m;
  m.status = 200;
  m.headers = {{"Content-Type", form.contentType()}};
  m.body = form.finish();
  return m;
}

}  // namespace delineate::server
