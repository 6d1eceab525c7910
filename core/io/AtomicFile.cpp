#include "core/io/AtomicFile.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>

#include "core/Error.h"

namespace delineate::core {

namespace fs = std::filesystem;

fs::path temporarySiblingPath(const fs::path& target) {
  static std::atomic<unsigned> counter{0};
  const std::string name = target.filename().string();
  const auto dot = name.find('.', 1);
  const std::string stem = dot == std::string::npos ? name : name.substr(0, dot);
  const std::string ext = dot == std::string::npos ? std::string() : name.substr(dot);
  const std::string tmp = "." + stem + ".partial-" + std::to_string(::getpid()) + "-" +
                          std::to_string(counter.fetch_add(1)) + ext;
  return target.parent_path() / tmp;
}

namespace {
void syncPath(const fs::path& p, bool directory) {
  const int fd = ::open(p.c_str(), directory ? (O_RDONLY | O_DIRECTORY) : O_RDONLY);
  if (fd < 0) {
    throw Error(ErrorKind::Io, p.string(),
                std::string("cannot open for sync: ") + std::strerror(errno));
  }
  const int rc = ::fsync(fd);
  const int err = errno;
  ::close(fd);
  if (rc != 0) {
    throw Error(ErrorKind::Io, p.string(), std::string("fsync failed: ") + std::strerror(err));
  }
}
}  // namespace

void commitAtomically(const fs::path& temporary, const fs::path& target) {
  try {
    syncPath(temporary, false);
    std::error_code ec;
    fs::rename(temporary, target, ec);
    if (ec) {
      throw Error(ErrorKind::Io, target.string(), "cannot replace file: " + ec.message());
    }
  } catch (...) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw;
  }
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  syncPath(folder, true);
}

void writeTextAtomically(const fs::path& target, std::string_view text, const std::string& what) {
  const fs::path temporary = temporarySiblingPath(target);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(text.data(), std::streamsize(text.size()));
    out.close();
    if (!out) {
      std::error_code ec;
      fs::remove(temporary, ec);
      throw Error(ErrorKind::Io, target.string(), "cannot write " + what);
    }
  }
  commitAtomically(temporary, target);
}

}  // namespace delineate::core
