#pragma once
// One case on its way to a datastore: the image and (optionally) its label, staged in the queue's
// folder as the exact bytes that will be sent, with their SHA-256, and how far delivery got. The
// id is the datastore id the server keeps them under; putting the same id again replaces, so a
// retry can never make a second copy.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace delineate::core::upload {

enum class UploadState {
  Pending,  // waiting to be sent (or to be tried again at `nextAttemptUnix`)
  Done,     // stored on the server and verified
  Failed,   // the server refused it for a reason a retry cannot fix (see `lastError`)
};

const char* toString(UploadState state);

struct StagedFile {
  std::string name;  // file name in the item's folder, also the name sent ("case-1a2b.nii.gz")
  std::string sha256;
  std::uint64_t size = 0;
  bool stored = false;  // the server's info names this checksum
};

struct UploadItem {
  std::string id;
  UploadState state = UploadState::Pending;
  StagedFile image;
  StagedFile label;  // name empty: no label
  std::string labelTag = "final";
  nlohmann::json labelInfo = nlohmann::json::array();  // [{"name", "idx"}]: the server's schema
  std::string source;  // what the user picked, for the user's eyes only (never sent)
  int attempts = 0;    // failed attempts so far
  double nextAttemptUnix = 0;
  std::string lastError;
  double queuedUnix = 0;
  double doneUnix = 0;

  bool hasLabel() const { return !label.name.empty(); }
};

nlohmann::json toJson(const UploadItem& item);
// Throws core::Error(InvalidInput) naming `where` when the JSON is not an item.
UploadItem itemFromJson(const nlohmann::json& j, const std::string& where);

}  // namespace delineate::core::upload
