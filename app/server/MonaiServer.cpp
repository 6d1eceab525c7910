#include "app/server/MonaiServer.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <fstream>
#include <sstream>

#include "app/server/ClickParams.h"
#include "app/server/JsonAnswer.h"
#include "app/server/MammoDetectorModel.h"
#include "core/Error.h"
#include "core/ai/Multipart.h"
#include "core/ai/VolumeBytes.h"
#include "core/io/VolumeFileIO.h"

namespace delineate::server {

namespace net = core::net;
namespace ai = core::ai;
using nlohmann::json;

namespace {

using Clock = std::chrono::steady_clock;

net::HttpResponse detail(int status, const std::string& text) {
  return jsonAnswer(status, {{"detail", text}});
}

net::HttpResponse fileAnswer(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return detail(404, "File not found: " + path.filename().string());
  }
  std::ostringstream bytes;
  bytes << in.rdbuf();
  net::HttpResponse r;
  r.status = 200;
  r.headers = {
      {"Content-Type", "application/octet-stream"},
      {"Content-Disposition", "attachment; filename=\"" + path.filename().string() + "\""}};
  r.body = bytes.str();
  return r;
}

// The parts of a form-data request; empty when the body is not multipart.
std::vector<ai::MultipartPart> formParts(const net::ServerRequest& r) {
  if (!ai::multipartBoundary(r.header("Content-Type"))) {
    return {};
  }
  return ai::parseMultipart(r.header("Content-Type"), r.body);
}

// The JSON object in form field `field` (`params`, `info`); {} when the field is absent.
json paramsOf(const std::vector<ai::MultipartPart>& parts, const char* field = "params") {
  const ai::MultipartPart* p = ai::findPart(parts, field);
  if (p == nullptr || p->body.empty()) {
    return json::object();
  }
  json params = json::parse(p->body, nullptr, false);
  if (!params.is_object()) {
    throw core::Error(core::ErrorKind::InvalidInput, field,
                      std::string("the ") + field + " field is not a JSON object");
  }
  return params;
}

// Whether the body is as long as its Content-Length says (when it says).
bool bodyComplete(const net::ServerRequest& r) {
  const std::string length = r.header("Content-Length");
  if (length.empty()) {
    return true;
  }
  std::size_t expected = 0;
  const auto [end, ec] = std::from_chars(length.data(), length.data() + length.size(), expected);
  return ec == std::errc() && end == length.data() + length.size() && expected == r.body.size();
}

// The answer to HEAD: the status alone.
net::HttpResponse headAnswer(bool found) {
  net::HttpResponse h;
  h.status = found ? 200 : 404;
  h.headers = {{"Content-Type", "application/json"}};
  return h;
}

// The label map as the file the client asked for: uint8 unless a label value needs more.
std::string labelBytes(const core::LabelMap& labels, const std::string& extension,
                       const std::string& dtype) {
  core::VolumePtr volume = labels.asVolume();
  std::uint16_t maxLabel = 0;
  const std::uint16_t* src = labels.data();
  for (std::size_t i = 0; i < labels.voxelCount(); ++i) {
    maxLabel = std::max(maxLabel, src[i]);
  }
  if (dtype != "uint16" && maxLabel <= 255) {
    auto bytes = std::make_shared<core::VoxelBuffer>(core::ScalarType::UInt8, labels.voxelCount());
    auto* dst = bytes->as<std::uint8_t>();
    for (std::size_t i = 0; i < labels.voxelCount(); ++i) {
      dst[i] = static_cast<std::uint8_t>(src[i]);
    }
    volume = std::make_shared<const core::Volume>(labels.geometry(), bytes, volume->info());
  }
  return ai::volumeToBytes(*volume, "label" + extension);
}

}  // namespace

MonaiServer::MonaiServer(std::shared_ptr<ai::AiBackend> backend, ServerOptions options)
    : backend_(std::move(backend)),
      options_(std::move(options)),
      datastore_(options_.datastore),
      training_(options_.trainCommand, options_.datastore / "train"),
      auth_(options_.auth ? std::make_unique<AuthGate>(*options_.auth) : nullptr),
      aiaa_(backend_, sessions_),
      nnInteractive_(options_.nnInteractive) {}

net::HttpResponse MonaiServer::handle(const net::ServerRequest& r) {
  if (auto answer = nnInteractive_.handle(r)) {
    return *answer;  // its own API key and leases
  }
  try {
    if (auth_) {
      if (auto refused = auth_->check(r)) {
        return *refused;  // an /auth/ route's answer, or a 401/403
      }
    }
    if (!bodyComplete(r)) {
      // A client that went away mid-upload: nothing of it may reach the datastore.
      return detail(400, "the request body is incomplete (" + std::to_string(r.body.size()) +
                             " of " + r.header("Content-Length") + " bytes)");
    }
    const std::string& p = r.path;
    auto after = [&p](const std::string& prefix) -> std::optional<std::string> {
      if (p.rfind(prefix, 0) != 0) {
        return std::nullopt;
      }
      std::string rest = p.substr(prefix.size());
      while (!rest.empty() && rest.back() == '/') {
        rest.pop_back();
      }
      return rest;
    };
    if (p == "/info/" || p == "/info") {
      return info();
    }
    if (auto route = after("/v1/")) {
      return aiaa_.handle(*route, r);
    }
    if (auto model = after("/infer/"); model && r.method == "POST") {
      return infer(*model, r);
    }
    if (auto rest = after("/session")) {
      return session(rest->empty() ? "" : rest->substr(rest->front() == '/' ? 1 : 0), r);
    }
    if (auto rest = after("/datastore")) {
      return datastore(rest->empty() ? "" : rest->substr(rest->front() == '/' ? 1 : 0), r);
    }
    if (auto strategy = after("/activelearning/"); strategy && r.method == "POST") {
      return activeLearning(*strategy, r);
    }
    if (auto model = after("/train")) {
      return train(model->empty() ? "" : model->substr(model->front() == '/' ? 1 : 0), r);
    }
    return detail(404, "Not Found");
  } catch (const core::CancelledError&) {
    return detail(500, "cancelled");
  } catch (const core::Error& e) {
    // What the request asked for is wrong or not served (a 3-D image for a 2-D model): the
    // client's to fix. The rest is the server's.
    const bool clients = e.kind() == core::ErrorKind::InvalidInput ||
                         e.kind() == core::ErrorKind::Unsupported ||
                         e.kind() == core::ErrorKind::TooLarge;
    return detail(clients ? 400 : 500, e.what());
  } catch (const nlohmann::json::exception& e) {
    return detail(422, std::string("malformed request: ") + e.what());
  } catch (const std::exception& e) {
    return detail(500, e.what());
  }
}

net::HttpResponse MonaiServer::info() {
  core::NullProgress progress;
  json body = backend_->info(progress).raw;
  body["strategies"] = {{"first", {{"description", "The first image without a final label"}}},
                        {"random", {{"description", "A random image without a final label"}}}};
  json labels = json::object();
  for (const auto& [name, value] : options_.labels) {
    labels[name] = value;
  }
  if (!labels.empty()) {
    body["labels"] = labels;
  }
  if (training_.configured()) {
    body["trainers"] = {{options_.trainModel,
                         {{"description", "Runs the server's training command"},
                          {"config", {{"max_epochs", 10}}}}}};
    if (!labels.empty()) {
      body["trainers"][options_.trainModel]["labels"] = labels;
    }
    json stats = training_.stats();
    // MONAI Label's own stats name the epoch reached both ways; its clients read "epoch".
    if (stats.is_object() && !stats.contains("epoch") && stats.contains("current_epoch")) {
      stats["epoch"] = stats["current_epoch"];
    }
    body["train_stats"] = {{options_.trainModel, stats}};
  }
  body["datastore"] = datastore_.stats();
  body["models"][kMammoDetectorModel] = mammoDetectorInfo();
  body["models"][kMammoHeatmapModel] = mammoHeatmapInfo();
  return jsonAnswer(200, body);
}

std::variant<core::VolumePtr, net::HttpResponse> MonaiServer::namedImage(
    const net::ServerRequest& r, core::ProgressSink& progress) {
  if (!r.queryValue("session_id").empty()) {
    const auto s = sessions_.find(r.queryValue("session_id"));
    if (!s) {
      return detail(404, "Session (" + r.queryValue("session_id") + ") Not Found");
    }
    return s->image;
  }
  if (!r.queryValue("image").empty()) {
    const auto path = datastore_.imageFile(r.queryValue("image"));
    if (!path) {
      return detail(404, "Image (" + r.queryValue("image") + ") Not Found");
    }
    return core::readVolumeFile(*path, progress);
  }
  return detail(500, "Neither Image nor File not Session ID input is provided");
}

net::HttpResponse MonaiServer::inferMammo(const net::ServerRequest& r, bool heatmap) {
  const auto start = Clock::now();
  const std::string output = r.queryValue("output");
  if (!heatmap && (output == "image" || output == "dicom_seg")) {  // MONAI Label fails these too
    return detail(500, std::string("Model ") + kMammoDetectorModel +
                           " writes no result image; its result is JSON (output=json or none)");
  }
  const auto parts = formParts(r);
  const json params = paramsOf(parts);
  core::NullProgress progress;
  core::mammo::DetectorImage image;
  if (const ai::MultipartPart* file = ai::findPart(parts, "file")) {
    const std::string bytes(file->body);
    const std::string name = file->filename.value_or("");
    if (isDicomUpload(bytes, name)) {
      image = readDicomUpload(bytes, name, progress);
    } else {
      image.image = ai::volumeFromBytes(bytes, name, "the uploaded image", progress);
      image.view.id = name;
    }
  } else {
    auto named = namedImage(r, progress);
    if (auto* refusal = std::get_if<net::HttpResponse>(&named)) {
      return *refusal;
    }
    image.image = std::get<core::VolumePtr>(named);
    image.view.id = r.queryValue("image");
  }
  const auto inferStart = Clock::now();
  core::VolumePtr probability;
  json out = runMammoDetector(std::move(image), params, progress, heatmap ? &probability : nullptr);
  const auto end = Clock::now();
  out["latencies"] = {{"pre", std::chrono::duration<double>(inferStart - start).count()},
                      {"infer", std::chrono::duration<double>(end - inferStart).count()},
                      {"post", 0.0},
                      {"write", 0.0},
                      {"total", std::chrono::duration<double>(end - start).count()}};
  if (!heatmap || output == "json") {
    return jsonAnswer(200, out);
  }
  const std::string bytes = ai::volumeToBytes(*probability, "heatmap.nii.gz");
  if (output == "image") {
    net::HttpResponse f;
    f.status = 200;
    f.headers = {{"Content-Type", "application/octet-stream"},
                 {"Content-Disposition", "attachment; filename=\"heatmap.nii.gz\""}};
    f.body = bytes;
    return f;
  }
  ai::MultipartEncoder form;
  form.addField("params", out.dump());
  form.addFile("image", "heatmap.nii.gz", bytes);
  net::HttpResponse m;
  m.status = 200;
  m.headers = {{"Content-Type", form.contentType()}};
  m.body = form.finish();
  return m;
}

net::HttpResponse MonaiServer::infer(const std::string& model, const net::ServerRequest& r) {
  if (model == kMammoDetectorModel || model == kMammoHeatmapModel) {
    return inferMammo(r, model == kMammoHeatmapModel);
  }
  const auto start = Clock::now();
  const auto parts = formParts(r);
  const json params = paramsOf(parts);
  core::NullProgress progress;
  ai::InferRequest request;
  request.model = model;
  const ai::MultipartPart* file = ai::findPart(parts, "file");
  if (file != nullptr) {
    request.image = ai::volumeFromBytes(std::string(file->body), file->filename.value_or(""),
                                        "the uploaded image", progress);
  } else {
    auto named = namedImage(r, progress);
    if (auto* refusal = std::get_if<net::HttpResponse>(&named)) {
      return *refusal;
    }
    request.image = std::get<core::VolumePtr>(named);
  }
  const double pre = std::chrono::duration<double>(Clock::now() - start).count();
  request.label = textParam(params, "label", "");
  request.foreground = clicksOf(params, "foreground");
  request.background = clicksOf(params, "background");
  request.extremePoints = clicksOf(params, "points");
  // A region of interest is the structure's box: the engine's box segmenter reads it.
  if (const auto roi = roiOf(params, request.image->geometry().size)) {
    ai::Prompt box;
    box.kind = ai::PromptKind::Box;
    box.box = *roi;
    request.prompts.push_back(box);
  }
  request.options = params;
  ai::InferResult result = backend_->infer(request, progress);

  const auto writeStart = Clock::now();
  const std::string extension = textParam(params, "result_extension", ".nii.gz");
  const std::string image =
      labelBytes(*result.labels, extension, textParam(params, "result_dtype", ""));
  const double write = std::chrono::duration<double>(Clock::now() - writeStart).count();
  json out = result.params;
  out["latencies"]["pre"] = pre;
  out["latencies"]["write"] = write;
  out["latencies"]["total"] = std::chrono::duration<double>(Clock::now() - start).count();

  const std::string output = r.queryValue("output");
  if (output == "json") {
    return jsonAnswer(200, out);
  }
  if (output == "image") {
    net::HttpResponse f;
    f.status = 200;
    f.headers = {{"Content-Type", "application/octet-stream"},
                 {"Content-Disposition", "attachment; filename=\"label" + extension + "\""}};
    f.body = image;
    return f;
  }
  ai::MultipartEncoder form;
  form.addField("params", out.dump());
  form.addFile("image", "label" + extension, image);
  net::HttpResponse m;
  m.status = 200;
  m.headers = {{"Content-Type", form.contentType()}};
  m.body = form.finish();
  return m;
}

net::HttpResponse MonaiServer::session(const std::string& id, const net::ServerRequest& r) {
  if (r.method == "PUT" || (r.method == "POST" && id.empty())) {
    const auto parts = formParts(r);
    const ai::MultipartPart* file = nullptr;
    for (const char* field : {"files", "file", "image"}) {  // "image": Clara AIAA's clients
      if (file == nullptr) {
        file = ai::findPart(parts, field);
      }
    }
    if (file == nullptr) {
      return detail(422, "field required: files");
    }
    core::NullProgress progress;
    const std::string name = file->filename.value_or("image.nii.gz");
    core::VolumePtr image =
        ai::volumeFromBytes(std::string(file->body), name, "the uploaded image", progress);
    long expiry = 0;
    if (!r.queryValue("expiry").empty()) {
      expiry = std::strtol(r.queryValue("expiry").c_str(), nullptr, 10);
    }
    return jsonAnswer(200, SessionStore::toJson(sessions_.create(std::move(image), name,
                                                                 std::chrono::seconds(expiry))));
  }
  const auto s = sessions_.find(id);
  if (!s) {
    return detail(404, "Session (" + id + ") Not Found");
  }
  if (r.method == "DELETE") {
    sessions_.remove(id);
  }
  // GET and DELETE answer the session's info itself, named by its id, as MONAI Label does.
  json info = SessionStore::toJson(*s)["session_info"];
  info["name"] = id;
  return jsonAnswer(200, info);
}

net::HttpResponse MonaiServer::datastore(const std::string& rest, const net::ServerRequest& r) {
  if (rest.empty() && r.method == "GET") {
    const std::string output = r.queryValue("output");
    if (output == "all") {
      return jsonAnswer(200, datastore_.all());
    }
    if (output == "train") {
      return jsonAnswer(200, datastore_.trainingPairs());
    }
    return jsonAnswer(200, datastore_.stats());
  }
  const std::string image = r.queryValue("image");
  // MONAI Label names the labelled image `label` on reads and `image` on writes; `id` on deletes.
  const std::string label = r.queryValue("label");
  const std::string tag = r.queryValue("tag").empty() ? "final" : r.queryValue("tag");
  if ((rest == "image" || rest.empty()) && r.method == "PUT") {
    const auto parts = formParts(r);
    const ai::MultipartPart* file = ai::findPart(parts, "file");
    if (file == nullptr) {
      return detail(422, "field required: file");
    }
    const std::string id = datastore_.putImage(image, file->filename.value_or("image.nii.gz"),
                                               std::string(file->body), paramsOf(parts));
    return jsonAnswer(200, {{"image", id}});
  }
  if ((rest == "image" || rest.empty()) && r.method == "DELETE") {
    datastore_.removeImage(r.queryValue("id"));
    return jsonAnswer(200, json::object());
  }
  if (rest == "image" && r.method == "HEAD") {
    return headAnswer(datastore_.imageFile(image).has_value());
  }
  if (rest == "label" && r.method == "HEAD") {
    return headAnswer(datastore_.labelFile(image, tag).has_value());
  }
  if (rest == "label" && r.method == "PUT") {
    const auto parts = formParts(r);
    const ai::MultipartPart* file = ai::findPart(parts, "label");
    if (file == nullptr) {
      return detail(422, "field required: label");
    }
    if (!datastore_.putLabel(image, tag, file->filename.value_or("label.nii.gz"),
                             std::string(file->body), paramsOf(parts))) {
      return detail(404, "Image (" + image + ") Not Found");
    }
    return jsonAnswer(200, {{"image", image}, {"label", image}, {"tag", tag}});
  }
  if (rest == "label" && r.method == "DELETE") {
    datastore_.removeLabel(r.queryValue("id"), tag);
    return jsonAnswer(200, json::object());
  }
  // Info of an id the datastore does not hold is {}, as MONAI Label answers it.
  if (rest == "image/info" && r.method == "GET") {
    return jsonAnswer(200, datastore_.imageInfo(image).value_or(json::object()));
  }
  if (rest == "label/info" && r.method == "GET") {
    return jsonAnswer(200, datastore_.labelInfo(label, tag).value_or(json::object()));
  }
  if (rest == "image/info" && r.method == "PUT") {
    if (!datastore_.updateImageInfo(image, paramsOf(formParts(r), "info"))) {
      return detail(404, "Image (" + image + ") Not Found");
    }
    return jsonAnswer(200, nullptr);
  }
  if (rest == "label/info" && r.method == "PUT") {
    if (!datastore_.updateLabelInfo(label, tag, paramsOf(formParts(r), "info"))) {
      return detail(404, "Label (" + label + ", " + tag + ") Not Found");
    }
    return jsonAnswer(200, nullptr);
  }
  if (rest == "image" && r.method == "GET") {
    const auto path = datastore_.imageFile(image);
    return path ? fileAnswer(*path) : detail(404, "Image (" + image + ") Not Found");
  }
  if (rest == "label" && r.method == "GET") {
    const auto path = datastore_.labelFile(label, tag);
    return path ? fileAnswer(*path) : detail(404, "Label (" + label + ", " + tag + ") Not Found");
  }
  return detail(404, "Not Found");
}

net::HttpResponse MonaiServer::activeLearning(const std::string& strategy,
                                              const net::ServerRequest& r) {
  if (strategy != "first" && strategy != "random") {
    return detail(404, "Strategy (" + strategy + ") Not Found");
  }
  const json body = json::parse(r.body.empty() ? std::string("{}") : r.body, nullptr, false);
  const std::string client = textParam(body, "client_id", "");
  const auto next = datastore_.nextUnlabelled(strategy, client);
  return jsonAnswer(200, next ? *next : json::object());
}

namespace {

// A boolean query parameter as FastAPI reads one: true, 1, yes, on (any case).
bool flagParam(const net::ServerRequest& r, const char* key) {
  std::string v = r.queryValue(key);
  std::transform(v.begin(), v.end(), v.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return v == "true" || v == "1" || v == "yes" || v == "on";
}

}  // namespace

net::HttpResponse MonaiServer::train(const std::string& model, const net::ServerRequest& r) {
  // As MONAI Label answers: 404 when there is no run (or, with check_if_running, none running),
  // which its clients read as "not training"; stopping answers the stopped run, or null.
  if (r.method == "GET") {
    const json status = training_.status();
    if (status.empty()) {
      return detail(404, "No Train Tasks Found");
    }
    if (flagParam(r, "check_if_running") && !training_.running()) {
      return detail(404, "No Train Tasks are currently Running");
    }
    return jsonAnswer(200, flagParam(r, "all") ? json::array({status}) : status);
  }
  if (r.method == "DELETE") {
    return jsonAnswer(200, training_.stop() ? training_.status() : json());
  }
  if (!training_.configured()) {
    return detail(404, "No trainer: the server was started without --train-command");
  }
  if (!model.empty() && model != options_.trainModel) {
    return detail(404, "Trainer (" + model + ") Not Found");
  }
  json config = json::parse(r.body.empty() ? std::string("{}") : r.body, nullptr, false);
  // POST /train/ (no model named) takes {model: params}, as OHIF sends it.
  if (model.empty() && config.is_object() && config.contains(options_.trainModel) &&
      config[options_.trainModel].is_object()) {
    config = json(config[options_.trainModel]);
  }
  const json started =
      training_.start(options_.trainModel, config.is_object() ? config : json::object(),
                      datastore_.trainingPairs());
  if (started.is_null()) {
    return detail(429, "++++++++++ Train Task is Already Running");
  }
  return jsonAnswer(200, started);
}

}  // namespace delineate::server
