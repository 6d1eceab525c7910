#include "core/edit/EditJournal.h"

#include <signal.h>
#include <unistd.h>
#include <zlib.h>

#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/Error.h"
#include "core/io/SegmentTableJson.h"
#include "core/io/VolumeFileIO.h"

namespace delineate::core {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr std::uint32_t kMagic = 0x4a4c4e44;  // "DNLJ"
constexpr std::uint32_t kDeltaForward = 1;
constexpr std::uint32_t kDeltaBackward = 2;
constexpr std::uint32_t kSegments = 3;

std::string isoNow() {
  const std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

std::string serializeDelta(const VoxelDelta& d) {
  std::string out;
  auto put = [&out](const void* p, std::size_t n) { out.append(static_cast<const char*>(p), n); };
  for (int a = 0; a < 3; ++a) {
    const std::uint64_t lo = d.box().lo[a], hi = d.box().hi[a];
    put(&lo, 8);
    put(&hi, 8);
  }
  const std::uint64_t changed = d.changedVoxels(), runs = d.runs().size();
  put(&changed, 8);
  put(&runs, 8);
  put(d.runs().data(), d.runs().size() * sizeof(VoxelDelta::Run));
  return out;
}

VoxelDelta deserializeDelta(const std::string& s) {
  if (s.size() < 64) {
    throw Error(ErrorKind::InvalidInput, {}, "short delta record");
  }
  std::size_t pos = 0;
  auto get = [&](void* p, std::size_t n) {
    std::memcpy(p, s.data() + pos, n);
    pos += n;
  };
  VoxelBox box;
  for (int a = 0; a < 3; ++a) {
    std::uint64_t lo, hi;
    get(&lo, 8);
    get(&hi, 8);
    box.lo[a] = lo;
    box.hi[a] = hi;
  }
  std::uint64_t changed, runs;
  get(&changed, 8);
  get(&runs, 8);
  if (runs > (s.size() - pos) / sizeof(VoxelDelta::Run)) {
    throw Error(ErrorKind::InvalidInput, {}, "delta record shorter than its run count");
  }
  std::vector<VoxelDelta::Run> r(runs);
  get(r.data(), runs * sizeof(VoxelDelta::Run));
  return VoxelDelta(box, std::move(r), changed);
}

bool processAlive(long pid) {
  return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

void writeSnapshot(const LabelMap& labels, const fs::path& folder) {
  writeVolumeFile(*labels.asVolume(), folder / "snapshot.nrrd", true);
  writeSegmentTable(labels.segments(), folder / "snapshot.json");
}

}  // namespace

EditJournal::EditJournal(const fs::path& root, const LabelMap& labels,
                         const std::string& sourcePath) {
  const auto stamp = std::chrono::system_clock::now().time_since_epoch().count();
  folder_ = root / ("session-" + std::to_string(::getpid()) + "-" + std::to_string(stamp));
  std::error_code ec;
  fs::create_directories(folder_, ec);
  if (ec) {
    throw Error(ErrorKind::Io, folder_.string(), "cannot create recovery folder: " + ec.message());
  }
  fs::permissions(folder_, fs::perms::owner_all, fs::perm_options::replace, ec);
  writeSnapshot(labels, folder_);
  const json manifest{{"source", sourcePath},
                      {"labelName", labels.name()},
                      {"pid", static_cast<long>(::getpid())},
                      {"started", isoNow()}};
  std::ofstream(folder_ / "manifest.json") << manifest.dump(2) << "\n";
  openJournal(true);
}

EditJournal::~EditJournal() {
  if (file_) {
    std::fclose(file_);
  }
}

void EditJournal::openJournal(bool truncate) {
  if (file_) {
    std::fclose(file_);
  }
  file_ = std::fopen((folder_ / "journal.bin").c_str(), truncate ? "wb" : "ab");
  if (!file_) {
    throw Error(ErrorKind::Io, (folder_ / "journal.bin").string(), "cannot open journal");
  }
  bytes_ = truncate ? 0 : bytes_;
}

void EditJournal::writeRecord(std::uint32_t type, const std::string& payload) {
  if (!file_) {
    return;
  }
  const std::uint64_t length = payload.size();
  const auto crc = static_cast<std::uint32_t>(::crc32(
      0L, reinterpret_cast<const Bytef*>(payload.data()), static_cast<uInt>(payload.size())));
  bool ok = std::fwrite(&kMagic, 4, 1, file_) == 1 && std::fwrite(&type, 4, 1, file_) == 1 &&
            std::fwrite(&length, 8, 1, file_) == 1 &&
            std::fwrite(payload.data(), 1, payload.size(), file_) == payload.size() &&
            std::fwrite(&crc, 4, 1, file_) == 1;
  ok = ok && std::fflush(file_) == 0 && ::fdatasync(::fileno(file_)) == 0;
  if (!ok) {
    throw Error(ErrorKind::Io, (folder_ / "journal.bin").string(),
                "cannot write the recovery journal (disk full?)");
  }
  bytes_ += 20 + payload.size();
}

void EditJournal::recordDelta(const VoxelDelta& delta, bool forward) {
  if (!delta.empty()) {
    writeRecord(forward ? kDeltaForward : kDeltaBackward, serializeDelta(delta));
  }
}

void EditJournal::recordSegments(const std::vector<Segment>& segments) {
  writeRecord(kSegments, segmentTableToJson(segments));
}

void EditJournal::compact(const LabelMap& labels) {
  writeSnapshot(labels, folder_);
  openJournal(true);
}

void EditJournal::discard() {
  if (file_) {
    std::fclose(file_);
    file_ = nullptr;
  }
  std::error_code ec;
  fs::remove_all(folder_, ec);
}

std::vector<RecoverableSession> EditJournal::findRecoverable(const fs::path& root) {
  std::vector<RecoverableSession> out;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) {
    return out;
  }
  for (const auto& entry : fs::directory_iterator(root, ec)) {
    const fs::path manifestPath = entry.path() / "manifest.json";
    if (!fs::exists(manifestPath, ec) || !fs::exists(entry.path() / "snapshot.nrrd", ec)) {
      continue;
    }
    try {
      std::ifstream f(manifestPath);
      const json m = json::parse(f);
      if (processAlive(m.value("pid", 0L))) {
        continue;  // another running instance owns it
      }
      RecoverableSession s;
      s.folder = entry.path();
      s.sourcePath = m.value("source", "");
      s.labelName = m.value("labelName", "");
      s.started = m.value("started", "");
      s.records = fs::exists(entry.path() / "journal.bin", ec) ? 1 : 0;
      out.push_back(std::move(s));
    } catch (const std::exception&) {
      continue;  // a half-written manifest: nothing useful to offer
    }
  }
  return out;
}

LabelMap EditJournal::recover(const RecoverableSession& session) {
  NullProgress progress;
  const VolumePtr snap = readVolumeFile(session.folder / "snapshot.nrrd", progress);
  if (snap->scalarType() != ScalarType::UInt16) {
    throw Error(ErrorKind::InvalidInput, session.folder.string(), "snapshot is not a label map");
  }
  auto voxels = std::make_shared<VoxelBuffer>(ScalarType::UInt16, snap->voxels().count());
  std::memcpy(voxels->data(), snap->voxels().data(), snap->voxels().bytes());
  LabelMap labels(session.labelName, snap->geometry(), voxels,
                  readSegmentTable(session.folder / "snapshot.json"));
  std::ifstream f(session.folder / "journal.bin", std::ios::binary);
  while (f) {
    std::uint32_t magic = 0, type = 0, crc = 0;
    std::uint64_t length = 0;
    if (!f.read(reinterpret_cast<char*>(&magic), 4) || magic != kMagic ||
        !f.read(reinterpret_cast<char*>(&type), 4) ||
        !f.read(reinterpret_cast<char*>(&length), 8) || length > (std::uint64_t(1) << 34)) {
      break;
    }
    std::string payload(length, '\0');
    if (!f.read(payload.data(), static_cast<std::streamsize>(length)) ||
        !f.read(reinterpret_cast<char*>(&crc), 4) ||
        crc !=
            static_cast<std::uint32_t>(::crc32(0L, reinterpret_cast<const Bytef*>(payload.data()),
                                               static_cast<uInt>(payload.size())))) {
      break;  // the record being written when the process died
    }
    if (type == kDeltaForward || type == kDeltaBackward) {
      const VoxelDelta d = deserializeDelta(payload);
      if (d.box().hi[0] > labels.geometry().size[0] || d.box().hi[1] > labels.geometry().size[1] ||
          d.box().hi[2] > labels.geometry().size[2]) {
        break;
      }
      d.apply(labels, type == kDeltaForward);
    } else if (type == kSegments) {
      labels.segments() = segmentTableFromJson(payload, session.folder.string());
    }
  }
  return labels;
}

fs::path EditJournal::defaultRoot() {
  fs::path base;
  if (const char* xdg = std::getenv("XDG_STATE_HOME"); xdg && *xdg) {
    base = xdg;
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    base = fs::path(home) / ".local" / "state";
  } else {
    base = fs::temp_directory_path();
  }
  return base / "delineate" / "recovery";
}

}  // namespace delineate::core
