#include "core/io/NiftiGzReader.h"

#include <fcntl.h>
#include <isa-l/igzip_lib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

#include "core/Error.h"
#include "core/io/NiftiFastPath.h"

namespace delineate::core {

std::shared_ptr<VoxelBuffer> readNiftiGzVoxels(const std::filesystem::path& path, ScalarType type,
                                               std::size_t count, ProgressSink& progress) {
  const std::string file = path.string();
  // 1. The header, through zlib: a few hundred bytes.
  unsigned char header[kNifti1HeaderBytes];
  {
    gzFile gz = ::gzopen(file.c_str(), "rb");
    if (!gz) {
      return nullptr;
    }
    const int got = ::gzread(gz, header, sizeof(header));
    ::gzclose(gz);
    if (got != static_cast<int>(sizeof(header))) {
      return nullptr;
    }
  }
  const std::optional<std::size_t> offset = niftiFastPathOffset(header, type);
  if (!offset) {
    return nullptr;
  }
  const std::size_t voxOffset = *offset;
  const std::size_t elem = scalarSize(type);
  if (count > (std::numeric_limits<std::size_t>::max() - voxOffset) / elem) {
    throw Error(ErrorKind::TooLarge, file, "header sizes overflow");
  }
  const std::size_t total = voxOffset + count * elem;

  // 2. The stream through ISA-L's inflater, read in 4 MiB chunks, straight into
  //    [header | voxels]: as fast as a one-shot libdeflate pass, without holding the compressed
  //    file in memory.
  const int fd = ::open(file.c_str(), O_RDONLY);
  if (fd < 0) {
    throw Error(ErrorKind::Io, file, "cannot open");
  }
  ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  progress.throwIfCancelled();
  progress.report(0.1, "Decompressing");
  auto whole = std::make_shared<VoxelBuffer>(ScalarType::UInt8, total);
  std::vector<unsigned char> chunk(4u << 20);
  auto state = std::make_unique<inflate_state>();
  isal_inflate_init(state.get());
  state->crc_flag = ISAL_GZIP;
  state->next_out = whole->as<unsigned char>();
  state->avail_out = static_cast<std::uint32_t>(std::min<std::size_t>(total, UINT32_MAX));
  std::size_t outDone = 0;
  bool atEnd = false, corrupt = false, overflow = false;
  int stalls = 0;  // calls that neither consumed input nor produced output
  while (!atEnd && !corrupt) {
    if (state->avail_in == 0) {
      const ssize_t got = ::read(fd, chunk.data(), chunk.size());
      if (got <= 0) {
        atEnd = true;
        break;
      }
      state->next_in = chunk.data();
      state->avail_in = static_cast<std::uint32_t>(got);
      progress.throwIfCancelled();
    }
    const std::uint32_t inBefore = state->avail_in;
    const unsigned char* outBefore = state->next_out;
    const int rc = isal_inflate(state.get());
    outDone = static_cast<std::size_t>(state->next_out - whole->as<unsigned char>());
    if (state->avail_in == inBefore && state->next_out == outBefore && state->avail_in > 0) {
      // A corrupt stream can leave the inflater where it makes no progress: never spin.
      if (++stalls > 3) {
        corrupt = true;
        break;
      }
    } else {
      stalls = 0;
    }
    if (rc == ISAL_OUT_OVERFLOW && outDone >= total) {
      break;  // every voxel is in; what follows is the gzip trailer or padding
    }
    if (rc != ISAL_DECOMP_OK && rc != ISAL_END_INPUT) {
      corrupt = rc != ISAL_OUT_OVERFLOW;
      overflow = rc == ISAL_OUT_OVERFLOW;
      break;
    }
    if (state->avail_out == 0 && outDone < total) {
      state->avail_out =
          static_cast<std::uint32_t>(std::min<std::size_t>(total - outDone, UINT32_MAX));
    }
    if (state->block_state == ISAL_BLOCK_FINISH) {
      if (outDone >= total) {
        break;
      }
      // Another gzip member follows (pigz, concatenated files): start it afresh.
      unsigned char* in = state->next_in;
      const std::uint32_t inLeft = state->avail_in;
      unsigned char* out = state->next_out;
      const std::uint32_t outLeft = state->avail_out;
      isal_inflate_reset(state.get());
      state->crc_flag = ISAL_GZIP;
      state->next_in = in;
      state->avail_in = inLeft;
      state->next_out = out;
      state->avail_out = outLeft;
    }
    if (outDone >= total && state->avail_in == 0) {
      break;
    }
  }
  ::close(fd);
  if (overflow) {
    return nullptr;  // more data than the header accounts for: let ITK decide
  }
  if (corrupt) {
    throw Error(ErrorKind::InvalidInput, file, "corrupt gzip data");
  }
  if (outDone < total) {
    throw Error(ErrorKind::InvalidInput, file,
                "truncated: " + std::to_string(outDone) + " of " + std::to_string(total) +
                    " bytes after decompression");
  }
  progress.report(0.95, "Decompressed");
  void* voxels = whole->as<unsigned char>() + voxOffset;
  return std::make_shared<VoxelBuffer>(type, count, voxels, std::shared_ptr<void>(whole, nullptr));
}

}  // namespace delineate::core
