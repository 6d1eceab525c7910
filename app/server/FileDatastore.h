#pragma once
// The server's datastore (docs/ai.md, "delineate-server"): images and labels (per tag: "final",
// "original", ...) as files under one folder, with their metadata in datastore.json. Every file is
// written to a hidden temporary and renamed into place, so an interrupted upload leaves no partial
// image or label (temporaries left by a crash are removed on opening). Ids are kept as the client
// sent them; the files are named by safeName() of the id (unique among the images).
// Thread-safe.
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace delineate::server {

class FileDatastore {
 public:
  // Opens (or creates) the datastore under `root`; images already there are listed.
  explicit FileDatastore(std::filesystem::path root);

  const std::filesystem::path& root() const { return root_; }
  // {"total", "completed", "label_tags": {tag: count}}: MONAI Label's output=stats.
  nlohmann::json stats();
  // Every image and label with its info, as MONAI Label's output=all gives them: {"name",
  // "description", "images_dir", "labels_dir", "objects": {id: {"image": {"ext", "info"},
  // "labels": {tag: {"ext", "info"}}}}}.
  nlohmann::json all();
  // Image/label path pairs with a "final" label (output=train; what training reads).
  nlohmann::json trainingPairs();

  // Stores an image and its info (the upload's `params`; MONAI Label keeps them as the image's
  // info) with "name" and "ts" added; `id` empty: the file name's stem. Returns the id. Putting an
  // id again replaces its file and info: still one entry, its labels kept.
  std::string putImage(std::string id, const std::string& filename, const std::string& bytes,
                       const nlohmann::json& info = nlohmann::json::object());
  bool removeImage(const std::string& id);
  // Stores a label of a known image (false when the image is unknown). Its info is `info` with
  // "name", "ts" and "checksum" ("SHA256:<hex>" of the file, as MONAI Label writes it) added.
  bool putLabel(const std::string& id, const std::string& tag, const std::string& filename,
                const std::string& bytes, const nlohmann::json& info);
  bool removeLabel(const std::string& id, const std::string& tag);
  // The info of an image (with its "path") / of a label; nullopt when there is none.
  std::optional<nlohmann::json> imageInfo(const std::string& id);
  std::optional<nlohmann::json> labelInfo(const std::string& id, const std::string& tag);
  // Merges `info` into what is stored (the file's "name" stays); false when there is none.
  bool updateImageInfo(const std::string& id, const nlohmann::json& info);
  bool updateLabelInfo(const std::string& id, const std::string& tag, const nlohmann::json& info);
  std::optional<std::filesystem::path> imageFile(const std::string& id);
  std::optional<std::filesystem::path> labelFile(const std::string& id, const std::string& tag);
  // The next image without a "final" label: "first" (by id) or "random"; nullopt when none.
  // The choice is recorded in the image's info.
  std::optional<nlohmann::json> nextUnlabelled(const std::string& strategy,
                                               const std::string& clientId);

 private:
  void save();
  nlohmann::json imageEntry(const std::string& id) const;
  // The file name stem of `id`'s image and labels (mutex_ held).
  std::string fileStemFor(const std::string& id) const;

  std::filesystem::path root_;
  std::mutex mutex_;
  nlohmann::json meta_;  // {"images": {id: {"image": {...}, "labels": {tag: {...}}}}}
  std::mt19937 rng_{12345};
};

// Only letters, digits, '-', '_' and '.' (not leading) survive: ids and tags become file names.
std::string safeName(const std::string& text);

}  // namespace delineate::server
