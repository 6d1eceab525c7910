#include "core/deid/ReidentificationMap.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "core/Error.h"
#include "core/io/AtomicFile.h"
#include "core/io/DicomUid.h"
#include "core/report/Sha256.h"

namespace delineate::core::deid {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kFormat = "delineate-reidentification-map";
constexpr int kVersion = 1;

std::string randomSecret() {
  std::random_device device;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string secret;
  for (int i = 0; i < 16; ++i) {
    const std::uint32_t word = device();
    for (int shift = 0; shift < 32; shift += 4) {
      secret.push_back(kHex[(word >> shift) & 0xF]);
    }
  }
  return secret;  // 256 bits
}

std::uint32_t hexWord(const std::string& hex, std::size_t at) {
  return static_cast<std::uint32_t>(std::stoul(hex.substr(at, 8), nullptr, 16));
}

std::string upper(std::string s) {
  for (char& c : s) {
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return s;
}

// Creates the missing folders above `file` with mode 0700.
void createPrivateFolders(const fs::path& folder) {
  if (folder.empty() || fs::exists(folder)) {
    return;
  }
  createPrivateFolders(folder.parent_path());
  if (::mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST) {
    throw Error(
        ErrorKind::Io, folder.string(),
        std::string("cannot create the re-identification map's folder: ") + std::strerror(errno));
  }
}

}  // namespace

ReidentificationMap::ReidentificationMap(fs::path path) : path_(std::move(path)) {
  std::error_code ec;
  if (fs::exists(path_, ec)) {
    load();
  } else {
    secret_ = randomSecret();
    dirty_ = true;
  }
}

fs::path ReidentificationMap::defaultPath() {
  const char* xdg = std::getenv("XDG_DATA_HOME");
  fs::path base;
  if (xdg && *xdg && fs::path(xdg).is_absolute()) {
    base = xdg;
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    base = fs::path(home) / ".local" / "share";
  } else {
    throw Error(ErrorKind::Io, {},
                "neither XDG_DATA_HOME nor HOME is set: cannot place the re-identification map");
  }
  return base / "delineate" / "reid" / "reid-map.json";
}

void ReidentificationMap::load() {
  const std::string where = path_.string();
  struct stat st {};
  if (::stat(path_.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
    throw Error(ErrorKind::Io, where, "the re-identification map is not a readable file");
  }
  if ((st.st_mode & 077) != 0 && ::chmod(path_.c_str(), 0600) != 0) {
    throw Error(ErrorKind::Io, where,
                std::string("cannot restrict the re-identification map to its owner: ") +
                    std::strerror(errno));
  }
  std::ifstream in(path_, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) {
    throw Error(ErrorKind::Io, where, "cannot read the re-identification map");
  }
  json doc;
  try {
    doc = json::parse(text.str());
  } catch (const json::exception&) {
    throw Error(ErrorKind::InvalidInput, where, "the re-identification map is not valid JSON");
  }
  try {
    if (doc.value("format", "") != kFormat || doc.value("version", 0) != kVersion) {
      throw Error(ErrorKind::InvalidInput, where, "not a re-identification map of this version");
    }
    secret_ = doc.at("secret").get<std::string>();
    if (secret_.size() < 32) {
      throw Error(ErrorKind::InvalidInput, where,
                  "the re-identification map's secret is too short");
    }
    // Named copies: a range-for over items() of a temporary would read a destroyed object.
    const json patients = doc.value("patients", json::object());
    const json uids = doc.value("uids", json::object());
    const json files = doc.value("files", json::object());
    for (const auto& [pseudonym, p] : patients.items()) {
      patients_[pseudonym] = {p.value("patientId", ""), p.value("patientName", ""),
                              p.value("dateShiftDays", 0)};
    }
    for (const auto& [pseudonym, original] : uids.items()) {
      uidsByPseudonym_[pseudonym] = original.get<std::string>();
      uidsByOriginal_[original.get<std::string>()] = pseudonym;
    }
    for (const auto& [name, original] : files.items()) {
      files_[name] = original.get<std::string>();
    }
  } catch (const json::exception& e) {
    throw Error(ErrorKind::InvalidInput, where,
                std::string("malformed re-identification map: ") + e.what());
  }
}

std::string ReidentificationMap::keyedHash(const std::string& purpose,
                                           const std::string& value) const {
  // The secret comes first, so that without it a pseudonym cannot be recomputed from a guessed
  // identity (an unkeyed hash of a Patient ID falls to a dictionary of IDs).
  return report::sha256Hex(secret_ + '\x1f' + purpose + '\x1f' + value);
}

PatientPseudonym ReidentificationMap::patient(const std::string& key, const std::string& originalId,
                                              const std::string& originalName) {
  std::lock_guard lock(mutex_);
  PatientPseudonym out;
  out.pseudonym = "DLN-" + upper(keyedHash("patient", key).substr(0, 12));
  const std::uint32_t h = hexWord(keyedHash("date-shift", key), 0);
  out.dateShiftDays = -static_cast<int>(365 + h % 3286);
  const auto it = patients_.find(out.pseudonym);
  if (it == patients_.end() || it->second.patientId != originalId ||
      it->second.patientName != originalName) {
    patients_[out.pseudonym] = {originalId, originalName, out.dateShiftDays};
    dirty_ = true;
  }
  return out;
}

std::string ReidentificationMap::uid(const std::string& originalUid) {
  std::lock_guard lock(mutex_);
  if (const auto it = uidsByOriginal_.find(originalUid); it != uidsByOriginal_.end()) {
    return it->second;
  }
  const std::string pseudonym = dicomUidFromHex(keyedHash("uid", originalUid));
  uidsByOriginal_[originalUid] = pseudonym;
  uidsByPseudonym_[pseudonym] = originalUid;
  dirty_ = true;
  return pseudonym;
}

std::string ReidentificationMap::fileName(const std::string& originalKey,
                                          const std::string& extension) {
  std::lock_guard lock(mutex_);
  const std::string name = "DLN-" + keyedHash("file", originalKey).substr(0, 16) + extension;
  if (files_[name] != originalKey) {
    files_[name] = originalKey;
    dirty_ = true;
  }
  return name;
}

std::optional<std::string> ReidentificationMap::originalUid(const std::string& pseudonymUid) const {
  std::lock_guard lock(mutex_);
  const auto it = uidsByPseudonym_.find(pseudonymUid);
  return it == uidsByPseudonym_.end() ? std::nullopt : std::optional(it->second);
}

std::optional<PatientRecord> ReidentificationMap::originalPatient(
    const std::string& pseudonym) const {
  std::lock_guard lock(mutex_);
  const auto it = patients_.find(pseudonym);
  return it == patients_.end() ? std::nullopt : std::optional(it->second);
}

std::optional<std::string> ReidentificationMap::originalFile(
    const std::string& pseudonymName) const {
  std::lock_guard lock(mutex_);
  const auto it = files_.find(pseudonymName);
  return it == files_.end() ? std::nullopt : std::optional(it->second);
}

void ReidentificationMap::save() {
  std::lock_guard lock(mutex_);
  if (!dirty_) {
    return;
  }
  json doc{{"format", kFormat}, {"version", kVersion}, {"secret", secret_}};
  json patients = json::object();
  for (const auto& [pseudonym, p] : patients_) {
    patients[pseudonym] = {{"patientId", p.patientId},
                           {"patientName", p.patientName},
                           {"dateShiftDays", p.dateShiftDays}};
  }
  doc["patients"] = std::move(patients);
  doc["uids"] = uidsByPseudonym_;
  doc["files"] = files_;
  // Invalid UTF-8 in an original name must not stop the map from being written.
  const std::string text = doc.dump(1, ' ', false, json::error_handler_t::replace) + "\n";

  const std::string where = path_.string();
  createPrivateFolders(path_.parent_path());
  const fs::path temporary = temporarySiblingPath(path_);
  const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    throw Error(ErrorKind::Io, where,
                std::string("cannot write the re-identification map: ") + std::strerror(errno));
  }
  bool ok = ::fchmod(fd, 0600) == 0;  // the umask can only narrow 0600, but be explicit
  std::size_t done = 0;
  while (ok && done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    ok = n > 0;
    done += ok ? static_cast<std::size_t>(n) : 0;
  }
  const int err = errno;
  ok = (::close(fd) == 0) && ok;
  if (!ok) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw Error(ErrorKind::Io, where,
                std::string("cannot write the re-identification map: ") + std::strerror(err));
  }
  commitAtomically(temporary, path_);
  dirty_ = false;
}

}  // namespace delineate::core::deid
