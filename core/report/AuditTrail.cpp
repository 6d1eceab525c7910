// The audit trail's hash-chained JSON lines: fsync'd appends and a checking reader.
#include "core/report/AuditTrail.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/Error.h"
#include "core/report/Sha256.h"

namespace delineate::core::report {

using nlohmann::json;

namespace {

const std::string kGenesis(64, '0');
constexpr const char* kTextKeys[] = {"time", "user", "action", "field", "old", "new", "prev"};

// The line's content without its hash; the hash is SHA-256 of this text.
json content(const AuditEntry& e, std::uint64_t seq, const std::string& prev) {
  return {{"seq", seq},       {"time", e.time},    {"user", e.user},    {"action", e.action},
          {"field", e.field}, {"old", e.oldValue}, {"new", e.newValue}, {"prev", prev}};
}

void writeAll(int fd, const std::string& text, const std::filesystem::path& file) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      const int err = errno;
      ::close(fd);
      throw Error(ErrorKind::Io, file.string(),
                  std::string("cannot append to the audit trail: ") + std::strerror(err));
    }
    done += std::size_t(n);
  }
}

void syncFolder(const std::filesystem::path& file) {
  const std::filesystem::path folder = file.has_parent_path() ? file.parent_path() : ".";
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
}

}  // namespace

AuditTrail::AuditTrail(std::filesystem::path file) : file_(std::move(file)), head_(kGenesis) {
  std::error_code ec;
  if (!std::filesystem::exists(file_, ec)) {
    return;
  }
  // Re-reads the lines to learn the chain's head; readAuditTrail has checked each.
  const std::vector<AuditEntry> entries = readAuditTrail(file_);
  count_ = entries.size();
  std::ifstream in(file_, std::ios::binary);
  std::string line, last;
  while (std::getline(in, line)) {
    last = line;
  }
  if (!last.empty()) {
    head_ = json::parse(last).at("hash").get<std::string>();
  }
}

void AuditTrail::append(const AuditEntry& entry) {
  append(std::vector<AuditEntry>{entry});
}

void AuditTrail::append(const std::vector<AuditEntry>& entries) {
  if (entries.empty()) {
    return;
  }
  std::string text;
  std::string head = head_;
  std::uint64_t count = count_;
  for (const AuditEntry& e : entries) {
    json line = content(e, ++count, head);
    head = sha256Hex(line.dump());
    line["hash"] = head;
    text += line.dump() + "\n";
  }
  std::error_code ec;
  const bool created = !std::filesystem::exists(file_, ec);
  const int fd = ::open(file_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) {
    throw Error(ErrorKind::Io, file_.string(),
                std::string("cannot open the audit trail: ") + std::strerror(errno));
  }
  writeAll(fd, text, file_);
  if (::fsync(fd) != 0) {
    const int err = errno;
    ::close(fd);
    throw Error(ErrorKind::Io, file_.string(),
                std::string("cannot sync the audit trail: ") + std::strerror(err));
  }
  ::close(fd);
  if (created) {
    syncFolder(file_);
  }
  head_ = head;
  count_ = count;
}

std::vector<AuditEntry> readAuditTrail(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw Error(ErrorKind::Io, file.string(), "cannot read the audit trail");
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  std::vector<AuditEntry> out;
  std::string prev = kGenesis;
  std::size_t start = 0;
  for (int lineNo = 1; start < text.size(); ++lineNo) {
    const auto fail = [&](const std::string& what) {
      throw Error(ErrorKind::InvalidInput, file.string() + ":" + std::to_string(lineNo), what);
    };
    const std::size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      fail("the last line is unfinished (the writer stopped while writing it)");
    }
    json j;
    try {
      j = json::parse(text.substr(start, end - start));
    } catch (const json::exception&) {
      fail("the line is not an audit entry (not JSON): the line was altered");
    }
    start = end + 1;
    if (!j.is_object() || !j.contains("hash") || !j["hash"].is_string() || !j.contains("seq") ||
        !j["seq"].is_number_unsigned()) {
      fail("the line is not an audit entry (no hash or sequence number): the line was altered");
    }
    for (const char* key : kTextKeys) {
      if (!j.contains(key) || !j[key].is_string()) {
        fail(std::string("the line has no \"") + key + "\": the line was altered");
      }
    }
    const std::string hash = j["hash"].get<std::string>();
    j.erase("hash");
    if (j.size() != 8 || sha256Hex(j.dump()) != hash) {
      fail("the line was altered: its hash does not match its content");
    }
    if (j["prev"].get<std::string>() != prev || j["seq"].get<std::uint64_t>() != out.size() + 1) {
      fail("the line does not follow the line before it: a line was removed, inserted or moved");
    }
    prev = hash;
    const auto str = [&](const char* key) { return j[key].get<std::string>(); };
    out.push_back({str("time"), str("user"), str("action"), str("field"), str("old"), str("new")});
  }
  return out;
}

}  // namespace delineate::core::report
