#include "core/edit/EditJournal.h"

#include <signal.h>
#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "core/Error.h"
#include "core/io/AtomicFile.h"
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

// Calls visit(type, payload) for each intact record, in order, until one is torn or visit
// returns false. A record being written when the process died fails its length or CRC check.
void forEachRecord(const fs::path& path,
                   const std::function<bool(std::uint32_t, const std::string&)>& visit) {
  std::ifstream f(path, std::ios::binary);
  while (f) {
    std::uint32_t magic = 0, type = 0, crc = 0;
    std::uint64_t length = 0;
    if (!f.read(reinterpret_cast<char*>(&magic), 4) || magic != kMagic ||
        !f.read(reinterpret_cast<char*>(&type), 4) ||
        !f.read(reinterpret_cast<char*>(&length), 8) || length > (std::uint64_t(1) << 34)) {
      return;
    }
    std::string payload(length, '\0');
    if (!f.read(payload.data(), static_cast<std::streamsize>(length)) ||
        !f.read(reinterpret_cast<char*>(&crc), 4) ||
        crc !=
            static_cast<std::uint32_t>(::crc32(0L, reinterpret_cast<const Bytef*>(payload.data()),
                                               static_cast<uInt>(payload.size())))) {
      return;
    }
    if (!visit(type, payload)) {
      return;
    }
  }
}

std::size_t countRecords(const fs::path& path) {
  std::size_t n = 0;
  forEachRecord(path, [&n](std::uint32_t, const std::string&) {
    ++n;
    return true;
  });
  return n;
}

json geometryToJson(const ImageGeometry& g) {
  return {
      {"size", g.size}, {"spacing", g.spacing}, {"origin", g.origin}, {"direction", g.direction}};
}

ImageGeometry geometryFromJson(const json& j) {
  ImageGeometry g;
  g.size = j.at("size").get<Size3>();
  g.spacing = j.at("spacing").get<Vec3>();
  g.origin = j.at("origin").get<Vec3>();
  g.direction = j.at("direction").get<Mat3>();
  return g;
}

// Writes `text` to `path` through a temporary sibling, fsync and rename.
void writeTextAtomically(const fs::path& path, const std::string& text) {
  const fs::path temporary = temporarySiblingPath(path);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) {
      throw Error(ErrorKind::Io, path.string(), "cannot write (disk full?)");
    }
  }
  commitAtomically(temporary, path);
}

}  // namespace

EditJournal::EditJournal(const fs::path& root, const LabelMap& labels,
                         const std::string& sourcePath, bool empty)
    : base_(empty ? "empty" : "pending"),
      source_(sourcePath),
      labelName_(labels.name()),
      started_(isoNow()),
      geometry_(labels.geometry()) {
  static std::atomic<unsigned> counter{0};
  const auto stamp = std::chrono::system_clock::now().time_since_epoch().count();
  folder_ = root / ("session-" + std::to_string(::getpid()) + "-" + std::to_string(stamp) + "-" +
                    std::to_string(counter++));
  std::error_code ec;
  fs::create_directories(folder_, ec);
  if (ec) {
    throw Error(ErrorKind::Io, folder_.string(), "cannot create recovery folder: " + ec.message());
  }
  fs::permissions(folder_, fs::perms::owner_all, fs::perm_options::replace, ec);
  if (empty) {
    segments_ = segmentTableToJson(labels.segments());
  }
  writeManifest();
  openJournal(true);
}

std::unique_ptr<EditJournal> EditJournal::adopt(const RecoverableSession& session) {
  std::unique_ptr<EditJournal> journal(new EditJournal());
  std::ifstream f(session.folder / "manifest.json");
  const json m = json::parse(f);
  journal->folder_ = session.folder;
  journal->source_ = m.value("source", "");
  journal->labelName_ = m.value("labelName", "");
  journal->started_ = m.value("started", "");
  journal->base_ = m.value("base", "snapshot");
  if (journal->base_ == "empty") {
    journal->geometry_ = geometryFromJson(m.at("geometry"));
    journal->segments_ = m.at("segments").dump();
  }
  std::error_code ec;
  journal->bytes_ = static_cast<std::size_t>(fs::file_size(session.folder / "journal.bin", ec));
  journal->records_ = session.records;
  journal->writeManifest();  // now owned by this process
  journal->openJournal(false);
  return journal;
}

void EditJournal::writeManifest() {
  json manifest{{"source", source_},
                {"labelName", labelName_},
                {"pid", static_cast<long>(::getpid())},
                {"started", started_},
                {"base", base_}};
  if (base_ == "empty") {
    manifest["geometry"] = geometryToJson(geometry_);
    manifest["segments"] = json::parse(segments_);
  }
  writeTextAtomically(folder_ / "manifest.json", manifest.dump(2) + "\n");
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
  ++records_;
}

void EditJournal::recordDelta(const VoxelDelta& delta, bool forward) {
  if (!delta.empty()) {
    writeRecord(forward ? kDeltaForward : kDeltaBackward, serializeDelta(delta));
  }
}

void EditJournal::recordSegments(const std::vector<Segment>& segments) {
  writeRecord(kSegments, segmentTableToJson(segments));
}

bool EditJournal::needsSnapshot() const {
  return file_ != nullptr &&
         (base_ == "pending" || snapshotRequested_ || bytes_ > snapshotThreshold());
}

void EditJournal::writeSnapshot(const LabelMap& copy, const fs::path& folder) {
  // Each writer is atomic (temporary sibling, fsync, rename): a crash leaves the old file or the
  // new one, and replaying the journal from either gives the same map.
  writeVolumeFile(*copy.asVolume(), folder / "snapshot.nrrd", true);
  writeSegmentTable(copy.segments(), folder / "snapshot.json");
}

void EditJournal::snapshotWritten(std::size_t offset) {
  if (!file_) {
    return;
  }
  snapshotRequested_ = false;
  if (base_ != "snapshot") {
    base_ = "snapshot";
    writeManifest();  // before the cut: the snapshot plus every record is the map too
  }
  offset = std::min(offset, bytes_);
  if (offset == 0) {
    return;
  }
  // Keep the records written after the copy was taken (few: the snapshot job is short).
  const fs::path path = folder_ / "journal.bin";
  std::string tail(bytes_ - offset, '\0');
  {
    std::ifstream in(path, std::ios::binary);
    in.seekg(static_cast<std::streamoff>(offset));
    in.read(tail.data(), static_cast<std::streamsize>(tail.size()));
    if (!in) {
      throw Error(ErrorKind::Io, path.string(), "cannot read the recovery journal");
    }
  }
  writeTextAtomically(path, tail);
  openJournal(false);
  bytes_ = tail.size();
}

void EditJournal::compact(const LabelMap& labels) {
  writeSnapshot(labels, folder_);
  snapshotWritten(bytes_);
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
    if (!fs::exists(manifestPath, ec)) {
      continue;
    }
    try {
      std::ifstream f(manifestPath);
      const json m = json::parse(f);
      if (processAlive(m.value("pid", 0L))) {
        continue;  // another running instance owns it
      }
      const std::string base = m.value("base", "snapshot");
      if (base == "pending" ||
          (base == "snapshot" && !fs::exists(entry.path() / "snapshot.nrrd"))) {
        fs::remove_all(entry.path(), ec);  // died before its first snapshot: nothing to rebuild
        continue;
      }
      RecoverableSession s;
      s.folder = entry.path();
      s.sourcePath = m.value("source", "");
      s.labelName = m.value("labelName", "");
      s.started = m.value("started", "");
      s.records = countRecords(entry.path() / "journal.bin");
      out.push_back(std::move(s));
    } catch (const std::exception&) {
      continue;  // a half-written manifest: nothing useful to offer
    }
  }
  return out;
}

LabelMap EditJournal::recover(const RecoverableSession& session) {
  std::ifstream mf(session.folder / "manifest.json");
  const json manifest = json::parse(mf);
  std::optional<LabelMap> labels;
  if (manifest.value("base", "snapshot") == "empty") {
    labels.emplace(session.labelName, geometryFromJson(manifest.at("geometry")),
                   segmentTableFromJson(manifest.at("segments").dump(), session.folder.string()));
  } else {
    NullProgress progress;
    const VolumePtr snap = readVolumeFile(session.folder / "snapshot.nrrd", progress);
    if (snap->scalarType() != ScalarType::UInt16) {
      throw Error(ErrorKind::InvalidInput, session.folder.string(), "snapshot is not a label map");
    }
    auto voxels = std::make_shared<VoxelBuffer>(ScalarType::UInt16, snap->voxels().count());
    std::memcpy(voxels->data(), snap->voxels().data(), snap->voxels().bytes());
    labels.emplace(session.labelName, snap->geometry(), voxels,
                   readSegmentTable(session.folder / "snapshot.json"));
  }
  forEachRecord(session.folder / "journal.bin",
                [&](std::uint32_t type, const std::string& payload) {
                  if (type == kDeltaForward || type == kDeltaBackward) {
                    const VoxelDelta d = deserializeDelta(payload);
                    const Size3& n = labels->geometry().size;
                    if (d.box().hi[0] > n[0] || d.box().hi[1] > n[1] || d.box().hi[2] > n[2]) {
                      return false;
                    }
                    d.apply(*labels, type == kDeltaForward);
                  } else if (type == kSegments) {
                    labels->segments() = segmentTableFromJson(payload, session.folder.string());
                  }
                  return true;
                });
  return std::move(*labels);
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
