#pragma once
// One block of voxels, shared (never copied) between the document, ITK filters and VTK views.
#include <cstddef>
#include <memory>

#include "core/model/ScalarType.h"

namespace delineate::core {

class VoxelBuffer {
 public:
  // Allocates `count` zero-initialised voxels. Throws Error(TooLarge) when the byte size
  // overflows or the allocation fails.
  VoxelBuffer(ScalarType type, std::size_t count);
  // Adopts memory owned elsewhere (an ITK pixel container, a mapped file); `owner` keeps it alive.
  VoxelBuffer(ScalarType type, std::size_t count, void* data, std::shared_ptr<void> owner);

  VoxelBuffer(const VoxelBuffer&) = delete;
  VoxelBuffer& operator=(const VoxelBuffer&) = delete;

  ScalarType type() const { return type_; }
  std::size_t count() const { return count_; }
  std::size_t bytes() const { return count_ * scalarSize(type_); }
  void* data() { return data_; }
  const void* data() const { return data_; }
  template <class T>
  T* as() {
    return static_cast<T*>(data_);
  }
  template <class T>
  const T* as() const {
    return static_cast<const T*>(data_);
  }

 private:
  ScalarType type_;
  std::size_t count_;
  void* data_;
  std::shared_ptr<void> owner_;
};

}  // namespace delineate::core
