#pragma once
// The server session that holds an image (MONAI Label and Clara AIAA alike): one session for the
// image last sent, remembered by the image's identity. A different image, or the same address
// reused by a new image after the old one was freed, has none. Thread-safe.
#include <memory>
#include <mutex>
#include <string>

#include "core/model/Volume.h"

namespace delineate::core::ai {

class ImageSessionCache {
 public:
  // The session id for `image`, empty when there is none.
  std::string idFor(const Volume& image) const {
    std::lock_guard lock(mutex_);
    return !image_.expired() && raw_ == &image ? id_ : std::string();
  }
  void remember(const VolumePtr& image, std::string id) {
    std::lock_guard lock(mutex_);
    image_ = image;
    raw_ = image.get();
    id_ = std::move(id);
  }
  // The server forgot it (expired): the next request creates a new one.
  void forget() {
    std::lock_guard lock(mutex_);
    id_.clear();
    raw_ = nullptr;
  }

 private:
  mutable std::mutex mutex_;
  std::weak_ptr<const Volume> image_;
  const Volume* raw_ = nullptr;
  std::string id_;
};

}  // namespace delineate::core::ai
