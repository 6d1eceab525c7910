#include "core/metrics/DatasetConsensus.h"

#include <map>
#include <set>

#include "core/Error.h"
#include "core/io/LabelMapFileIO.h"
#include "core/jobs/Shard.h"
#include "core/metrics/DatasetPairing.h"

namespace delineate::core {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

namespace {

constexpr const char* kConsensusReportFormat = "delineate-dataset-consensus";

// Case name -> the file of each reader (empty where the reader has none).
std::map<std::string, std::vector<fs::path>> casesOf(const std::vector<fs::path>& folders) {
  std::map<std::string, std::vector<fs::path>> cases;
  for (std::size_t r = 0; r < folders.size(); ++r) {
    std::error_code ec;
    fs::directory_iterator it(folders[r], ec);
    if (ec || !fs::is_directory(folders[r])) {
      throw Error(
          ErrorKind::Io, folders[r].string(),
          "cannot list the reader's folder: " + (ec ? ec.message() : std::string("not a folder")));
    }
    for (const fs::directory_entry& entry : it) {
      const std::string name = entry.is_regular_file(ec) ? caseNameOf(entry.path()) : "";
      if (name.empty()) {
        continue;
      }
      auto& files = cases[name];
      files.resize(folders.size());
      files[r] = entry.path();
    }
  }
  return cases;
}

// Per reader and label over the cases that have them: how many, mean sensitivity, mean
// specificity. Computed from the report's own numbers, so that a merged report gets the same.
Json summaryOf(const Json& cases, const Json& names) {
  const std::size_t readers = names.size();
  struct Sum {
    std::size_t n = 0;
    double sensitivity = 0, specificity = 0;
  };
  std::vector<std::map<int, Sum>> sums(readers);
  for (const Json& c : cases) {
    if (!c.contains("readers")) {
      continue;
    }
    const Json& perReader = c.at("readers");
    for (std::size_t r = 0; r < readers && r < perReader.size(); ++r) {
      for (const Json& l : perReader.at(r).at("labels")) {
        Sum& s = sums[r][l.at("label").get<int>()];
        ++s.n;
        s.sensitivity += l.at("sensitivity").get<double>();
        s.specificity += l.at("specificity").get<double>();
      }
    }
  }
  Json out = Json::array();
  for (std::size_t r = 0; r < readers; ++r) {
    Json labels = Json::array();
    for (const auto& [label, s] : sums[r]) {
      labels.push_back({{"label", label},
                        {"cases", s.n},
                        {"mean_sensitivity", s.sensitivity / double(s.n)},
                        {"mean_specificity", s.specificity / double(s.n)}});
    }
    out.push_back({{"reader", names[r]}, {"labels", labels}});
  }
  return out;
}

Json report(const Json& head, Json cases) {
  Json out = head;
  out["cases"] = cases;
  out["summary"] = summaryOf(out["cases"], head.at("readers"));
  return out;
}

Json mergeParts(const std::vector<Json>& parts, const std::vector<std::string>& sources) {
  const auto source = [&](std::size_t i) {
    return i < sources.size() ? sources[i] : std::string("part");
  };
  std::vector<Shard> shards;
  std::map<std::string, Json> cases;
  Json head;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    const Json& p = parts[i];
    if (!p.is_object() || p.value("format", "") != kConsensusReportFormat || !p.contains("cases") ||
        !p["cases"].is_array() || !p.contains("readers") || !p["readers"].is_array()) {
      throw Error(ErrorKind::InvalidInput, source(i), "not a dataset consensus report");
    }
    Json h = {{"format", kConsensusReportFormat},
              {"method", p.value("method", "")},
              {"margin", p.value("margin", 0)},
              {"readers", p["readers"]}};
    if (i == 0) {
      head = h;
    } else if (h != head) {
      throw Error(ErrorKind::InvalidInput, source(i),
                  "a consensus of another method, margin or readers than " + source(0));
    }
    Shard s;
    if (const auto sh = p.find("shard"); sh != p.end() && sh->is_object()) {
      const std::size_t k = sh->value("index", std::size_t(0));
      s.count = sh->value("count", std::size_t(1));
      s.index = k >= 1 ? k - 1 : s.count;  // 0 does not fit any split
    }
    shards.push_back(s);
    for (const Json& c : p["cases"]) {
      const std::string name = c.is_object() ? c.value("case", "") : "";
      if (name.empty() || !cases.emplace(name, c).second) {
        throw Error(ErrorKind::InvalidInput, source(i),
                    name.empty() ? "a case without a name" : "case " + name + " is in two shards");
      }
    }
  }
  if (const std::string problem = shardSetProblem(shards); !problem.empty()) {
    throw Error(ErrorKind::InvalidInput, "merge", problem);
  }
  Json list = Json::array();
  for (auto& [name, c] : cases) {
    list.push_back(std::move(c));
  }
  return report(head, std::move(list));
}

}  // namespace

Json datasetConsensus(const std::vector<fs::path>& readerFolders,
                      const DatasetConsensusOptions& options, ProgressSink& progress) {
  if (readerFolders.size() < 2) {
    throw Error(ErrorKind::InvalidInput, "consensus", "it needs at least two readers' folders");
  }
  const auto cases = casesOf(readerFolders);
  std::error_code ec;
  fs::create_directories(options.out, ec);
  if (ec) {
    throw Error(ErrorKind::Io, options.out.string(), "cannot create the folder: " + ec.message());
  }
  std::vector<std::string> names;
  Json readers = Json::array();
  for (const fs::path& f : readerFolders) {
    names.push_back(f.string());
    readers.push_back(f.string());
  }
  Json head = {{"format", kConsensusReportFormat},
               {"method", toString(options.consensus.method)},
               {"margin", options.consensus.margin},
               {"readers", readers}};
  if (options.shardCount > 1) {
    head["shard"] = {{"index", options.shardIndex + 1}, {"count", options.shardCount}};
  }
  Json list = Json::array();
  std::size_t position = 0, done = 0;
  const std::size_t mine =
      (cases.size() + options.shardCount - 1 - options.shardIndex) / options.shardCount;
  for (const auto& [name, files] : cases) {
    if (position++ % options.shardCount != options.shardIndex) {
      continue;
    }
    progress.throwIfCancelled();
    SubProgress one(progress, double(done) / double(mine), double(done + 1) / double(mine));
    ++done;
    Json c = {{"case", name}};
    std::string missing;
    for (std::size_t r = 0; r < files.size(); ++r) {
      if (files[r].empty()) {
        missing += (missing.empty() ? "" : ", ") + names[r];
      }
    }
    if (!missing.empty()) {
      c["problem"] = "no label map in " + missing;
      list.push_back(std::move(c));
      continue;
    }
    try {
      std::vector<LabelMap> maps;
      std::vector<const LabelMap*> pointers;
      for (const fs::path& f : files) {
        maps.push_back(readLabelMapFiles(f));
      }
      for (const LabelMap& m : maps) {
        pointers.push_back(&m);
      }
      const ConsensusResult result = computeConsensus(pointers, options.consensus, one);
      const fs::path file = options.out / (name + ".nii.gz");
      writeLabelMapFiles(*result.consensus, file);
      const nlohmann::json stats = result.toJson(names, options.consensus.method);
      c["file"] = file.filename().string();
      c["labels"] = Json::parse(stats["labels"].dump());
      Json perReader = Json::array();
      for (const auto& r : stats["readers"]) {
        perReader.push_back({{"labels", Json::parse(r["labels"].dump())}});
      }
      c["readers"] = perReader;
    } catch (const CancelledError&) {
      throw;
    } catch (const Error& e) {
      if (e.kind() == ErrorKind::Io && std::string(e.what()).find(options.out.string()) == 0) {
        throw;  // the output cannot be written: every later case would fail the same way
      }
      c["problem"] = e.what();
    }
    list.push_back(std::move(c));
  }
  progress.report(1.0, "Consensus");
  return report(head, std::move(list));
}

Json mergeDatasetConsensus(const std::vector<Json>& parts,
                           const std::vector<std::string>& sources) {
  try {
    return mergeParts(parts, sources);
  } catch (const nlohmann::json::exception& e) {
    throw Error(ErrorKind::InvalidInput, "merge",
                std::string("a shard's report has a field of the wrong type: ") + e.what());
  }
}

}  // namespace delineate::core
