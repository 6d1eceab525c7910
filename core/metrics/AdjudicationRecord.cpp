#include "core/metrics/AdjudicationRecord.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/Error.h"
#include "core/io/AtomicFile.h"
#include "core/metrics/CorrectionRecord.h"

namespace delineate::core {

namespace {

constexpr int kFormat = 1;

}  // namespace

std::filesystem::path adjudicationRecordPath(const std::filesystem::path& labelMapPath) {
  return labelMapSidecarPath(labelMapPath, ".adjudication.json");
}

std::string adjudicationRecordJson(const AdjudicationRecord& record) {
  nlohmann::json regions = nlohmann::json::array();
  for (const AdjudicatedRegion& r : record.regions) {
    regions.push_back({{"voxels", r.voxels},
                       {"centre", r.centre},
                       {"source", r.source},
                       {"agreement", r.agreement}});
  }
  const nlohmann::json j = {{"format", "delineate-adjudication"},
                            {"version", kFormat},
                            {"structure", record.structure},
                            {"label_map", record.labelMap},
                            {"readers", record.readers},
                            {"reader_tools", record.readerTools},
                            {"reviewer", record.reviewer},
                            {"signed_at", record.signedAt},
                            {"regions", regions}};
  return j.dump(2) + "\n";
}

AdjudicationRecord adjudicationRecordFromJson(const std::string& text, const std::string& source) {
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    if (!j.is_object() || j.value("format", "") != "delineate-adjudication") {
      throw Error(ErrorKind::InvalidInput, source, "not an adjudication record");
    }
    if (j.at("version").get<int>() > kFormat) {
      throw Error(ErrorKind::Unsupported, source,
                  "an adjudication record of a newer format (version " +
                      std::to_string(j.at("version").get<int>()) + ")");
    }
    AdjudicationRecord r;
    r.structure = j.at("structure").get<std::string>();
    r.labelMap = j.at("label_map").get<std::string>();
    r.readers = j.at("readers").get<std::vector<std::string>>();
    if (j.contains("reader_tools")) {
      r.readerTools = j.at("reader_tools").get<std::vector<std::string>>();
    }
    r.reviewer = j.at("reviewer").get<std::string>();
    r.signedAt = j.at("signed_at").get<std::string>();
    for (const nlohmann::json& e : j.at("regions")) {
      AdjudicatedRegion region;
      region.voxels = e.at("voxels").get<std::size_t>();
      region.centre = e.at("centre").get<std::array<std::size_t, 3>>();
      region.source = e.at("source").get<std::string>();
      region.agreement = e.at("agreement").get<std::vector<double>>();
      r.regions.push_back(std::move(region));
    }
    return r;
  } catch (const nlohmann::json::exception& e) {
    throw Error(ErrorKind::InvalidInput, source,
                std::string("not a readable adjudication record: ") + e.what());
  }
}

void writeAdjudicationRecord(const AdjudicationRecord& record, const std::filesystem::path& path) {
  writeTextAtomically(path, adjudicationRecordJson(record), "the adjudication record");
}

AdjudicationRecord readAdjudicationRecord(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream text;
  if (!f || !(text << f.rdbuf())) {
    throw Error(ErrorKind::Io, path.string(), "cannot read the adjudication record");
  }
  return adjudicationRecordFromJson(text.str(), path.string());
}

}  // namespace delineate::core
