// `delineate-cli deid IN OUT`: de-identify a folder (or one file) of DICOM and NIfTI for upload.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "CliProgress.h"
#include "Commands.h"
#include "core/Error.h"
#include "core/deid/DeidBatch.h"
#include "core/deid/DeidOptions.h"
#include "core/deid/ReidentificationMap.h"

namespace delineate::cli {

namespace fs = std::filesystem;

namespace {

void deidUsage() {
  std::fprintf(stderr,
               "usage: delineate-cli deid IN OUT [--retain-dates] "
               "[--retain-patient-characteristics]\n"
               "                          [--retain-device] [--clean-descriptors] "
               "[--options FILE.json] [--map FILE]\n"
               "  De-identifies the DICOM and NIfTI files under IN into OUT (PS3.15 Basic\n"
               "  Application Level Confidentiality Profile). The re-identification map stays\n"
               "  on this workstation (default %s).\n",
               core::deid::ReidentificationMap::defaultPath().c_str());
}

core::deid::DeidOptions readOptionsFile(const fs::path& path) {
  std::ifstream in(path);
  if (!in) {
    throw core::Error(core::ErrorKind::Io, path.string(), "cannot read the options file");
  }
  nlohmann::json json;
  try {
    in >> json;
  } catch (const nlohmann::json::exception&) {
    throw core::Error(core::ErrorKind::InvalidInput, path.string(), "the options are not JSON");
  }
  return core::deid::deidOptionsFromJson(json, path.string());
}

}  // namespace

int runDeid(const Args& args) {
  std::vector<std::string> positional;
  core::deid::DeidOptions options;
  fs::path mapPath;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--retain-dates") {
      options.retainLongitudinalModifiedDates = true;
    } else if (a == "--retain-patient-characteristics") {
      options.retainPatientCharacteristics = true;
    } else if (a == "--retain-device") {
      options.retainDeviceIdentity = true;
    } else if (a == "--clean-descriptors") {
      options.cleanDescriptors = true;
    } else if (a == "--options" && i + 1 < args.size()) {
      const core::deid::DeidOptions fromFile = readOptionsFile(args[++i]);
      options.retainLongitudinalModifiedDates |= fromFile.retainLongitudinalModifiedDates;
      options.retainPatientCharacteristics |= fromFile.retainPatientCharacteristics;
      options.retainDeviceIdentity |= fromFile.retainDeviceIdentity;
      options.cleanDescriptors |= fromFile.cleanDescriptors;
    } else if (a == "--map" && i + 1 < args.size()) {
      mapPath = args[++i];
    } else if (a == "--help" || a == "-h") {
      deidUsage();
      return 0;
    } else if (!a.starts_with("--")) {
      positional.push_back(a);
    } else {
      std::fprintf(stderr, "deid: unexpected argument '%s'\n", a.c_str());
      deidUsage();
      return 2;
    }
  }
  if (positional.size() != 2) {
    deidUsage();
    return 2;
  }
  if (mapPath.empty()) {
    mapPath = core::deid::ReidentificationMap::defaultPath();
  }
  core::deid::ReidentificationMap map(mapPath);
  CliProgress progress;
  const core::deid::DeidSummary summary =
      core::deid::deidentifyBatch(positional[0], positional[1], options, map, progress);
  for (const auto& r : summary.results) {
    if (r.status == core::deid::DeidResult::Status::HeldBack ||
        r.status == core::deid::DeidResult::Status::Failed) {
      std::fprintf(stderr, "delineate-cli deid: %s: %s: %s\n", r.input.c_str(),
                   core::deid::toString(r.status), r.reason.c_str());
    }
  }
  nlohmann::json out = summary.toJson();
  out["options"] = core::deid::toJson(options);
  out["output"] = positional[1];
  out["map"] = map.path().string();
  std::printf("%s\n", out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
  return summary.anyFailed() ? 1 : 0;
}

}  // namespace delineate::cli
