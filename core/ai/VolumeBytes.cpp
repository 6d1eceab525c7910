#include "core/ai/VolumeBytes.h"

#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/Error.h"
#include "core/io/VolumeFileIO.h"

namespace delineate::core::ai {

namespace fs = std::filesystem;

namespace {

// A file name in the temporary folder, unique in this process and among processes; removed when
// the object goes.
class ScratchFile {
 public:
  explicit ScratchFile(const std::string& extension) {
    static std::atomic<unsigned> counter{0};
    path_ = fs::temp_directory_path() / ("delineate-" + std::to_string(::getpid()) + "-" +
                                         std::to_string(counter++) + extension);
  }
  ~ScratchFile() {
    std::error_code ec;
    fs::remove(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

}  // namespace

std::string fullExtension(const std::string& filename) {
  const std::string name = fs::path(filename).filename().string();
  const auto dot = name.find('.', 1);
  return dot == std::string::npos ? std::string() : name.substr(dot);
}

std::string volumeToBytes(const Volume& volume, const std::string& filename) {
  ScratchFile file(fullExtension(filename).empty() ? ".nii.gz" : fullExtension(filename));
  writeVolumeFile(volume, file.path(), true);
  std::ifstream in(file.path(), std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

VolumePtr volumeFromBytes(const std::string& bytes, const std::string& filename,
                          const std::string& what, ProgressSink& progress) {
  std::string extension = fullExtension(filename);
  if (extension.empty() || !isVolumeFile("x" + extension)) {
    // No usable name: NIfTI, gzipped when the bytes say so (the servers' default).
    const bool gz = bytes.size() > 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
                    static_cast<unsigned char>(bytes[1]) == 0x8b;
    extension = gz ? ".nii.gz" : ".nii";
  }
  ScratchFile file(extension);
  {
    std::ofstream out(file.path(), std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out.flush()) {
      throw Error(ErrorKind::Io, file.path().string(), "cannot write a temporary file");
    }
  }
  try {
    return readVolumeFile(file.path(), progress);
  } catch (const CancelledError&) {
    throw;
  } catch (const Error& e) {
    throw Error(ErrorKind::InvalidInput, what,
                "not a readable image (" + std::to_string(bytes.size()) + " bytes): " + e.detail());
  }
}

}  // namespace delineate::core::ai
