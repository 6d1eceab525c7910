#include "core/dataset/DatasetStore.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "core/Error.h"
#include "core/jobs/Shard.h"
#include "core/upload/FileDigest.h"

namespace delineate::core::dataset {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string nowIso() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&t, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string readText(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    throw Error(ErrorKind::Io, file.string(), "cannot read it");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Written whole or not at all.
void writeAtomically(const fs::path& file, const std::string& text) {
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  const fs::path partial = file.string() + ".partial." + std::to_string(::getpid());
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush()) {
      throw Error(ErrorKind::Io, partial.string(), "cannot write it (is the disk full?)");
    }
  }
  fs::rename(partial, file, ec);
  if (ec) {
    throw Error(ErrorKind::Io, file.string(), "cannot write it: " + ec.message());
  }
}

void copyAtomically(const fs::path& from, const fs::path& to, bool readOnly = false) {
  std::error_code ec;
  fs::create_directories(to.parent_path(), ec);
  const fs::path partial = to.string() + ".partial." + std::to_string(::getpid());
  fs::copy_file(from, partial, fs::copy_options::overwrite_existing, ec);
  if (!ec && readOnly) {
    fs::permissions(partial,
                    fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                    fs::perm_options::remove, ec);
  }
  if (!ec) {
    fs::rename(partial, to, ec);
  }
  if (ec) {
    fs::remove(partial, ec);
    throw Error(ErrorKind::Io, to.string(), "cannot store a copy of " + from.string());
  }
}

json manifestJson(const Snapshot& s) {
  json files = json::array();
  for (const SnapshotFile& f : s.files) {
    files.push_back({{"path", f.path}, {"sha256", f.sha256}, {"bytes", f.bytes}});
  }
  json provenance = json::array();
  for (const LabelProvenance& p : s.provenance) {
    provenance.push_back(p.toJson());
  }
  return {{"id", s.id}, {"files", files}, {"provenance", provenance}};
}

}  // namespace

const SnapshotFile* Snapshot::find(const std::string& path) const {
  const auto it =
      std::lower_bound(files.begin(), files.end(), path,
                       [](const SnapshotFile& f, const std::string& p) { return f.path < p; });
  return it != files.end() && it->path == path ? &*it : nullptr;
}

std::string snapshotId(const std::vector<SnapshotFile>& files) {
  std::string text;
  for (const SnapshotFile& f : files) {
    text += f.path;
    text += '\0';
    text += f.sha256;
    text += '\n';
  }
  return upload::sha256OfBytes(text);
}

DatasetStore::DatasetStore(fs::path dataset) : dataset_(std::move(dataset)) {}

fs::path DatasetStore::objectPath(const std::string& sha256) const {
  return storeFolder() / "objects" / sha256.substr(0, 2) / sha256.substr(2);
}

std::vector<SnapshotFile> DatasetStore::listFiles() const {
  std::error_code ec;
  if (!fs::is_directory(dataset_, ec)) {
    throw Error(ErrorKind::Io, dataset_.string(), "no such folder");
  }
  std::vector<fs::path> paths;
  for (auto it = fs::recursive_directory_iterator(dataset_, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->path().filename() == kFolder) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec)) {
      paths.push_back(it->path());
    }
  }
  if (ec) {
    throw Error(ErrorKind::Io, dataset_.string(), "cannot list it: " + ec.message());
  }
  std::vector<SnapshotFile> files;
  for (const fs::path& p : paths) {
    files.push_back({fs::relative(p, dataset_).generic_string(), {}, fs::file_size(p, ec)});
  }
  std::sort(files.begin(), files.end(),
            [](const SnapshotFile& a, const SnapshotFile& b) { return a.path < b.path; });
  return files;
}

std::vector<SnapshotFile> DatasetStore::hashAndStore(const std::vector<SnapshotFile>& listed,
                                                     std::size_t index, std::size_t count,
                                                     ProgressSink& progress,
                                                     std::size_t& newObjects) const {
  std::vector<SnapshotFile> out;
  std::error_code ec;
  for (std::size_t i = index; i < listed.size(); i += std::max<std::size_t>(count, 1)) {
    progress.report(double(i) / double(std::max<std::size_t>(listed.size(), 1)),
                    "hashing " + listed[i].path);
    if (progress.cancelled()) {
      throw CancelledError();
    }
    SnapshotFile f = listed[i];
    const fs::path file = dataset_ / f.path;
    f.sha256 = upload::sha256OfFile(file);
    const fs::path object = objectPath(f.sha256);
    if (!fs::exists(object, ec)) {
      copyAtomically(file, object, true);  // read-only: history is not edited by accident
      ++newObjects;
    }
    out.push_back(std::move(f));
  }
  return out;
}

DatasetStore::Taken DatasetStore::record(std::vector<SnapshotFile> files,
                                         const std::string& message, std::size_t newObjects,
                                         ProgressSink& progress) const {
  Snapshot s;
  s.files = std::move(files);
  s.id = snapshotId(s.files);
  s.provenance = provenanceOf(s.files, [this](const SnapshotFile& f) {
    return readText(objectPath(f.sha256));  // the stored copy: what the snapshot holds
  });
  Taken taken;
  taken.id = s.id;
  taken.newObjects = newObjects;
  const std::vector<LogEntry> history = log();
  const std::string parent = history.empty() ? std::string() : history.front().id;
  if (parent == s.id) {
    return taken;  // unchanged
  }
  std::error_code ec;
  const fs::path manifest = storeFolder() / "snapshots" / (s.id + ".json");
  if (!fs::exists(manifest, ec)) {
    writeAtomically(manifest, manifestJson(s).dump(1) + "\n");
  }
  const json entry = {{"id", s.id}, {"parent", parent}, {"time", nowIso()}, {"message", message}};
  std::ofstream out(storeFolder() / "log.jsonl", std::ios::binary | std::ios::app);
  out << entry.dump() << "\n";
  if (!out.flush()) {
    throw Error(ErrorKind::Io, (storeFolder() / "log.jsonl").string(), "cannot write it");
  }
  taken.changed = true;
  progress.report(1, "snapshot " + s.id.substr(0, 12));
  return taken;
}

DatasetStore::Taken DatasetStore::snapshot(const std::string& message,
                                           ProgressSink& progress) const {
  std::size_t newObjects = 0;
  std::vector<SnapshotFile> files = hashAndStore(listFiles(), 0, 1, progress, newObjects);
  return record(std::move(files), message, newObjects, progress);
}

DatasetStore::ShardPart DatasetStore::snapshotShard(std::size_t index, std::size_t count,
                                                    ProgressSink& progress) const {
  if (count == 0 || index >= count) {
    throw Error(ErrorKind::InvalidInput, dataset_.string(), "no such shard");
  }
  ShardPart part;
  part.index = index;
  part.count = count;
  const std::vector<SnapshotFile> listed = listFiles();
  part.listed = listed.size();
  std::size_t newObjects = 0;
  part.files = hashAndStore(listed, index, count, progress, newObjects);
  return part;
}

DatasetStore::Taken DatasetStore::snapshotFromShards(const std::vector<ShardPart>& parts,
                                                     const std::string& message,
                                                     ProgressSink& progress) const {
  const std::string where = dataset_.string();
  if (parts.empty()) {
    throw Error(ErrorKind::InvalidInput, where, "no shards to merge");
  }
  std::vector<Shard> split;
  std::vector<SnapshotFile> files;
  for (const ShardPart& p : parts) {
    split.push_back({p.index, p.count});
    files.insert(files.end(), p.files.begin(), p.files.end());
  }
  if (const std::string problem = shardSetProblem(split); !problem.empty()) {
    throw Error(ErrorKind::InvalidInput, where, problem);
  }
  std::sort(files.begin(), files.end(),
            [](const SnapshotFile& a, const SnapshotFile& b) { return a.path < b.path; });
  // Nothing lost, nothing twice: the shards together are the dataset as it is now.
  const std::vector<SnapshotFile> now = listFiles();
  bool same = now.size() == files.size();
  for (std::size_t i = 0; same && i < now.size(); ++i) {
    same = now[i].path == files[i].path && now[i].bytes == files[i].bytes;
  }
  if (!same) {
    throw Error(ErrorKind::InvalidInput, where,
                "the dataset changed since the shards listed it (" + std::to_string(now.size()) +
                    " files now, " + std::to_string(files.size()) +
                    " in the shards): take the shards again");
  }
  std::error_code ec;
  for (const SnapshotFile& f : files) {
    if (!fs::exists(objectPath(f.sha256), ec)) {
      throw Error(ErrorKind::InvalidInput, where,
                  f.path +
                      ": its content is not in this store (was its shard run against "
                      "another copy of the dataset?)");
    }
  }
  return record(std::move(files), message, 0, progress);
}

json DatasetStore::ShardPart::toJson() const {
  json list = json::array();
  for (const SnapshotFile& f : files) {
    list.push_back({{"path", f.path}, {"sha256", f.sha256}, {"bytes", f.bytes}});
  }
  return {{"shard", shardText({index, count})}, {"listed", listed}, {"files", list}};
}

DatasetStore::ShardPart DatasetStore::ShardPart::fromJson(const json& j,
                                                          const std::string& source) {
  ShardPart p;
  try {
    const std::string text = j.at("shard").get<std::string>();
    const std::optional<Shard> shard = parseShard(text);
    if (!shard) {
      throw Error(ErrorKind::InvalidInput, source, "shard '" + text + "' is not K/N");
    }
    p.index = shard->index;
    p.count = shard->count;
    p.listed = j.at("listed").get<std::size_t>();
    for (const json& f : j.at("files")) {
      const std::string digest = f.at("sha256").get<std::string>();
      if (digest.size() != 64 ||
          digest.find_first_not_of("0123456789abcdef") != std::string::npos) {
        throw Error(ErrorKind::InvalidInput, source, "a digest is not SHA-256 hex: " + digest);
      }
      p.files.push_back(
          {f.at("path").get<std::string>(), digest, f.at("bytes").get<std::uintmax_t>()});
    }
  } catch (const json::exception& e) {
    throw Error(ErrorKind::InvalidInput, source, std::string("not a snapshot shard: ") + e.what());
  }
  return p;
}

std::vector<LogEntry> DatasetStore::log() const {
  std::vector<LogEntry> out;
  std::ifstream in(storeFolder() / "log.jsonl", std::ios::binary);
  std::string line;
  while (std::getline(in, line)) {
    const json j = json::parse(line, nullptr, false);
    if (!j.is_object() || !j.contains("id") || !j["id"].is_string()) {
      continue;  // a line cut short by a crash
    }
    out.push_back({j["id"].get<std::string>(), j.value("parent", std::string()),
                   j.value("time", std::string()), j.value("message", std::string())});
  }
  std::reverse(out.begin(), out.end());
  return out;
}

Snapshot DatasetStore::read(const std::string& idOrPrefix) const {
  const fs::path folder = storeFolder() / "snapshots";
  std::vector<std::string> matches;
  std::error_code ec;
  if (idOrPrefix.size() >= 4) {
    for (const auto& e : fs::directory_iterator(folder, ec)) {
      const std::string name = e.path().stem().string();
      if (e.path().extension() == ".json" && name.rfind(idOrPrefix, 0) == 0) {
        matches.push_back(name);
      }
    }
  }
  if (matches.size() != 1) {
    throw Error(ErrorKind::InvalidInput, dataset_.string(),
                matches.empty() ? "no snapshot " + idOrPrefix + " (delineate-cli dataset log)"
                                : "the id " + idOrPrefix + " is the start of " +
                                      std::to_string(matches.size()) + " snapshots");
  }
  const fs::path file = folder / (matches.front() + ".json");
  const json j = json::parse(readText(file), nullptr, false);
  if (!j.is_object() || !j.contains("files") || !j["files"].is_array()) {
    throw Error(ErrorKind::InvalidInput, file.string(), "not a snapshot manifest");
  }
  Snapshot s;
  s.id = matches.front();
  for (const json& f : j["files"]) {
    s.files.push_back({f.value("path", std::string()), f.value("sha256", std::string()),
                       f.value("bytes", std::uintmax_t(0))});
  }
  for (const json& p : j.value("provenance", json::array())) {
    s.provenance.push_back(LabelProvenance::fromJson(p));
  }
  if (snapshotId(s.files) != s.id) {
    throw Error(ErrorKind::InvalidInput, file.string(),
                "the manifest does not match its id: it was changed after it was written");
  }
  return s;
}

void DatasetStore::checkout(const std::string& idOrPrefix, const fs::path& out,
                            ProgressSink& progress) const {
  const Snapshot s = read(idOrPrefix);
  std::error_code ec;
  if (fs::exists(out, ec) && !fs::is_empty(out, ec)) {
    throw Error(ErrorKind::InvalidInput, out.string(),
                "the folder is not empty: check out into a new one");
  }
  for (std::size_t i = 0; i < s.files.size(); ++i) {
    const SnapshotFile& f = s.files[i];
    progress.report(double(i) / double(std::max<std::size_t>(s.files.size(), 1)), f.path);
    if (progress.cancelled()) {
      throw CancelledError();
    }
    const fs::path object = objectPath(f.sha256);
    const fs::path relative(f.path);
    if (f.path.empty() || relative.is_absolute() ||
        std::any_of(relative.begin(), relative.end(),
                    [](const fs::path& p) { return p == ".."; })) {
      throw Error(ErrorKind::InvalidInput, f.path, "a path outside the dataset in the manifest");
    }
    if (!fs::is_regular_file(object, ec)) {
      throw Error(ErrorKind::InvalidInput, object.string(),
                  "the stored copy of " + f.path + " is missing");
    }
    const fs::path target = out / fs::path(f.path);
    copyAtomically(object, target);
    fs::permissions(target, fs::perms::owner_write, fs::perm_options::add, ec);  // the user's
    if (upload::sha256OfFile(target) != f.sha256) {
      throw Error(ErrorKind::InvalidInput, object.string(),
                  "the stored copy of " + f.path + " is damaged (its SHA-256 differs)");
    }
  }
  progress.report(1, "checked out");
}

std::vector<std::pair<std::string, std::string>> snapshotEach(
    const std::vector<std::filesystem::path>& folders, const std::string& message,
    ProgressSink& progress) {
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t i = 0; i < folders.size(); ++i) {
    SubProgress part(progress, double(i) / double(folders.size()),
                     double(i + 1) / double(folders.size()));
    out.emplace_back(folders[i].string(), DatasetStore(folders[i]).snapshot(message, part).id);
  }
  return out;
}

}  // namespace delineate::core::dataset
