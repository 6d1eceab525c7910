// delineate-cli hang: which mammogram of a folder goes into which viewport of a hanging protocol
// (core/mammo), as JSON — what the reading view shows, for scripts and for checking a site's
// protocol file.
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "CliProgress.h"
#include "Commands.h"
#include "core/Error.h"
#include "core/io/DicomHeader.h"
#include "core/io/DicomScanner.h"
#include "core/mammo/HangingAssignment.h"
#include "core/mammo/HangingProtocol.h"
#include "core/mammo/MammoViewDicom.h"

namespace delineate::cli {

namespace {

constexpr const char* kHangUsage =
    "usage: delineate-cli hang [--layout ID] [--protocols FILE.json] [--study UID] DIR...\n"
    "  reads the mammograms (DX/MG DICOM) under the folders and prints, as JSON, the image each\n"
    "  viewport of the hanging protocol shows (default mammo-4up), the current and prior study,\n"
    "  and what is missing or doubtful. --protocols adds a site's protocols (errors name the\n"
    "  file and line); --layout list prints the protocols and the reading sequence.\n";

const char* wallName(core::mammo::ChestWall w) {
  return w == core::mammo::ChestWall::Left ? "left" : "right";
}

}  // namespace

int runHang(const Args& args) {
  std::string layout = "mammo-4up", protocols, study;
  std::vector<std::filesystem::path> folders;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const bool value = i + 1 < args.size();
    if (args[i] == "--layout" && value) {
      layout = args[++i];
    } else if (args[i] == "--protocols" && value) {
      protocols = args[++i];
    } else if (args[i] == "--study" && value) {
      study = args[++i];
    } else if (!args[i].empty() && args[i][0] != '-') {
      folders.emplace_back(args[i]);
    } else {
      std::fprintf(stderr, "delineate-cli hang: bad argument '%s'\n%s", args[i].c_str(),
                   kHangUsage);
      return 2;
    }
  }
  core::mammo::HangingProtocolSet set = core::mammo::builtinHangingProtocols();
  if (!protocols.empty()) {
    set.merge(core::mammo::readHangingProtocols(protocols));
  }
  if (layout == "list") {
    nlohmann::json out = {{"protocols", nlohmann::json::array()}, {"sequence", set.sequence}};
    for (const auto& p : set.protocols) {
      out["protocols"].push_back(
          {{"id", p.id}, {"name", p.name}, {"rows", p.rows}, {"columns", p.columns}});
    }
    std::printf("%s\n", out.dump(2).c_str());
    return 0;
  }
  const core::mammo::HangingProtocol* protocol = set.find(layout);
  if (protocol == nullptr) {
    std::fprintf(stderr,
                 "delineate-cli hang: no hanging protocol '%s' (--layout list names them)\n",
                 layout.c_str());
    return 2;
  }
  if (folders.empty()) {
    std::fputs(kHangUsage, stderr);
    return 2;
  }
  CliProgress progress;
  std::vector<core::mammo::MammoView> views;
  for (const auto& folder : folders) {
    const core::DicomScanResult scan = core::scanDicomFolder(folder, progress);
    for (const core::DicomSeries* series : scan.allSeries()) {
      for (const std::string& file : series->files) {
        const core::DicomFileHeader header = core::readDicomHeader(file);
        if (header.modality == "MG" || header.modality == "DX") {
          views.push_back(core::mammo::mammoViewOf(header, file));
        }
      }
    }
  }
  const core::mammo::Hanging h = core::mammo::hang(*protocol, views, study, set.priorRule());
  nlohmann::json out = {{"protocol", protocol->id},
                        {"rows", protocol->rows},
                        {"columns", protocol->columns},
                        {"current_study", h.currentStudy},
                        {"prior_study", h.priorStudy},
                        {"viewports", nlohmann::json::array()},
                        {"notes", h.notes}};
  for (std::size_t i = 0; i < h.viewports.size(); ++i) {
    const core::mammo::ViewportSpec& spec = protocol->viewports[i];
    const core::mammo::HungViewport& v = h.viewports[i];
    nlohmann::json j = {
        {"row", int(i) / protocol->columns},
        {"column", int(i) % protocol->columns},
        {"wants", std::string(toString(spec.laterality)) + " " + toString(spec.view) +
                      (spec.study == core::mammo::StudyChoice::Prior ? " prior" : "")},
        {"chest_wall", wallName(v.chestWall)},
        {"file", v.image ? nlohmann::json(views[*v.image].id) : nlohmann::json()}};
    if (v.image && !v.asked) {
      j["placed_because_free"] = true;
    }
    out["viewports"].push_back(j);
  }
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}

}  // namespace delineate::cli
