#include "app/server/FileDatastore.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <fstream>

#include "core/Error.h"
#include "core/ai/VolumeBytes.h"
#include "core/io/AtomicFile.h"
#include "core/upload/FileDigest.h"

namespace delineate::server {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

long long now() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

void writeAtomically(const fs::path& path, const std::string& bytes) {
  const fs::path temporary = core::temporarySiblingPath(path);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out.flush()) {
      out.close();
      std::error_code ec;
      fs::remove(temporary, ec);
      throw core::Error(core::ErrorKind::Io, path.string(), "cannot write (disk full?)");
    }
  }
  core::commitAtomically(temporary, path);
}

// ".nii.gz", ".nrrd": letters, digits and dots only, else the default.
std::string safeExtension(const std::string& filename) {
  const std::string ext = core::ai::fullExtension(filename);
  const bool ok =
      !ext.empty() && ext.size() < 16 && std::all_of(ext.begin(), ext.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '.';
      });
  return ok ? ext : ".nii.gz";
}

std::string stemOf(const std::string& filename) {
  const std::string name = fs::path(filename).filename().string();
  const std::string ext = core::ai::fullExtension(name);
  return name.substr(0, name.size() - ext.size());
}

}  // namespace

std::string safeName(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool ok = std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ||
                    (c == '.' && !out.empty());
    out += ok ? c : '_';
  }
  return out.empty() ? "image" : out.substr(0, 120);
}

FileDatastore::FileDatastore(fs::path root) : root_(std::move(root)) {
  fs::create_directories(root_ / "images");
  fs::create_directories(root_ / "labels");
  const fs::path metaPath = root_ / "datastore.json";
  if (fs::exists(metaPath)) {
    std::ifstream in(metaPath);
    meta_ = json::parse(in, nullptr, false);
  }
  if (!meta_.is_object() || !meta_.contains("images")) {
    meta_ = {{"images", json::object()}};
  }
  // Images copied into images/ by hand are part of the datastore too; hidden files are the
  // temporaries of writes a crash interrupted, never a whole file.
  for (const char* folder : {"images", "labels"}) {
    for (const auto& entry : fs::recursive_directory_iterator(root_ / folder)) {
      if (entry.is_regular_file() && entry.path().filename().string().rfind(".", 0) == 0) {
        std::error_code ec;
        fs::remove(entry.path(), ec);
      }
    }
  }
  for (const auto& entry : fs::directory_iterator(root_ / "images")) {
    const std::string name = entry.path().filename().string();
    const std::string id = stemOf(name);
    if (!meta_["images"].contains(id)) {
      meta_["images"][id] = {{"image", {{"name", name}, {"ts", now()}}},
                             {"labels", json::object()}};
    }
  }
  save();
}

void FileDatastore::save() {
  writeAtomically(root_ / "datastore.json", meta_.dump(2));
}

json FileDatastore::imageEntry(const std::string& id) const {
  const json& e = meta_["images"][id];
  json out = e["image"];
  out["id"] = id;
  out["path"] = (root_ / "images" / e["image"].value("name", id)).string();
  return out;
}

json FileDatastore::stats() {
  std::lock_guard lock(mutex_);
  long long total = 0, completed = 0;
  json tags = json::object();
  for (const auto& [id, e] : meta_["images"].items()) {
    ++total;
    for (const auto& [tag, l] : e["labels"].items()) {
      tags[tag] = tags.value(tag, 0) + 1;
      completed += tag == "final" ? 1 : 0;
    }
  }
  return {{"total", total}, {"completed", completed}, {"label_tags", tags}};
}

json FileDatastore::all() {
  std::lock_guard lock(mutex_);
  // MONAI Label's shape: each file's extension apart from its info (which keeps "name" and "ts").
  auto described = [](const json& stored, const std::string& id) {
    const std::string name = stored.value("name", id);
    const std::string stem = stemOf(name);
    return json{{"ext", name.size() > stem.size() ? name.substr(stem.size()) : std::string()},
                {"info", stored}};
  };
  json objects = json::object();
  for (const auto& [id, e] : meta_["images"].items()) {
    json labels = json::object();
    for (const auto& [tag, l] : e["labels"].items()) {
      labels[tag] = described(l, id);
    }
    objects[id] = {{"image", described(e["image"], id)}, {"labels", labels}};
  }
  return {{"name", "delineate-server"},
          {"description", "images and labels under " + root_.string()},
          {"images_dir", "images"},
          {"labels_dir", "labels"},
          {"objects", objects}};
}

json FileDatastore::trainingPairs() {
  std::lock_guard lock(mutex_);
  json out = json::array();
  for (const auto& [id, e] : meta_["images"].items()) {
    if (e["labels"].contains("final")) {
      out.push_back(
          {{"image", (root_ / "images" / e["image"].value("name", id)).string()},
           {"label",
            (root_ / "labels" / "final" / e["labels"]["final"].value("name", id)).string()}});
    }
  }
  return out;
}

namespace {

// A stored revision number; 0 when there is none or it is no whole number (info a client
// replaced).
int revisionOf(const json& stored) {
  const auto it = stored.find("revision");
  return it != stored.end() && it->is_number_integer() ? it->get<int>() : 0;
}

}  // namespace

std::string FileDatastore::fileStemFor(const std::string& id) const {
  const json& images = meta_["images"];
  if (images.contains(id)) {  // an id stored again keeps its file name
    return stemOf(images[id]["image"].value("name", safeName(id)));
  }
  // Ids are kept as the client sent them ("2: AX T1"); only the file name is made safe, and made
  // unique where two ids would give the same one.
  const std::string safe = safeName(id);
  const auto taken = [&](const std::string& stem) {
    for (const auto& [other, e] : images.items()) {
      if (stemOf(e["image"].value("name", other)) == stem) {
        return true;
      }
    }
    return false;
  };
  return taken(safe) ? safe + "-" + core::upload::sha256OfBytes(id).substr(0, 12) : safe;
}

std::string FileDatastore::putImage(std::string id, const std::string& filename,
                                    const std::string& bytes, const json& info) {
  if (id.empty()) {
    id = stemOf(filename).empty() ? "image" : stemOf(filename);
  }
  std::string name;
  {
    std::lock_guard lock(mutex_);
    name = fileStemFor(id) + safeExtension(filename);
  }
  writeAtomically(root_ / "images" / name, bytes);
  std::lock_guard lock(mutex_);
  json& e = meta_["images"][id];
  const std::string previous = e.contains("image") ? e["image"].value("name", name) : name;
  if (previous != name) {  // the same id sent in another format: one file per id
    std::error_code ec;
    fs::remove(root_ / "images" / previous, ec);
  }
  // How many times this id was stored: a client can tell a replacement from a first store.
  const int revision = e.contains("image") ? revisionOf(e["image"]) + 1 : 1;
  e["image"] = info.is_object() ? info : json::object();
  e["image"]["name"] = name;
  e["image"]["ts"] = now();
  e["image"]["revision"] = revision;
  if (!e.contains("labels")) {
    e["labels"] = json::object();
  }
  save();
  return id;
}

bool FileDatastore::removeImage(const std::string& id) {
  std::lock_guard lock(mutex_);
  if (!meta_["images"].contains(id)) {
    return false;
  }
  std::error_code ec;
  fs::remove(root_ / "images" / meta_["images"][id]["image"].value("name", id), ec);
  for (const auto& [tag, l] : meta_["images"][id]["labels"].items()) {
    fs::remove(root_ / "labels" / tag / l.value("name", id), ec);
  }
  meta_["images"].erase(id);
  save();
  return true;
}

bool FileDatastore::putLabel(const std::string& id, const std::string& tag,
                             const std::string& filename, const std::string& bytes,
                             const json& info) {
  {
    std::lock_guard lock(mutex_);
    if (!meta_["images"].contains(id)) {
      return false;
    }
  }
  const std::string safeTag = safeName(tag.empty() ? "final" : tag);
  std::string name;
  {
    std::lock_guard lock(mutex_);
    name = fileStemFor(id) + safeExtension(filename);
  }
  fs::create_directories(root_ / "labels" / safeTag);
  writeAtomically(root_ / "labels" / safeTag / name, bytes);
  std::lock_guard lock(mutex_);
  if (!meta_["images"].contains(id)) {  // removed meanwhile
    std::error_code ec;
    fs::remove(root_ / "labels" / safeTag / name, ec);
    return false;
  }
  json& labels = meta_["images"][id]["labels"];
  if (labels.contains(safeTag) && labels[safeTag].value("name", name) != name) {
    std::error_code ec;
    fs::remove(root_ / "labels" / safeTag / labels[safeTag].value("name", name), ec);
  }
  const int revision = labels.contains(safeTag) ? revisionOf(labels[safeTag]) + 1 : 1;
  json entry = info.is_object() ? info : json::object();
  entry["name"] = name;
  entry["ts"] = now();
  entry["revision"] = revision;
  entry["checksum"] = "SHA256:" + core::upload::sha256OfBytes(bytes);
  labels[safeTag] = entry;
  save();
  return true;
}

bool FileDatastore::removeLabel(const std::string& id, const std::string& givenTag) {
  const std::string tag = safeName(givenTag);
  std::lock_guard lock(mutex_);
  if (!meta_["images"].contains(id) || !meta_["images"][id]["labels"].contains(tag)) {
    return false;
  }
  json& labels = meta_["images"][id]["labels"];
  std::error_code ec;
  fs::remove(root_ / "labels" / tag / labels[tag].value("name", id), ec);
  labels.erase(tag);
  save();
  return true;
}

std::optional<json> FileDatastore::imageInfo(const std::string& id) {
  std::lock_guard lock(mutex_);
  if (!meta_["images"].contains(id)) {
    return std::nullopt;
  }
  json out = meta_["images"][id]["image"];
  out["path"] = (root_ / "images" / out.value("name", id)).string();
  return out;
}

std::optional<json> FileDatastore::labelInfo(const std::string& id, const std::string& givenTag) {
  const std::string tag = safeName(givenTag);
  std::lock_guard lock(mutex_);
  if (!meta_["images"].contains(id) || !meta_["images"][id]["labels"].contains(tag)) {
    return std::nullopt;
  }
  return meta_["images"][id]["labels"][tag];
}

namespace {

// Merges `info` into `stored`, keeping the stored file name: the file stays where it is.
void mergeInfo(json& stored, const json& info) {
  const json name = stored.value("name", json());
  stored.update(info);
  if (!name.is_null()) {
    stored["name"] = name;
  }
}

}  // namespace

bool FileDatastore::updateImageInfo(const std::string& id, const json& info) {
  std::lock_guard lock(mutex_);
  if (!meta_["images"].contains(id) || !info.is_object()) {
    return false;
  }
  mergeInfo(meta_["images"][id]["image"], info);
  save();
  return true;
}

bool FileDatastore::updateLabelInfo(const std::string& id, const std::string& givenTag,
                                    const json& info) {
  const std::string tag = safeName(givenTag);
  std::lock_guard lock(mutex_);
  if (!meta_["images"].contains(id) || !meta_["images"][id]["labels"].contains(tag) ||
      !info.is_object()) {
    return false;
  }
  mergeInfo(meta_["images"][id]["labels"][tag], info);
  save();
  return true;
}

std::optional<fs::path> FileDatastore::imageFile(const std::string& id) {
  std::lock_guard lock(mutex_);
  if (!meta_["images"].contains(id)) {
    return std::nullopt;
  }
  return root_ / "images" / meta_["images"][id]["image"].value("name", id);
}

std::optional<fs::path> FileDatastore::labelFile(const std::string& id,
                                                 const std::string& givenTag) {
  const std::string tag = safeName(givenTag);
  std::lock_guard lock(mutex_);
  if (!meta_["images"].contains(id) || !meta_["images"][id]["labels"].contains(tag)) {
    return std::nullopt;
  }
  return root_ / "labels" / tag / meta_["images"][id]["labels"][tag].value("name", id);
}

std::optional<json> FileDatastore::nextUnlabelled(const std::string& strategy,
                                                  const std::string& clientId) {
  std::lock_guard lock(mutex_);
  std::vector<std::string> open;
  for (const auto& [id, e] : meta_["images"].items()) {
    if (!e["labels"].contains("final")) {
      open.push_back(id);  // json objects iterate in key order: "first" is the smallest id
    }
  }
  if (open.empty()) {
    return std::nullopt;
  }
  std::string chosen = open.front();
  if (strategy == "random") {
    chosen = open[std::uniform_int_distribution<std::size_t>(0, open.size() - 1)(rng_)];
  }
  json& record = meta_["images"][chosen]["image"]["strategy"];
  if (!record.is_object()) {  // an upload's params may have put anything under that name
    record = json::object();
  }
  record[strategy] = {{"ts", now()}, {"client_id", clientId}};
  save();
  return imageEntry(chosen);
}

}  // namespace delineate::server
