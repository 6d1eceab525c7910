// The wall-clock time the upload queue records (queued, next attempt, done), in Unix seconds.
#pragma once

#include <chrono>

namespace delineate::core::upload {

inline double nowUnix() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace delineate::core::upload
