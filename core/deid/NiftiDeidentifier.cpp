#include "core/deid/NiftiDeidentifier.h"

#include <zlib.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/Error.h"
#include "core/Text.h"
#include "core/io/AtomicFile.h"

namespace delineate::core::deid {

namespace fs = std::filesystem;

namespace {

// Reads through zlib for both plain and gzip files (gzread passes plain files through).
class Reader {
 public:
  explicit Reader(const fs::path& path) : where_(path.string()), file_(gzopen(path.c_str(), "rb")) {
    if (!file_) {
      throw Error(ErrorKind::Io, where_, "cannot open the NIfTI file");
    }
    gzbuffer(file_, 1 << 17);
  }
  ~Reader() { gzclose(file_); }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  // Up to `n` bytes; fewer only at the end of the file.
  std::size_t read(char* out, std::size_t n) {
    std::size_t done = 0;
    while (done < n) {
      const int got = gzread(file_, out + done,
                             static_cast<unsigned>(std::min<std::size_t>(n - done, 1u << 30)));
      if (got < 0) {
        int code = 0;
        throw Error(ErrorKind::InvalidInput, where_,
                    std::string("corrupt compressed NIfTI data: ") + gzerror(file_, &code));
      }
      if (got == 0) {
        break;
      }
      done += static_cast<std::size_t>(got);
    }
    return done;
  }

 private:
  std::string where_;
  gzFile file_;
};

// Writes plain or gzip-compressed output.
class Writer {
 public:
  Writer(const fs::path& path, bool compress) : where_(path.string()) {
    if (compress) {
      gz_ = gzopen(path.c_str(), "wb6");
    } else {
      plain_ = std::fopen(path.c_str(), "wb");
    }
    if (!gz_ && !plain_) {
      throw Error(ErrorKind::Io, where_, "cannot create the de-identified NIfTI file");
    }
  }
  ~Writer() {
    if (gz_) {
      gzclose(gz_);
    }
    if (plain_) {
      std::fclose(plain_);
    }
  }
  Writer(const Writer&) = delete;
  Writer& operator=(const Writer&) = delete;

  void write(const char* data, std::size_t n) {
    const bool ok = gz_ ? gzwrite(gz_, data, static_cast<unsigned>(n)) == static_cast<int>(n)
                        : std::fwrite(data, 1, n, plain_) == n;
    if (!ok) {
      throw Error(ErrorKind::Io, where_, "cannot write the de-identified NIfTI file");
    }
  }
  void close() {
    const bool ok = gz_ ? gzclose(gz_) == Z_OK : std::fclose(plain_) == 0;
    gz_ = nullptr;
    plain_ = nullptr;
    if (!ok) {
      throw Error(ErrorKind::Io, where_, "cannot write the de-identified NIfTI file");
    }
  }

 private:
  std::string where_;
  gzFile gz_ = nullptr;
  std::FILE* plain_ = nullptr;
};

template <typename T>
T readValue(const std::vector<char>& header, std::size_t at, bool swap) {
  T value;
  char bytes[sizeof(T)];
  std::memcpy(bytes, header.data() + at, sizeof(T));
  if (swap) {
    std::reverse(bytes, bytes + sizeof(T));
  }
  std::memcpy(&value, bytes, sizeof(T));
  return value;
}

void blank(std::vector<char>& header, std::size_t from, std::size_t to) {
  std::fill(header.begin() + static_cast<std::ptrdiff_t>(from),
            header.begin() + static_cast<std::ptrdiff_t>(to), '\0');
}

// Blanks the free-text fields of the header in `bytes` and returns the voxel offset.
std::uint64_t scrubHeader(std::vector<char>& bytes, std::size_t headerSize, bool swap,
                          const std::string& where) {
  if (headerSize == 348) {
    if (std::memcmp(bytes.data() + 344, "ni1\0", 4) == 0) {
      throw Error(ErrorKind::Unsupported, where,
                  "a NIfTI header/image pair (.hdr/.img) is not de-identified; convert it to .nii");
    }
    if (std::memcmp(bytes.data() + 344, "n+1\0", 4) != 0) {
      throw Error(ErrorKind::InvalidInput, where, "not a NIfTI-1 file (bad magic)");
    }
    blank(bytes, 4, 32);     // data_type, db_name (Analyze 7.5 leftovers)
    blank(bytes, 148, 252);  // descrip, aux_file
    blank(bytes, 328, 344);  // intent_name
    const float offset = readValue<float>(bytes, 108, swap);
    if (!(offset >= 348.0f) || offset > float(1u << 30)) {
      throw Error(ErrorKind::InvalidInput, where, "the NIfTI voxel offset is out of range");
    }
    return static_cast<std::uint64_t>(offset);
  }
  if (std::memcmp(bytes.data() + 4, "n+2\0", 4) != 0) {
    throw Error(ErrorKind::InvalidInput, where, "not a single-file NIfTI-2 file (bad magic)");
  }
  blank(bytes, 240, 344);  // descrip, aux_file
  blank(bytes, 508, 524);  // intent_name
  blank(bytes, 525, 540);  // unused_str
  const std::int64_t offset = readValue<std::int64_t>(bytes, 168, swap);
  if (offset < 540 || offset > (std::int64_t(1) << 30)) {
    throw Error(ErrorKind::InvalidInput, where, "the NIfTI voxel offset is out of range");
  }
  return static_cast<std::uint64_t>(offset);
}

// The number of voxel bytes the header announces; 0 when it cannot say (bad dimensions).
std::uint64_t expectedVoxelBytes(const std::vector<char>& bytes, std::size_t headerSize,
                                 bool swap) {
  const bool one = headerSize == 348;
  const auto dim = [&](int i) -> std::int64_t {
    return one ? readValue<std::int16_t>(bytes, 40 + 2 * std::size_t(i), swap)
               : readValue<std::int64_t>(bytes, 16 + 8 * std::size_t(i), swap);
  };
  const std::int64_t rank = dim(0);
  const std::int64_t bitpix = readValue<std::int16_t>(bytes, one ? 72 : 14, swap);
  if (rank < 1 || rank > 7 || bitpix <= 0 || bitpix % 8 != 0) {
    return 0;
  }
  std::uint64_t total = static_cast<std::uint64_t>(bitpix / 8);
  for (int i = 1; i <= rank; ++i) {
    const std::int64_t n = dim(i);
    if (n < 1 || total > (std::uint64_t(1) << 50) / static_cast<std::uint64_t>(n)) {
      return 0;
    }
    total *= static_cast<std::uint64_t>(n);
  }
  return total;
}

}  // namespace

bool isNiftiPath(const fs::path& path) {
  const std::string name = path.filename().string();
  return endsWith(name, ".nii") || endsWith(name, ".nii.gz");
}

void writeDeidentifiedNifti(const fs::path& input, const fs::path& output) {
  const std::string where = input.string();
  Reader reader(input);
  std::vector<char> bytes(4);
  if (reader.read(bytes.data(), 4) != 4) {
    throw Error(ErrorKind::InvalidInput, where, "truncated NIfTI header");
  }
  std::int32_t size;
  std::memcpy(&size, bytes.data(), 4);
  bool swap = false;
  if (size != 348 && size != 540) {
    std::reverse(bytes.begin(), bytes.end());
    std::memcpy(&size, bytes.data(), 4);
    std::reverse(bytes.begin(), bytes.end());
    swap = true;
  }
  if (size != 348 && size != 540) {
    throw Error(ErrorKind::InvalidInput, where, "not a NIfTI file (bad header size)");
  }
  const auto headerSize = static_cast<std::size_t>(size);
  bytes.resize(headerSize);
  if (reader.read(bytes.data() + 4, headerSize - 4) != headerSize - 4) {
    throw Error(ErrorKind::InvalidInput, where, "truncated NIfTI header");
  }
  const std::uint64_t voxelOffset = scrubHeader(bytes, headerSize, swap, where);
  // Everything between the header and the voxels is the extension flag and the extensions.
  const std::size_t extensionBytes = static_cast<std::size_t>(voxelOffset) - headerSize;
  std::vector<char> extensions(extensionBytes);
  if (reader.read(extensions.data(), extensionBytes) != extensionBytes) {
    throw Error(ErrorKind::InvalidInput, where, "truncated NIfTI file (no voxels)");
  }
  std::fill(extensions.begin(), extensions.end(), '\0');

  const fs::path temporary = temporarySiblingPath(output);
  try {
    Writer writer(temporary, endsWith(output.filename().string(), ".gz"));
    writer.write(bytes.data(), bytes.size());
    writer.write(extensions.data(), extensions.size());
    std::vector<char> buffer(1 << 20);
    std::uint64_t copied = 0;
    for (;;) {
      const std::size_t got = reader.read(buffer.data(), buffer.size());
      if (got == 0) {
        break;
      }
      writer.write(buffer.data(), got);
      copied += got;
    }
    if (copied < expectedVoxelBytes(bytes, headerSize, swap)) {
      throw Error(ErrorKind::InvalidInput, where, "truncated NIfTI file (voxels missing)");
    }
    writer.close();
    commitAtomically(temporary, output);
  } catch (...) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw;
  }
}

}  // namespace delineate::core::deid
