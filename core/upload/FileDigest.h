#pragma once
// SHA-256 of what goes to a server, read in chunks (staged volumes are hundreds of MB) through
// OpenSSL, which cpprestsdk links anyway and which uses the CPU's SHA instructions.
#include <filesystem>
#include <string>
#include <string_view>

namespace delineate::core::upload {

// 64 lowercase hex digits. Throws core::Error(Io) naming the file when it cannot be read.
std::string sha256OfFile(const std::filesystem::path& file);
std::string sha256OfBytes(std::string_view bytes);

}  // namespace delineate::core::upload
