#include "core/dataset/LabelProvenance.h"

#include <cctype>
#include <cmath>
#include <set>

#include "core/Error.h"
#include "core/dataset/DatasetStore.h"
#include "core/deid/DeidentificationRecord.h"
#include "core/metrics/AdjudicationRecord.h"
#include "core/metrics/CorrectionRecord.h"

namespace delineate::core::dataset {

using nlohmann::json;

json LabelProvenance::toJson() const {
  json dice = json::array();
  for (const auto& [segment, value] : segmentDice) {
    dice.push_back(
        {{"segment", segment}, {"dice", std::isfinite(value) ? json(value) : json(nullptr)}});
  }
  json out = {{"label_file", labelFile},
              {"record_file", recordFile},
              {"reader", reader},
              {"backend", backend},
              {"model", model},
              {"model_version", modelVersion},
              {"accepted_at", acceptedAt},
              {"saved_at", savedAt},
              {"clicks", clicks},
              {"strokes", strokes},
              {"tools", tools},
              {"active_editing_s", activeEditingSeconds},
              {"proposal_dice", std::move(dice)}};
  if (!adjudicationFile.empty()) {
    out["adjudication"] = {{"file", adjudicationFile},    {"reviewer", reviewer},
                           {"signed_at", signedAt},       {"readers", readers},
                           {"reader_tools", readerTools}, {"region_sources", regionSources}};
  }
  if (!deidentificationFile.empty()) {
    out["deidentification"] = {{"file", deidentificationFile}, {"method", deidentification}};
  }
  if (!problem.empty()) {
    out["problem"] = problem;
  }
  return out;
}

LabelProvenance LabelProvenance::fromJson(const json& j) {
  LabelProvenance p;
  if (!j.is_object()) {
    return p;
  }
  p.labelFile = j.value("label_file", "");
  p.recordFile = j.value("record_file", "");
  p.reader = j.value("reader", "");
  p.backend = j.value("backend", "");
  p.model = j.value("model", "");
  p.modelVersion = j.value("model_version", "");
  p.acceptedAt = j.value("accepted_at", "");
  p.savedAt = j.value("saved_at", "");
  p.clicks = j.value("clicks", 0);
  p.strokes = j.value("strokes", 0);
  p.activeEditingSeconds = j.value("active_editing_s", 0.0);
  p.problem = j.value("problem", "");
  if (const auto d = j.find("deidentification"); d != j.end() && d->is_object()) {
    p.deidentificationFile = d->value("file", "");
    p.deidentification = d->value("method", "");
  }
  if (j.contains("tools") && j["tools"].is_object()) {
    for (const auto& [tool, uses] : j["tools"].items()) {
      if (uses.is_number_integer()) {
        p.tools[tool] = uses.get<int>();
      }
    }
  }
  if (const auto a = j.find("adjudication"); a != j.end() && a->is_object()) {
    p.adjudicationFile = a->value("file", "");
    p.reviewer = a->value("reviewer", "");
    p.signedAt = a->value("signed_at", "");
    for (const json& r : a->value("readers", json::array())) {
      if (r.is_string()) {
        p.readers.push_back(r.get<std::string>());
      }
    }
    for (const json& t : a->value("reader_tools", json::array())) {
      if (t.is_string()) {
        p.readerTools.push_back(t.get<std::string>());
      }
    }
    const json sources = a->value("region_sources", json::object());
    for (const auto& [source, n] : sources.items()) {
      if (n.is_number_integer()) {
        p.regionSources[source] = n.get<int>();
      }
    }
  }
  for (const json& d : j.value("proposal_dice", json::array())) {
    if (d.is_object()) {
      const json v = d.value("dice", json());
      p.segmentDice.emplace_back(d.value("segment", ""), v.is_number() ? v.get<double>() : NAN);
    }
  }
  return p;
}

namespace {

// The nearest deidentification.json at or above `labelFile`'s folder, read into `p`.
void describeDeidentification(const std::string& labelFile,
                              const std::map<std::string, const SnapshotFile*>& byPath,
                              const std::function<std::string(const SnapshotFile&)>& text,
                              LabelProvenance& p) {
  std::filesystem::path folder = std::filesystem::path(labelFile).parent_path();
  for (;;) {
    const std::string candidate = (folder / "deidentification.json").generic_string();
    if (const auto found = byPath.find(candidate); found != byPath.end()) {
      p.deidentificationFile = candidate;
      try {
        p.deidentification = deid::deidentificationRecordFromJson(text(*found->second), candidate);
      } catch (const Error& e) {
        p.problem += (p.problem.empty() ? "" : "; ") + std::string(e.what());
      }
      return;
    }
    if (folder.empty()) {
      return;
    }
    folder = folder.parent_path();
  }
}

}  // namespace

std::vector<LabelProvenance> provenanceOf(
    const std::vector<SnapshotFile>& files,
    const std::function<std::string(const SnapshotFile&)>& text) {
  std::map<std::string, const SnapshotFile*> byPath;
  for (const SnapshotFile& f : files) {
    byPath[f.path] = &f;
  }
  std::vector<LabelProvenance> out;
  // Label map files (a segment table's .json beside one is not).
  const auto isLabelMap = [](std::string name) {
    for (char& c : name) {
      c = char(std::tolower(static_cast<unsigned char>(c)));
    }
    for (const char* ext : {".nii.gz", ".nii", ".nrrd", ".nhdr", ".mha", ".mhd", ".dcm"}) {
      if (name.ends_with(ext)) {
        return true;
      }
    }
    return false;
  };
  for (const SnapshotFile& f : files) {
    if (!isLabelMap(f.path)) {
      continue;
    }
    const std::string record = correctionRecordPath(f.path).generic_string();
    const std::string adjudication = adjudicationRecordPath(f.path).generic_string();
    const auto found = byPath.find(record);
    const auto signedBy = byPath.find(adjudication);
    if (found == byPath.end() && signedBy == byPath.end()) {
      continue;
    }
    LabelProvenance p;
    p.labelFile = f.path;
    if (found != byPath.end()) {
      p.recordFile = record;
      try {
        const CorrectionRecord r = correctionRecordFromJson(text(*found->second), record);
        p.reader = r.reader;
        p.backend = r.backend;
        p.model = r.model;
        p.modelVersion = r.modelVersion;
        p.acceptedAt = r.acceptedAt;
        p.savedAt = r.savedAt;
        p.clicks = r.clicks;
        p.strokes = r.strokes;
        p.tools = r.tools;
        p.activeEditingSeconds = r.activeEditingSeconds;
        for (const CorrectionLabel& l : r.labels) {
          p.segmentDice.emplace_back(l.segment, l.dice);
        }
      } catch (const Error& e) {
        p.problem = e.what();
      }
    }
    if (signedBy != byPath.end()) {
      p.adjudicationFile = adjudication;
      try {
        const AdjudicationRecord a =
            adjudicationRecordFromJson(text(*signedBy->second), adjudication);
        p.reviewer = a.reviewer;
        p.signedAt = a.signedAt;
        p.readers = a.readers;
        p.readerTools = a.readerTools;
        for (const AdjudicatedRegion& r : a.regions) {
          ++p.regionSources[r.source];
        }
      } catch (const Error& e) {
        p.problem += (p.problem.empty() ? "" : "; ") + std::string(e.what());
      }
    }
    describeDeidentification(f.path, byPath, text, p);
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace delineate::core::dataset
