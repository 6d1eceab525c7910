#include "core/upload/FileDigest.h"

#include <openssl/evp.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <vector>

#include "core/Error.h"

namespace delineate::core::upload {

namespace {

struct DigestContext {
  DigestContext() : ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free) {
    if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) {
      throw Error(ErrorKind::Internal, "SHA-256", "OpenSSL cannot start a digest");
    }
  }
  void update(const char* data, std::size_t size) { EVP_DigestUpdate(ctx.get(), data, size); }
  std::string hex() {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_DigestFinal_ex(ctx.get(), digest, &length);
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < length; ++i) {
      out += kHex[digest[i] >> 4];
      out += kHex[digest[i] & 0xf];
    }
    return out;
  }
  std::unique_ptr<EVP_MD_CTX, void (*)(EVP_MD_CTX*)> ctx;
};

}  // namespace

std::string sha256OfFile(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw Error(ErrorKind::Io, file.string(), std::string("cannot read: ") + std::strerror(errno));
  }
  DigestContext digest;
  std::vector<char> chunk(1 << 20);
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    digest.update(chunk.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) {
    throw Error(ErrorKind::Io, file.string(), "read error");
  }
  return digest.hex();
}

std::string sha256OfBytes(std::string_view bytes) {
  DigestContext digest;
  digest.update(bytes.data(), bytes.size());
  return digest.hex();
}

}  // namespace delineate::core::upload
