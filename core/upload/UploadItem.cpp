#include "core/upload/UploadItem.h"

#include "core/Error.h"

namespace delineate::core::upload {

using nlohmann::json;

const char* toString(UploadState state) {
  switch (state) {
    case UploadState::Pending:
      return "pending";
    case UploadState::Done:
      return "done";
    case UploadState::Failed:
      return "failed";
  }
  return "pending";
}

namespace {

UploadState stateFrom(const std::string& text) {
  if (text == "done") {
    return UploadState::Done;
  }
  if (text == "failed") {
    return UploadState::Failed;
  }
  return UploadState::Pending;
}

json fileJson(const StagedFile& f) {
  return {{"name", f.name}, {"sha256", f.sha256}, {"size", f.size}, {"stored", f.stored}};
}

StagedFile fileFrom(const json& j) {
  StagedFile f;
  if (j.is_object()) {
    f.name = j.value("name", "");
    f.sha256 = j.value("sha256", "");
    f.size = j.value("size", std::uint64_t{0});
    f.stored = j.value("stored", false);
  }
  return f;
}

}  // namespace

json toJson(const UploadItem& item) {
  return {{"id", item.id},
          {"state", toString(item.state)},
          {"image", fileJson(item.image)},
          {"label", fileJson(item.label)},
          {"label_tag", item.labelTag},
          {"label_info", item.labelInfo},
          {"source", item.source},
          {"attempts", item.attempts},
          {"next_attempt", item.nextAttemptUnix},
          {"last_error", item.lastError},
          {"queued", item.queuedUnix},
          {"done", item.doneUnix}};
}

UploadItem itemFromJson(const json& j, const std::string& where) {
  if (!j.is_object() || !j.contains("id") || !j["id"].is_string() || !j.contains("image")) {
    throw Error(ErrorKind::InvalidInput, where, "not an upload item");
  }
  try {
    UploadItem item;
    item.id = j.at("id").get<std::string>();
    item.state = stateFrom(j.value("state", "pending"));
    item.image = fileFrom(j.at("image"));
    item.label = fileFrom(j.value("label", json::object()));
    item.labelTag = j.value("label_tag", "final");
    item.labelInfo = j.value("label_info", json::array());
    item.source = j.value("source", "");
    item.attempts = j.value("attempts", 0);
    item.nextAttemptUnix = j.value("next_attempt", 0.0);
    item.lastError = j.value("last_error", "");
    item.queuedUnix = j.value("queued", 0.0);
    item.doneUnix = j.value("done", 0.0);
    if (item.id.empty() || item.image.name.empty()) {
      throw Error(ErrorKind::InvalidInput, where, "an upload item without id or image");
    }
    return item;
  } catch (const json::exception& e) {
    throw Error(ErrorKind::InvalidInput, where, std::string("not an upload item: ") + e.what());
  }
}

}  // namespace delineate::core::upload
