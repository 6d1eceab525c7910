#pragma once
#include <atomic>
#include <memory>

namespace delineate::core {

// A shared flag a job polls; copies observe the same flag. Cheap to copy, thread-safe.
class CancelToken {
 public:
  CancelToken() : flag_(std::make_shared<std::atomic<bool>>(false)) {}
  void cancel() { flag_->store(true, std::memory_order_relaxed); }
  bool cancelled() const { return flag_->load(std::memory_order_relaxed); }

 private:
  std::shared_ptr<std::atomic<bool>> flag_;
};

}  // namespace delineate::core
