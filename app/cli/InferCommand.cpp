// delineate-cli infer: one inference on a MONAI Label-compatible server (or delineate-server),
// the result written as a label file, the timings printed as JSON.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "CliPassword.h"
#include "CliProgress.h"
#include "Commands.h"
#include "core/Error.h"
#include "core/deid/HeldBackError.h"
#include "core/io/LabelMapFileIO.h"
#include "core/io/PathLoader.h"
#include "plugins/clara-aiaa/ClaraAiaaBackend.h"
#include "plugins/monai-label/MonaiLabelBackend.h"

namespace delineate::cli {

namespace {

constexpr const char* kInferUsage =
    "usage: delineate-cli infer --server URL --model NAME --image FILE|DICOM_DIR\n"
    "                           [--fg i,j,k ...] [--bg i,j,k ...] [--extreme i,j,k x6]\n"
    "                           [--label NAME] [--api monai|aiaa]\n"
    "                           [--session] [--image-id ID] [--token TOKEN] [--ca CA.pem]\n"
    "                           [--user NAME [--password-file FILE]] [--allow-burned-in]\n"
    "                           --out LABEL.nii.gz\n"
    "  Clicks are voxel indices of the image as read (i,j,k, from 0). --session sends the image\n"
    "  once into a server session; without it the image goes with the request. --image-id\n"
    "  names an image already in the server's datastore instead. Prints the timings as JSON.\n"
    "  --extreme gives the six extreme points of a structure (DEXTR3D models). --api aiaa talks\n"
    "  to an NVIDIA Clara AIAA v1 server instead of MONAI Label (the DEXTR3D crop is made here;\n"
    "  --image-id, --token and --user are MONAI Label's only).\n"
    "  An image that may show identifying text in its pixels (Burned In Annotation YES, or\n"
    "  absent from ultrasound, secondary capture, ...) is refused before anything is sent,\n"
    "  unless --allow-burned-in (a server trusted with identifiable images). File names and\n"
    "  headers sent carry no identifiers either way (docs/deidentification.md).\n"
    "  Servers with sign-in on: --token passes an access token, or --user NAME signs in first\n"
    "  with the password from the first line of --password-file FILE or, without it, from the\n"
    "  environment variable DELINEATE_PASSWORD (never on the command line, where other users\n"
    "  of the machine can read it). --user is ignored when the server has sign-in off.\n";

bool parseIndex(const std::string& text, core::ai::VoxelIndex& out) {
  long long a = 0, b = 0, c = 0;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%lld,%lld,%lld%c", &a, &b, &c, &tail) != 3) {
    return false;
  }
  out = {a, b, c};
  return true;
}

// Writes the proposal to `out` and prints the timings as JSON; 0.
int writeResult(const core::ai::InferResult& result, const std::string& server,
                const std::string& model, const std::string& out) {
  core::writeLabelMapFiles(*result.labels, out);
  const core::ai::InferTimings& t = result.timings;
  std::size_t labelled = 0;
  for (std::size_t n = 0; n < result.labels->voxelCount(); ++n) {
    labelled += result.labels->data()[n] != 0;
  }
  const nlohmann::json report = {
      {"server", server},
      {"model", model},
      {"out", out},
      {"labelled_voxels", labelled},
      {"session_created", t.sessionCreated},
      {"upload_s", t.uploadSeconds},
      {"wait_s", t.waitSeconds},
      {"download_s", t.downloadSeconds},
      {"decode_s", t.decodeSeconds},
      {"total_s", t.totalSeconds},
      {"server_s", t.serverSeconds ? nlohmann::json(*t.serverSeconds) : nlohmann::json()},
      {"bytes_sent", t.bytesSent},
      {"bytes_received", t.bytesReceived}};
  std::printf("%s\n", report.dump(2).c_str());
  return 0;
}

}  // namespace

int runInfer(const Args& args) {
  plugins::MonaiServerConfig config;
  config.useSessions = false;
  core::ai::InferRequest request;
  std::string image, out, user, passwordFile, api = "monai";
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool hasValue = i + 1 < args.size();
    core::ai::VoxelIndex v{};
    if (a == "--session") {
      config.useSessions = true;
    } else if (a == "--allow-burned-in") {
      config.outbound.deidentify = false;
    } else if (!hasValue) {
      std::fprintf(stderr, "delineate-cli infer: '%s' needs a value\n%s", a.c_str(), kInferUsage);
      return 2;
    } else if (a == "--server") {
      config.url = args[++i];
    } else if (a == "--model") {
      request.model = args[++i];
    } else if (a == "--image") {
      image = args[++i];
    } else if (a == "--image-id") {
      request.imageId = args[++i];
    } else if (a == "--label") {
      request.label = args[++i];
    } else if (a == "--token") {
      config.token = args[++i];
    } else if (a == "--user") {
      user = args[++i];
    } else if (a == "--password-file") {
      passwordFile = args[++i];
    } else if (a == "--api") {
      api = args[++i];
    } else if (a == "--extreme" && parseIndex(args[i + 1], v)) {
      request.extremePoints.push_back(v);
      ++i;
    } else if (a == "--ca") {
      config.tls.caFile = args[++i];
    } else if (a == "--out") {
      out = args[++i];
    } else if ((a == "--fg" || a == "--bg") && parseIndex(args[i + 1], v)) {
      (a == "--fg" ? request.foreground : request.background).push_back(v);
      ++i;
    } else {
      std::fprintf(stderr, "delineate-cli infer: bad argument '%s'\n%s", a.c_str(), kInferUsage);
      return 2;
    }
  }
  if (config.url.empty() || request.model.empty() || image.empty() || out.empty() ||
      (api != "monai" && api != "aiaa")) {
    std::fputs(kInferUsage, stderr);
    return 2;
  }
  if (!request.extremePoints.empty() && request.extremePoints.size() != 6) {
    std::fprintf(stderr, "delineate-cli infer: --extreme needs six points, %zu given\n",
                 request.extremePoints.size());
    return 2;
  }
  std::optional<std::string> password;
  if (!user.empty()) {
    password = readPassword(passwordFile);
    if (!password) {
      std::fprintf(stderr,
                   "delineate-cli infer: --user needs a password: set DELINEATE_PASSWORD or "
                   "give --password-file FILE\n");
      return 2;
    }
  }
  CliProgress progress;
  request.image = core::openPath(image, progress).volume;
  try {
    if (api == "aiaa") {
      plugins::ClaraServerConfig clara;
      clara.url = config.url;
      clara.tls = config.tls;
      clara.useSessions = config.useSessions;
      clara.outbound = config.outbound;
      plugins::ClaraAiaaBackend backend(clara);
      return writeResult(backend.infer(request, progress), config.url, request.model, out);
    }
    plugins::MonaiLabelBackend backend(config);
    if (!user.empty()) {
      if (backend.signInEnabled(progress)) {
        backend.signIn(user, *password, progress);
      } else {
        std::fprintf(stderr, "delineate-cli infer: %s has sign-in off; --user is not needed\n",
                     config.url.c_str());
      }
    }
    return writeResult(backend.infer(request, progress), config.url, request.model, out);
  } catch (const core::deid::HeldBackError& e) {
    std::fprintf(stderr,
                 "delineate-cli infer: %s\n  --allow-burned-in sends it anyway: only to a server "
                 "trusted with identifiable images\n",
                 e.what());
    return 1;
  }
}

}  // namespace delineate::cli
