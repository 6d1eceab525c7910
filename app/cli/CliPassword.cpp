#include "CliPassword.h"

#include <cstdlib>
#include <fstream>

#include "core/Error.h"

namespace delineate::cli {

std::optional<std::string> readPassword(const std::string& file) {
  if (!file.empty()) {
    std::ifstream in(file);
    if (!in) {
      throw core::Error(core::ErrorKind::Io, file, "cannot read the password file");
    }
    std::string line;
    std::getline(in, line);
    if (!line.empty() && line.back() == '\r') {
      line.pop_back();
    }
    return line;
  }
  if (const char* env = std::getenv("DELINEATE_PASSWORD")) {
    return std::string(env);
  }
  return std::nullopt;
}

}  // namespace delineate::cli
