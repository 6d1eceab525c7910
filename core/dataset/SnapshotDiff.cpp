#include "core/dataset/SnapshotDiff.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "core/Error.h"
#include "core/io/LabelMapFileIO.h"

namespace delineate::core::dataset {

namespace fs = std::filesystem;

namespace {

bool endsWith(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// A stored version of `path` under its own name (readers pick the format by extension), with
// its segment table when the snapshot has one.
LabelMap readVersion(const DatasetStore& store, const Snapshot& snapshot, const std::string& path,
                     const fs::path& scratch) {
  const SnapshotFile& f = *snapshot.find(path);
  const fs::path copy =
      scratch / (f.sha256.substr(0, 16) + "-" + fs::path(path).filename().string());
  std::error_code ec;
  fs::create_directories(scratch, ec);
  const auto place = [&](const SnapshotFile& file, const fs::path& to) {
    fs::copy_file(store.objectPath(file.sha256), to, fs::copy_options::overwrite_existing, ec);
    if (ec) {
      throw Error(ErrorKind::Io, store.objectPath(file.sha256).string(),
                  "cannot read the stored copy of " + file.path);
    }
  };
  place(f, copy);
  const SnapshotFile* table = snapshot.find(segmentTablePathFor(fs::path(path)).generic_string());
  if (table != nullptr) {
    place(*table, segmentTablePathFor(copy));
  }
  LabelMap m = readLabelMapFiles(copy);
  fs::remove(copy, ec);
  fs::remove(segmentTablePathFor(copy), ec);
  return m;
}

std::vector<LabelChange> labelDice(const LabelMap& a, const LabelMap& b) {
  std::map<std::uint16_t, std::array<std::size_t, 3>> counts;  // in a, in b, in both
  for (std::size_t v = 0; v < a.voxelCount(); ++v) {
    const std::uint16_t x = a.data()[v], y = b.data()[v];
    if (x != 0) {
      ++counts[x][0];
    }
    if (y != 0) {
      ++counts[y][1];
    }
    if (x != 0 && x == y) {
      ++counts[x][2];
    }
  }
  std::vector<LabelChange> out;
  for (const auto& [label, c] : counts) {
    const Segment* s = b.segment(label) != nullptr ? b.segment(label) : a.segment(label);
    out.push_back({label, s != nullptr ? s->name : std::string(),
                   c[0] + c[1] > 0 ? 2.0 * double(c[2]) / double(c[0] + c[1]) : 1.0});
  }
  return out;
}

}  // namespace

bool looksLikeLabelMap(const std::string& path) {
  std::string lower = path;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  if (!endsWith(lower, ".nii.gz") && !endsWith(lower, ".nii") && !endsWith(lower, ".nrrd") &&
      !endsWith(lower, ".mha")) {
    return false;
  }
  for (const char* word : {"label", "seg", "mask", "truth"}) {
    if (lower.find(word) != std::string::npos) {
      return true;
    }
  }
  // "gt" as a word part: "gt/", "_gt.", "-gt_".
  for (std::size_t at = lower.find("gt"); at != std::string::npos; at = lower.find("gt", at + 1)) {
    const bool before = at == 0 || !std::isalpha(static_cast<unsigned char>(lower[at - 1]));
    const bool after =
        at + 2 >= lower.size() || !std::isalpha(static_cast<unsigned char>(lower[at + 2]));
    if (before && after) {
      return true;
    }
  }
  return false;
}

SnapshotDiff diffSnapshots(const DatasetStore& store, const std::string& from,
                           const std::string& to, ProgressSink& progress) {
  const Snapshot a = store.read(from), b = store.read(to);
  SnapshotDiff d;
  d.from = a.id;
  d.to = b.id;
  for (const SnapshotFile& f : b.files) {
    const SnapshotFile* old = a.find(f.path);
    if (old == nullptr) {
      d.added.push_back(f.path);
    } else if (old->sha256 != f.sha256) {
      d.changed.push_back({f.path, {}, {}});
    }
  }
  for (const SnapshotFile& f : a.files) {
    if (b.find(f.path) == nullptr) {
      d.removed.push_back(f.path);
    }
  }
  const fs::path scratch = store.storeFolder() / "tmp";
  for (std::size_t i = 0; i < d.changed.size(); ++i) {
    ChangedFile& c = d.changed[i];
    progress.report(double(i) / double(d.changed.size()), c.path);
    if (progress.cancelled()) {
      throw CancelledError();
    }
    if (!looksLikeLabelMap(c.path)) {
      continue;
    }
    try {
      const LabelMap before = readVersion(store, a, c.path, scratch);
      const LabelMap after = readVersion(store, b, c.path, scratch);
      const std::string difference = before.geometry().differenceFrom(after.geometry());
      if (!difference.empty()) {
        c.note = "on another grid: " + difference;
        continue;
      }
      c.labels = labelDice(before, after);
    } catch (const Error& e) {
      c.note = "not read as a label map: " + e.detail();
    }
  }
  std::error_code ec;
  fs::remove_all(scratch, ec);
  return d;
}

nlohmann::json SnapshotDiff::toJson() const {
  nlohmann::json changes = nlohmann::json::array();
  for (const ChangedFile& c : changed) {
    nlohmann::json labels = nlohmann::json::array();
    for (const LabelChange& l : c.labels) {
      labels.push_back({{"label", l.label}, {"name", l.name}, {"dice", l.dice}});
    }
    nlohmann::json j = {{"path", c.path}, {"labels", labels}};
    if (!c.note.empty()) {
      j["note"] = c.note;
    }
    changes.push_back(j);
  }
  return {{"from", from}, {"to", to}, {"added", added}, {"removed", removed}, {"changed", changes}};
}

}  // namespace delineate::core::dataset
