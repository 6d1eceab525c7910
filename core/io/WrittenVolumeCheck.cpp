#include "core/io/WrittenVolumeCheck.h"

#include <zlib.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "core/Error.h"
#include "core/Text.h"
#include "core/io/VolumeFileIO.h"

namespace delineate::core {

namespace fs = std::filesystem;

namespace {

[[noreturn]] void cutShort(const fs::path& reported, const std::string& what) {
  throw Error(ErrorKind::Io, reported.string(),
              "the file was not written completely (disk full?): " + what);
}

// Bytes of the whole gzip stream, decompressed; throws when the stream is cut or damaged.
std::size_t gunzippedSize(const fs::path& file, const fs::path& reported) {
  gzFile in = gzopen(file.c_str(), "rb");
  if (in == nullptr) {
    cutShort(reported, "cannot read it back");
  }
  std::vector<char> chunk(1 << 20);
  std::size_t total = 0;
  int n = 0;
  while ((n = gzread(in, chunk.data(), static_cast<unsigned>(chunk.size()))) > 0) {
    total += static_cast<std::size_t>(n);
  }
  int code = Z_OK;
  const std::string message = gzerror(in, &code);
  gzclose_r(in);
  if (n < 0 || (code != Z_OK && code != Z_STREAM_END)) {
    cutShort(reported, "its compressed data ends early (" + message + ")");
  }
  return total;
}

}  // namespace

void checkWrittenVolume(const fs::path& written, std::size_t voxelBytes, const fs::path& reported) {
  std::string name = reported.filename().string();
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(written, ec);
  if (ec) {
    cutShort(reported, ec.message());
  }
  if (endsWith(name, ".nii.gz")) {
    if (gunzippedSize(written, reported) < voxelBytes + 348) {
      cutShort(reported, "it holds fewer voxels than the image");
    }
  } else if (endsWith(name, ".nii")) {
    if (size < voxelBytes + 348) {
      cutShort(reported, "it holds fewer voxels than the image");
    }
  } else {
    // NRRD / MetaImage, compressed or not: read it back whole.
    NullProgress progress;
    try {
      const VolumePtr back = readVolumeFile(written, progress);
      const std::size_t backBytes =
          back->hasColour() ? back->sharedColour()->bytes() : back->voxels().bytes();
      if (backBytes != voxelBytes) {
        cutShort(reported, "it reads back with another size");
      }
    } catch (const Error& e) {
      cutShort(reported, e.detail());
    }
  }
}

}  // namespace delineate::core
