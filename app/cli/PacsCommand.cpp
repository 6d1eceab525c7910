// delineate-cli pacs: query a PACS, retrieve from it and send to it, over DIMSE (C-FIND, C-GET,
// C-STORE) or DICOMweb (QIDO-RS, WADO-RS, STOW-RS), with JSON on stdout for scripts
// (docs/pacs.md).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "CliPassword.h"
#include "CliProgress.h"
#include "Commands.h"
#include "core/Error.h"
#include "core/dicomweb/PacsService.h"

namespace delineate::cli {

namespace {

namespace fs = std::filesystem;
namespace pacs = core::pacs;
using nlohmann::json;

constexpr const char* kPacsUsage =
    "usage: delineate-cli pacs find NODE [--patient NAME] [--patient-id ID]\n"
    "                               [--accession A] [--modality M] [--date YYYYMMDD[-YYYYMMDD]]\n"
    "                               [--description D] [--study UID] [--limit N] [--json]\n"
    "       delineate-cli pacs get NODE --study UID [--series UID] --out DIR\n"
    "       delineate-cli pacs send NODE FILE|DIR ...\n"
    "  NODE: --dimse AET@HOST:PORT [--calling-aet AET] (default DELINEATE)\n"
    "        [--move-port PORT] (get by C-MOVE to a Storage SCP on PORT, not C-GET)\n"
    "     or --dicomweb URL (the root of its studies route, e.g. http://host:8042/dicom-web)\n"
    "        [--user NAME [--password-file FILE]] | [--token TOKEN] [--ca CA.pem]\n"
    "        (the password is read from FILE or from DELINEATE_PASSWORD)\n"
    "  common: [--timeout SECONDS]\n"
    "  find: studies matching the search (NAME and D take * and ? wildcards); with --study, the\n"
    "        series of that study. --json prints a JSON array (else one line each).\n"
    "  get:  C-GET or WADO-RS into DIR/<series UID>/<SOP instance UID>.dcm; instances already\n"
    "        there are not fetched again. Prints a JSON summary; exit 1 when one is missing.\n"
    "  send: C-STORE or STOW-RS of the files (folders are searched). Exit 1 when a file was\n"
    "        refused (STOW-RS: not listed as stored in the server's answer).\n";

struct PacsOptions {
  std::string action;
  pacs::DicomNode node;
  pacs::PacsAccess access;
  std::string passwordFile;
  pacs::StudyQuery query;
  std::string series;
  std::string out;
  std::vector<std::string> paths;
  bool json = false;
};

// "AET@HOST:PORT" -> a node; the problem otherwise.
std::optional<pacs::DicomNode> parseNodeAddress(const std::string& spec, std::string& problem) {
  const auto at = spec.find('@');
  const auto colon = spec.rfind(':');
  if (at == std::string::npos || colon == std::string::npos || colon < at) {
    problem = "'" + spec + "' is not AET@HOST:PORT";
    return std::nullopt;
  }
  pacs::DicomNode node;
  node.name = spec;
  node.aeTitle = spec.substr(0, at);
  node.host = spec.substr(at + 1, colon - at - 1);
  try {
    std::size_t used = 0;
    node.port = std::stoi(spec.substr(colon + 1), &used);
    if (used != spec.size() - colon - 1) {
      throw std::invalid_argument("port");
    }
  } catch (const std::exception&) {
    problem = "'" + spec + "': the port is not a number";
    return std::nullopt;
  }
  if (auto p = node.problem()) {
    problem = "'" + spec + "': " + *p;
    return std::nullopt;
  }
  return node;
}

std::optional<PacsOptions> parsePacs(const Args& args) {
  if (args.empty()) {
    return std::nullopt;
  }
  PacsOptions o;
  o.action = args[0];
  if (o.action != "find" && o.action != "get" && o.action != "send") {
    std::fprintf(stderr, "delineate-cli pacs: unknown action '%s'\n", o.action.c_str());
    return std::nullopt;
  }
  bool haveNode = false;
  bool byMove = false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool hasValue = i + 1 < args.size();
    std::string problem;
    if (a == "--dimse" && hasValue) {
      auto node = parseNodeAddress(args[++i], problem);
      if (!node) {
        std::fprintf(stderr, "delineate-cli pacs: %s\n", problem.c_str());
        return std::nullopt;
      }
      o.node = *node;
      haveNode = true;
    } else if (a == "--dicomweb" && hasValue) {
      o.node.name = args[i + 1];
      o.node.dicomWebUrl = args[++i];
      haveNode = true;
    } else if (a == "--user" && hasValue) {
      o.node.user = args[++i];
      o.node.auth = pacs::WebAuth::Basic;
    } else if (a == "--password-file" && hasValue) {
      o.passwordFile = args[++i];
    } else if (a == "--token" && hasValue) {
      o.access.secret = args[++i];
      o.node.auth = pacs::WebAuth::Bearer;
    } else if (a == "--ca" && hasValue) {
      o.node.caFile = args[++i];
    } else if (a == "--move-port" && hasValue) {
      o.access.dimse.movePort = std::stoi(args[++i]);
      byMove = true;
    } else if (a == "--calling-aet" && hasValue) {
      o.access.dimse.callingAeTitle = args[++i];
    } else if (a == "--timeout" && hasValue) {
      o.access.dimse.responseTimeout = std::chrono::seconds(std::stoi(args[++i]));
      o.access.dimse.connectTimeout = o.access.dimse.responseTimeout;
    } else if (a == "--patient" && hasValue) {
      o.query.patientName = args[++i];
    } else if (a == "--patient-id" && hasValue) {
      o.query.patientId = args[++i];
    } else if (a == "--accession" && hasValue) {
      o.query.accessionNumber = args[++i];
    } else if (a == "--modality" && hasValue) {
      o.query.modality = args[++i];
    } else if (a == "--date" && hasValue) {
      o.query.studyDate = args[++i];
    } else if (a == "--description" && hasValue) {
      o.query.studyDescription = args[++i];
    } else if (a == "--study" && hasValue) {
      o.query.studyInstanceUid = args[++i];
    } else if (a == "--series" && hasValue) {
      o.series = args[++i];
    } else if (a == "--limit" && hasValue) {
      o.query.limit = static_cast<std::size_t>(std::stoul(args[++i]));
    } else if (a == "--out" && hasValue) {
      o.out = args[++i];
    } else if (a == "--json") {
      o.json = true;
    } else if (a.rfind("--", 0) != 0 && o.action == "send") {
      o.paths.push_back(a);
    } else {
      std::fprintf(stderr, "delineate-cli pacs: bad argument '%s'\n", a.c_str());
      return std::nullopt;
    }
  }
  o.node.retrieveByMove = byMove;
  if (!haveNode) {
    std::fprintf(
        stderr, "delineate-cli pacs: give the node with --dimse AET@HOST:PORT or --dicomweb URL\n");
    return std::nullopt;
  }
  if (o.node.isDicomWeb()) {
    if (auto p = o.node.problem()) {
      std::fprintf(stderr, "delineate-cli pacs: %s\n", p->c_str());
      return std::nullopt;
    }
    if (o.node.auth == pacs::WebAuth::Basic) {
      const std::optional<std::string> password = readPassword(o.passwordFile);
      if (!password) {
        std::fprintf(stderr,
                     "delineate-cli pacs: --user needs a password: set DELINEATE_PASSWORD or "
                     "give --password-file FILE\n");
        return std::nullopt;
      }
      o.access.secret = *password;
    }
  }
  if (o.action == "get" && (o.query.studyInstanceUid.empty() || o.out.empty())) {
    std::fprintf(stderr, "delineate-cli pacs get: needs --study UID and --out DIR\n");
    return std::nullopt;
  }
  if (o.action == "send" && o.paths.empty()) {
    std::fprintf(stderr, "delineate-cli pacs send: give the files or folders to send\n");
    return std::nullopt;
  }
  return o;
}

int pacsFind(const PacsOptions& o, CliProgress& progress) {
  json out = json::array();
  std::vector<std::string> lines;
  if (!o.query.studyInstanceUid.empty()) {
    for (const pacs::SeriesRecord& s :
         pacs::querySeries(o.node, o.query.studyInstanceUid, o.access, progress)) {
      out.push_back(s.toJson());
      lines.push_back(s.seriesInstanceUid + "  " + s.modality + "  #" +
                      std::to_string(s.seriesNumber) + "  " + std::to_string(s.instanceCount) +
                      " instances  " + s.seriesDescription);
    }
  } else {
    for (const pacs::StudyRecord& s : pacs::queryStudies(o.node, o.query, o.access, progress)) {
      out.push_back(s.toJson());
      lines.push_back(s.studyInstanceUid + "  " + s.studyDate + "  " + s.patientName + "  " +
                      s.patientId + "  " + s.studyDescription);
    }
  }
  if (o.json) {
    std::printf("%s\n", out.dump(2).c_str());
  } else {
    for (const std::string& line : lines) {
      std::printf("%s\n", line.c_str());
    }
  }
  return 0;
}

int pacsGet(const PacsOptions& o, CliProgress& progress) {
  const pacs::RetrieveReport report =
      pacs::retrieveStudy(o.node, {o.query.studyInstanceUid, o.series}, o.out, o.access, progress);
  json j = report.toJson();
  j.erase("files");
  j["instances"] = report.files.size();
  j["folder"] = o.out;
  std::printf("%s\n", j.dump(2).c_str());
  return report.missing.empty() ? 0 : 1;
}

int pacsSend(const PacsOptions& o, CliProgress& progress) {
  std::vector<fs::path> files;
  for (const std::string& p : o.paths) {
    if (fs::is_directory(p)) {
      for (const auto& entry : fs::recursive_directory_iterator(p)) {
        if (entry.is_regular_file()) {
          files.push_back(entry.path());
        }
      }
    } else {
      files.emplace_back(p);
    }
  }
  std::sort(files.begin(), files.end());
  const pacs::StoreReport report = pacs::sendFiles(o.node, files, o.access, progress);
  json refused = json::array();
  for (const pacs::StoredFile& f : report.files) {
    if (!f.stored) {
      refused.push_back({{"file", f.file.string()}, {"why", f.message}});
    }
  }
  std::printf("%s\n", json{{"sent", report.storedCount()}, {"refused", refused}}.dump(2).c_str());
  return report.failedCount() == 0 ? 0 : 1;
}

}  // namespace

int runPacs(const Args& args) {
  const std::optional<PacsOptions> o = parsePacs(args);
  if (!o) {
    std::fputs(kPacsUsage, stderr);
    return 2;
  }
  CliProgress progress;
  if (o->action == "find") {
    return pacsFind(*o, progress);
  }
  if (o->action == "get") {
    return pacsGet(*o, progress);
  }
  return pacsSend(*o, progress);
}

}  // namespace delineate::cli
