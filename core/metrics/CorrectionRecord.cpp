#include "core/metrics/CorrectionRecord.h"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <fstream>
#include <sstream>

#include "core/Error.h"
#include "core/io/AtomicFile.h"

namespace delineate::core {

std::string utcTimestamp(std::chrono::system_clock::time_point time) {
  const std::time_t t = std::chrono::system_clock::to_time_t(time);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string correctionSummary(const CorrectionRecord& record) {
  std::string out;
  const auto add = [&out](const std::string& part) { out += (out.empty() ? "" : "; ") + part; };
  if (!record.reader.empty()) {
    add("reader " + record.reader);
  }
  if (!record.backend.empty()) {
    add("AI: " + record.backend + (record.model.empty() ? "" : ", model " + record.model) +
        (record.modelVersion.empty() ? "" : " version " + record.modelVersion));
  }
  if (record.clicks > 0) {
    add(std::to_string(record.clicks) + (record.clicks == 1 ? " click" : " clicks"));
  }
  std::string tools;
  for (const auto& [tool, uses] : record.tools) {
    tools += (tools.empty() ? "" : ", ") + tool + " " + std::to_string(uses);
  }
  if (!tools.empty()) {
    add("tools: " + tools);
  }
  return out;
}

std::filesystem::path correctionRecordPath(const std::filesystem::path& labelMapPath) {
  return labelMapSidecarPath(labelMapPath, ".correction.json");
}

std::filesystem::path labelMapSidecarPath(const std::filesystem::path& labelMapPath,
                                          const std::string& suffix) {
  const std::string name = labelMapPath.filename().string();
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  std::string stem = labelMapPath.stem().string();
  for (const std::string ext :
       {".seg.nrrd", ".nii.gz", ".nii", ".nrrd", ".nhdr", ".mha", ".mhd", ".dcm"}) {
    if (lower.size() > ext.size() && lower.ends_with(ext)) {
      stem = name.substr(0, name.size() - ext.size());
      break;
    }
  }
  return labelMapPath.parent_path() / (stem + suffix);
}

void writeCorrectionRecord(const CorrectionRecord& record, const std::filesystem::path& path) {
  writeTextAtomically(path, correctionRecordJson(record), "the correction record");
}

CorrectionRecord readCorrectionRecord(const std::filesystem::path& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    throw Error(ErrorKind::Io, path.string(), "cannot open the correction record");
  }
  std::ostringstream text;
  text << f.rdbuf();
  if (f.bad()) {
    throw Error(ErrorKind::Io, path.string(), "cannot read the correction record");
  }
  return correctionRecordFromJson(text.str(), path.string());
}

}  // namespace delineate::core
