#include "annotation/ai/ServerLabelSchema.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "core/Error.h"

namespace delineate::annotation {

namespace {

using core::ai::ModelLabel;

// Names compare without case and surrounding spaces: "Spleen " is the server's "spleen".
std::string key(const std::string& name) {
  const auto first = name.find_first_not_of(" \t");
  const auto last = name.find_last_not_of(" \t");
  std::string k = first == std::string::npos ? std::string() : name.substr(first, last - first + 1);
  std::transform(k.begin(), k.end(), k.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return k;
}

// Adds the labels whose name and value are both new: the schema maps names to values and back.
void addLabels(const std::vector<ModelLabel>& labels, std::vector<ModelLabel>& schema) {
  for (const ModelLabel& l : labels) {
    if (l.background || l.value <= 0 || l.value > 65535) {
      continue;
    }
    const bool taken = std::any_of(schema.begin(), schema.end(), [&](const ModelLabel& s) {
      return key(s.name) == key(l.name) || s.value == l.value;
    });
    if (!taken) {
      schema.push_back(l);
    }
  }
}

}  // namespace

std::vector<ModelLabel> serverLabelSchema(const core::ai::ServerInfo& info,
                                          const std::string& trainer) {
  std::vector<ModelLabel> schema;
  const std::string chosen =
      trainer.empty() && !info.trainers.empty() ? info.trainers.front().name : trainer;
  for (const core::ai::TrainerInfo& t : info.trainers) {
    if (t.name == chosen) {
      addLabels(t.labels, schema);
    }
  }
  if (schema.empty()) {
    // MONAI Label apps name a trainer after the model it trains.
    if (const core::ai::ModelInfo* model = info.findModel(chosen)) {
      addLabels(model->labels, schema);
    }
  }
  if (schema.empty()) {
    addLabels(info.labels, schema);
  }
  if (schema.empty()) {
    // Detectors and classifiers label boxes or images, not voxels: not a schema for a label map.
    for (const core::ai::ModelInfo& m : info.models) {
      if (core::ai::modelGroup(m.type) != core::ai::ModelGroup::Others) {
        addLabels(m.labels, schema);
      }
    }
  }
  std::stable_sort(schema.begin(), schema.end(),
                   [](const ModelLabel& a, const ModelLabel& b) { return a.value < b.value; });
  return schema;
}

std::string schemaNames(const std::vector<ModelLabel>& schema) {
  std::string names;
  for (const ModelLabel& l : schema) {
    names += (names.empty() ? "" : ", ") + l.name;
  }
  return names;
}

std::shared_ptr<core::LabelMap> labelsForServer(const core::LabelMap& map,
                                                const std::vector<ModelLabel>& schema,
                                                const std::string& server,
                                                core::ProgressSink& progress) {
  if (schema.empty()) {
    throw core::Error(core::ErrorKind::InvalidInput, server,
                      "the server names no labels to train on (no labels in its /info/), so "
                      "the segments of '" +
                          map.name() + "' cannot be matched to its values");
  }
  // Voxels per value of the map, to tell the segments that hold something.
  std::vector<std::size_t> counts(65536, 0);
  const std::uint16_t* src = map.data();
  const std::size_t n = map.voxelCount();
  constexpr std::size_t kChunk = std::size_t(1) << 20;
  for (std::size_t start = 0; start < n; start += kChunk) {
    progress.throwIfCancelled();
    const std::size_t end = std::min(n, start + kChunk);
    for (std::size_t i = start; i < end; ++i) {
      ++counts[src[i]];
    }
    progress.report(0.5 * double(end) / double(n), "matching labels");
  }

  std::vector<std::uint16_t> toServer(65536, 0);
  std::vector<core::Segment> table;
  std::vector<std::string> unknown;
  for (const core::Segment& s : map.segments()) {
    if (s.label == 0 || counts[s.label] == 0) {
      continue;  // nothing painted: nothing to train on
    }
    const auto match = std::find_if(schema.begin(), schema.end(), [&](const ModelLabel& l) {
      return key(l.name) == key(s.name);
    });
    if (match == schema.end()) {
      unknown.push_back(s.name);
      continue;
    }
    const auto value = static_cast<std::uint16_t>(match->value);
    toServer[s.label] = value;
    const bool listed = std::any_of(table.begin(), table.end(),
                                    [&](const core::Segment& t) { return t.label == value; });
    if (!listed) {
      core::Segment out = s;
      out.label = value;
      out.name = match->name;
      table.push_back(out);
    }
  }
  if (!unknown.empty()) {
    std::string names;
    for (const std::string& u : unknown) {
      names += (names.empty() ? "'" : ", '") + u + "'";
    }
    throw core::Error(core::ErrorKind::InvalidInput, server,
                      (unknown.size() == 1 ? "segment " : "segments ") + names + " of '" +
                          map.name() + "' " + (unknown.size() == 1 ? "is" : "are") +
                          " not a label of this server; it knows: " + schemaNames(schema) +
                          ". Rename the segment to one of these names (nothing was sent)");
  }
  if (table.empty()) {
    throw core::Error(core::ErrorKind::InvalidInput, server,
                      "'" + map.name() + "' has no labelled voxels to submit");
  }
  std::sort(table.begin(), table.end(),
            [](const core::Segment& a, const core::Segment& b) { return a.label < b.label; });

  auto out = std::make_shared<core::LabelMap>(map.name(), map.geometry(), table);
  std::uint16_t* dst = out->mutableData();
  for (std::size_t start = 0; start < n; start += kChunk) {
    progress.throwIfCancelled();
    const std::size_t end = std::min(n, start + kChunk);
    for (std::size_t i = start; i < end; ++i) {
      dst[i] = toServer[src[i]];
    }
    progress.report(0.5 + 0.5 * double(end) / double(n), "matching labels");
  }
  return out;
}

}  // namespace delineate::annotation
