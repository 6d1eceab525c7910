#pragma once
// The server's datastore (PROTOCOLS §2.1): images and labels (per tag: "final", "original", ...)
// as files under one folder, with their metadata in datastore.json, written atomically. Ids are
// file-name stems. Thread-safe.
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
  // The whole metadata (output=all).
  nlohmann::json all();
  // Image/label path pairs with a "final" label (output=train; what training reads).
  nlohmann::json trainingPairs();

  // Stores an image; `id` empty: the file name's stem. Returns the id.
  std::string putImage(std::string id, const std::string& filename, const std::string& bytes);
  bool removeImage(const std::string& id);
  // Stores a label of a known image (false when the image is unknown).
  bool putLabel(const std::string& id, const std::string& tag, const std::string& filename,
                const std::string& bytes, const nlohmann::json& info);
  std::optional<std::filesystem::path> imageFile(const std::string& id);
  std::optional<std::filesystem::path> labelFile(const std::string& id, const std::string& tag);
  // The next image without a "final" label: "first" (by id) or "random"; nullopt when none.
  // The choice is recorded in the image's info.
  std::optional<nlohmann::json> nextUnlabelled(const std::string& strategy,
                                               const std::string& clientId);

 private:
  void save();
  nlohmann::json imageEntry(const std::string& id) const;

  std::filesystem::path root_;
  std::mutex mutex_;
  nlohmann::json meta_;  // {"images": {id: {"image": {...}, "labels": {tag: {...}}}}}
  std::mt19937 rng_{12345};
};

// Only letters, digits, '-', '_' and '.' (not leading) survive: ids and tags become file names.
std::string safeName(const std::string& text);

}  // namespace delineate::server
