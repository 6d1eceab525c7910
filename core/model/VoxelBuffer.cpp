#include "core/model/VoxelBuffer.h"

#include <cstdlib>
#include <limits>
#include <new>

#include "core/Error.h"

namespace delineate::core {

VoxelBuffer::VoxelBuffer(ScalarType type, std::size_t count) : type_(type), count_(count) {
  const std::size_t elem = scalarSize(type);
  if (count != 0 && count > std::numeric_limits<std::size_t>::max() / elem) {
    throw Error(ErrorKind::TooLarge, {}, "voxel buffer size overflows");
  }
  const std::size_t bytes = count * elem;
  void* p = std::calloc(bytes == 0 ? 1 : bytes, 1);
  if (!p) {
    throw Error(ErrorKind::TooLarge, {},
                "cannot allocate " + std::to_string(bytes >> 20) + " MiB for voxels");
  }
  data_ = p;
  owner_ = std::shared_ptr<void>(p, [](void* q) { std::free(q); });
}

VoxelBuffer::VoxelBuffer(ScalarType type, std::size_t count, void* data,
                         std::shared_ptr<void> owner)
    : type_(type), count_(count), data_(data), owner_(std::move(owner)) {}

}  // namespace delineate::core
