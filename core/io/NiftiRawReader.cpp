#include "core/io/NiftiRawReader.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>
#include <optional>

#include "core/Error.h"
#include "core/io/NiftiFastPath.h"

namespace delineate::core {

namespace {

constexpr std::size_t kSlab = 4u << 20;

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) {
      ::close(fd);
    }
  }
};

// Reads exactly n bytes at `offset`; returns how many it got (fewer at the end of the file).
std::size_t readAt(int fd, unsigned char* out, std::size_t n, std::size_t offset,
                   const std::string& file) {
  std::size_t done = 0;
  while (done < n) {
    const ssize_t got = ::pread(fd, out + done, n - done, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got < 0) {
      throw Error(ErrorKind::Io, file, std::string("cannot read: ") + std::strerror(errno));
    }
    if (got == 0) {
      break;
    }
    done += static_cast<std::size_t>(got);
  }
  return done;
}

}  // namespace

std::shared_ptr<VoxelBuffer> readNiftiRawVoxels(const std::filesystem::path& path, ScalarType type,
                                                std::size_t count, ProgressSink& progress) {
  const std::string file = path.string();
  Fd in{::open(file.c_str(), O_RDONLY | O_CLOEXEC)};
  if (in.fd < 0) {
    return nullptr;  // ITK names the problem
  }
  unsigned char header[kNifti1HeaderBytes];
  if (readAt(in.fd, header, sizeof header, 0, file) != sizeof header) {
    return nullptr;
  }
  const std::optional<std::size_t> offset = niftiFastPathOffset(header, type);
  if (!offset) {
    return nullptr;
  }
  const std::size_t elem = scalarSize(type);
  if (count > std::numeric_limits<std::size_t>::max() / elem) {
    throw Error(ErrorKind::TooLarge, file, "header sizes overflow");
  }
  const std::size_t bytes = count * elem;
  ::posix_fadvise(in.fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  auto voxels = std::make_shared<VoxelBuffer>(type, count);
  auto* out = static_cast<unsigned char*>(voxels->data());
  for (std::size_t done = 0; done < bytes;) {
    progress.throwIfCancelled();
    const std::size_t n = std::min(kSlab, bytes - done);
    if (readAt(in.fd, out + done, n, *offset + done, file) != n) {
      throw Error(ErrorKind::InvalidInput, file,
                  "truncated: the header needs " + std::to_string(*offset + bytes) +
                      " bytes, the file ends before");
    }
    done += n;
    progress.report(0.05 + 0.9 * static_cast<double>(done) / static_cast<double>(bytes),
                    "Reading voxels");
  }
  return voxels;
}

}  // namespace delineate::core
