#pragma once
// The password of `--user` for the commands that sign in to a server (infer, detect).
#include <optional>
#include <string>

namespace delineate::cli {

// The first line of `file`, else $DELINEATE_PASSWORD; nullopt: neither. Throws Error(Io) naming
// the file when it cannot be read.
std::optional<std::string> readPassword(const std::string& file);

}  // namespace delineate::cli
