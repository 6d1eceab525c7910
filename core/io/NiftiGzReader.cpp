#include "core/io/NiftiGzReader.h"

#include <fcntl.h>
#include <libdeflate.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <cstring>
#include <limits>

#include "core/Error.h"

namespace delineate::core {

namespace {

constexpr std::size_t kNifti1HeaderSize = 348;

// NIfTI-1 datatype codes of the scalar types we keep natively.
int niftiDatatype(ScalarType t) {
  switch (t) {
    case ScalarType::UInt8:
      return 2;
    case ScalarType::Int16:
      return 4;
    case ScalarType::Int32:
      return 8;
    case ScalarType::Float32:
      return 16;
    case ScalarType::Float64:
      return 64;
    case ScalarType::Int8:
      return 256;
    case ScalarType::UInt16:
      return 512;
    case ScalarType::UInt32:
      return 768;
  }
  return -1;
}

struct MappedFile {
  void* data = MAP_FAILED;
  std::size_t size = 0;
  ~MappedFile() {
    if (data != MAP_FAILED) {
      ::munmap(data, size);
    }
  }
};

template <class T>
T readField(const unsigned char* header, std::size_t offset) {
  T v;
  std::memcpy(&v, header + offset, sizeof(T));
  return v;
}

}  // namespace

std::shared_ptr<VoxelBuffer> readNiftiGzVoxels(const std::filesystem::path& path, ScalarType type,
                                               std::size_t count, ProgressSink& progress) {
  const std::string file = path.string();
  // 1. The header, through zlib: a few hundred bytes.
  unsigned char header[kNifti1HeaderSize];
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
  if (readField<std::int32_t>(header, 0) != static_cast<std::int32_t>(kNifti1HeaderSize) ||
      readField<std::int16_t>(header, 70) != niftiDatatype(type)) {
    return nullptr;  // NIfTI-2, swapped byte order, or a type ITK converts
  }
  const float slope = readField<float>(header, 112);
  const float inter = readField<float>(header, 116);
  if (!(slope == 0.0f || slope == 1.0f) || inter != 0.0f) {
    return nullptr;
  }
  const float voxOffsetF = readField<float>(header, 108);
  if (!(voxOffsetF >= static_cast<float>(kNifti1HeaderSize)) || voxOffsetF > 1e8f) {
    return nullptr;
  }
  const auto voxOffset = static_cast<std::size_t>(voxOffsetF);
  const std::size_t elem = scalarSize(type);
  if (count > (std::numeric_limits<std::size_t>::max() - voxOffset) / elem) {
    throw Error(ErrorKind::TooLarge, file, "header sizes overflow");
  }
  const std::size_t total = voxOffset + count * elem;

  // 2. The whole stream in one libdeflate pass into [header | voxels].
  MappedFile mapped;
  {
    const int fd = ::open(file.c_str(), O_RDONLY);
    if (fd < 0) {
      throw Error(ErrorKind::Io, file, "cannot open");
    }
    struct stat st {};
    ::fstat(fd, &st);
    mapped.size = static_cast<std::size_t>(st.st_size);
    mapped.data = ::mmap(nullptr, mapped.size, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (mapped.data == MAP_FAILED) {
      return nullptr;
    }
    ::madvise(mapped.data, mapped.size, MADV_SEQUENTIAL);
  }
  progress.throwIfCancelled();
  progress.report(0.1, "Decompressing");
  auto whole = std::make_shared<VoxelBuffer>(ScalarType::UInt8, total);
  libdeflate_decompressor* d = libdeflate_alloc_decompressor();
  if (!d) {
    throw Error(ErrorKind::TooLarge, file, "cannot allocate a decompressor");
  }
  const auto* in = static_cast<const unsigned char*>(mapped.data);
  std::size_t inPos = 0, outPos = 0;
  libdeflate_result r = LIBDEFLATE_SUCCESS;
  // A .nii.gz may hold several gzip members (pigz, concatenation): decode them in turn.
  while (inPos < mapped.size && outPos < total && r == LIBDEFLATE_SUCCESS) {
    std::size_t inUsed = 0, outGot = 0;
    r = libdeflate_gzip_decompress_ex(d, in + inPos, mapped.size - inPos,
                                      whole->as<unsigned char>() + outPos, total - outPos, &inUsed,
                                      &outGot);
    inPos += inUsed;
    outPos += outGot;
  }
  libdeflate_free_decompressor(d);
  if (r == LIBDEFLATE_INSUFFICIENT_SPACE) {
    return nullptr;  // more data than the header accounts for: let ITK decide
  }
  if (r == LIBDEFLATE_BAD_DATA) {
    throw Error(ErrorKind::InvalidInput, file, "corrupt gzip data");
  }
  if (outPos < total) {
    throw Error(ErrorKind::InvalidInput, file,
                "truncated: " + std::to_string(outPos) + " of " + std::to_string(total) +
                    " bytes after decompression");
  }
  progress.report(0.95, "Decompressed");
  void* voxels = whole->as<unsigned char>() + voxOffset;
  return std::make_shared<VoxelBuffer>(type, count, voxels, std::shared_ptr<void>(whole, nullptr));
}

}  // namespace delineate::core
