// libFuzzer harness: arbitrary bytes as a .nii file, as a .nii.gz file, and gzip-compressed as a
// .nii.gz file, through readVolumeFile. Anything but a core::Error is a finding.
#include <zlib.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "FuzzTempFile.h"
#include "core/Error.h"
#include "core/io/VolumeFileIO.h"

using namespace delineate;

namespace {

void readQuietly(const std::filesystem::path& path) {
  core::NullProgress progress;
  try {
    core::readVolumeFile(path, progress);
  } catch (const core::Error&) {
  }
}

std::vector<std::uint8_t> gzip(const std::uint8_t* data, std::size_t size) {
  z_stream z{};
  std::vector<std::uint8_t> out(compressBound(static_cast<uLong>(size)) + 64);
  if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return {};
  }
  z.next_in = const_cast<Bytef*>(data);
  z.avail_in = static_cast<uInt>(size);
  z.next_out = out.data();
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  readQuietly(fuzz::writeInput("input.nii", data, size));
  readQuietly(fuzz::writeInput("input.nii.gz", data, size));
  const std::vector<std::uint8_t> packed = gzip(data, size);
  readQuietly(fuzz::writeInput("packed.nii.gz", packed.data(), packed.size()));
  return 0;
}
