// delineate-cli infer: one inference on a MONAI Label, Clara AIAA or nnInteractive server (or
// delineate-server), made through the backend registry (plugins/LinkedBackends.h),
// the result written as a label file, the timings printed as JSON.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "CliPassword.h"
#include "CliProgress.h"
#include "Commands.h"
#include "core/Error.h"
#include "core/deid/HeldBackError.h"
#include "core/io/LabelMapFileIO.h"
#include "core/io/PathLoader.h"
#include "plugins/LinkedBackends.h"

namespace delineate::cli {

namespace {

constexpr const char* kInferUsage =
    "usage: delineate-cli infer --server URL --model NAME --image FILE|DICOM_DIR\n"
    "                           [--fg i,j,k ...] [--bg i,j,k ...] [--extreme i,j,k x6]\n"
    "                           [--point i,j,k[,-] ...] [--box i0,j0,k0,i1,j1,k1[,-] ...]\n"
    "                           [--span FIRST,LAST] [--scribble MASK[,-] ...]\n"
    "                           [--lasso MASK[,-] ...] [--initial MASK] [--label NAME]\n"
    "                           [--api monai|aiaa|nninteractive|builtin]\n"
    "                           [--api-key KEY]\n"
    "                           [--session] [--image-id ID] [--token TOKEN] [--ca CA.pem]\n"
    "                           [--user NAME [--password-file FILE]] [--allow-burned-in]\n"
    "                           --out LABEL.nii.gz\n"
    "  Clicks are voxel indices of the image as read (i,j,k, from 0). --session sends the image\n"
    "  once into a server session; without it the image goes with the request. --image-id\n"
    "  names an image already in the server's datastore instead. Prints the timings as JSON.\n"
    "  --extreme gives the six extreme points of a structure (DEXTR3D models). --api aiaa talks\n"
    "  to an NVIDIA Clara AIAA v1 server instead of MONAI Label (the DEXTR3D crop is made here;\n"
    "  --image-id, --token and --user are MONAI Label's only).\n"
    "  --api nninteractive talks to an nnInteractive v2 server (--model may be left out; the\n"
    "  API key from --api-key or NN_INTERACTIVE_API_KEY). Prompts, in the order given: --point\n"
    "  (a click; ',-' makes it negative), --box (corner voxels, both inside the box; a box one\n"
    "  voxel thick along an axis is drawn on that slice), --scribble and --lasso (a label image\n"
    "  on the image's grid whose non-zero voxels are the stroke, or the filled outline, usually\n"
    "  on one slice). --span gives the first and last slice the structure reaches along the\n"
    "  axis of the --box before it, drawn on one slice (either may be left out: '40,' or\n"
    "  ',57'); the CVPR 2025 challenge's box is its middle slice with both. Only the built-in\n"
    "  engine uses it (--api builtin, which runs here: no --server); the servers' protocols\n"
    "  have no field for it, so it is left out with a note.\n"
    "  Boxes, scribbles and lassos need a backend that takes them; others are\n"
    "  refused naming the server and the prompt kind. --initial refines a structure you have\n"
    "  (a label image on the image's grid, non-zero = the structure) instead of starting from\n"
    "  nothing: nnInteractive takes it as its initial segmentation; the prompts correct it.\n"
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

// "i0,j0,k0,i1,j1,k1[,-]": corner voxels, both inside.
bool parseBox(const std::string& text, core::ai::Prompt& out) {
  long long v[6] = {};
  char tail[3] = {};
  const int n = std::sscanf(text.c_str(), "%lld,%lld,%lld,%lld,%lld,%lld%2s", &v[0], &v[1], &v[2],
                            &v[3], &v[4], &v[5], tail);
  if (n < 6 || (n == 7 && std::string(tail) != ",-") ||
      std::any_of(v, v + 6, [](long long x) { return x < 0; })) {
    return false;
  }
  out.kind = core::ai::PromptKind::Box;
  out.positive = n == 6;
  for (int a = 0; a < 3; ++a) {
    out.box.lo[a] = static_cast<std::size_t>(std::min(v[a], v[a + 3]));
    out.box.hi[a] = static_cast<std::size_t>(std::max(v[a], v[a + 3])) + 1;
  }
  return true;
}

// "FIRST,LAST", "FIRST," or ",LAST": the slices along `box`'s axis the structure reaches,
// which must hold the box's own slice.
bool parseSpan(const std::string& text, core::ai::Prompt& box) {
  const std::size_t comma = text.find(',');
  if (comma == std::string::npos || text.find(',', comma + 1) != std::string::npos) {
    return false;
  }
  const std::size_t slice = box.box.lo[std::size_t(box.sliceAxis())];
  const auto number = [](const std::string& t, std::optional<std::size_t>& out) {
    if (t.empty()) {
      return true;
    }
    if (t.find_first_not_of("0123456789") != std::string::npos || t.size() > 9) {
      return false;
    }
    out = std::size_t(std::stoul(t));
    return true;
  };
  std::optional<std::size_t> first, last;
  if (!number(text.substr(0, comma), first) || !number(text.substr(comma + 1), last) ||
      (!first && !last) || (first && *first > slice) || (last && *last < slice)) {
    return false;
  }
  box.spanLo = first;
  box.spanHi = last ? std::optional<std::size_t>(*last + 1) : std::nullopt;
  return true;
}

// A scribble or lasso from a label image on the image's grid: its non-zero voxels, over their
// box. "FILE,-" makes it negative.
core::ai::Prompt maskPromptFrom(std::string file, core::ai::PromptKind kind,
                                const core::ImageGeometry& grid) {
  core::ai::Prompt p;
  p.kind = kind;
  if (file.size() > 2 && file.compare(file.size() - 2, 2, ",-") == 0) {
    p.positive = false;
    file.resize(file.size() - 2);
  }
  const core::LabelMap mask = core::readLabelMapFiles(file, &grid);
  const core::Size3 n = grid.size;
  for (std::size_t k = 0, m = 0; k < n[2]; ++k) {
    for (std::size_t j = 0; j < n[1]; ++j) {
      for (std::size_t i = 0; i < n[0]; ++i, ++m) {
        if (mask.data()[m] != 0) {
          p.box.include(i, j, k);
        }
      }
    }
  }
  if (p.box.empty()) {
    throw core::Error(core::ErrorKind::InvalidInput, file, "the mask has no voxel set");
  }
  for (std::size_t k = p.box.lo[2]; k < p.box.hi[2]; ++k) {
    for (std::size_t j = p.box.lo[1]; j < p.box.hi[1]; ++j) {
      for (std::size_t i = p.box.lo[0]; i < p.box.hi[0]; ++i) {
        p.mask.push_back(mask.data()[i + n[0] * (j + n[1] * k)] != 0 ? 1 : 0);
      }
    }
  }
  return p;
}

// The structure to refine, from a label image on the image's grid: 1 where it is non-zero.
std::shared_ptr<const std::vector<std::uint8_t>> initialMaskFrom(const std::string& file,
                                                                 const core::ImageGeometry& grid) {
  const core::LabelMap labels = core::readLabelMapFiles(file, &grid);
  auto mask = std::make_shared<std::vector<std::uint8_t>>(labels.voxelCount(), 0);
  bool any = false;
  for (std::size_t n = 0; n < mask->size(); ++n) {
    (*mask)[n] = labels.data()[n] != 0 ? 1 : 0;
    any = any || (*mask)[n] != 0;
  }
  if (!any) {
    throw core::Error(core::ErrorKind::InvalidInput, file, "the structure to refine is empty");
  }
  return mask;
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
  plugins::BackendSettings config;
  config.useSessions = false;
  core::ai::InferRequest request;
  std::string image, out, user, passwordFile, initial, api = "monai";
  std::string apiKey =
      std::getenv("NN_INTERACTIVE_API_KEY") ? std::getenv("NN_INTERACTIVE_API_KEY") : "";
  // Prompts in the order given; scribbles and lassos read once the image's grid is known.
  std::vector<std::pair<core::ai::PromptKind, std::string>> maskFiles;
  std::vector<std::variant<core::ai::Prompt, std::size_t>> order;
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
    } else if (a == "--initial") {
      initial = args[++i];
    } else if (a == "--token") {
      config.token = args[++i];
    } else if (a == "--user") {
      user = args[++i];
    } else if (a == "--password-file") {
      passwordFile = args[++i];
    } else if (a == "--api") {
      api = args[++i];
    } else if (a == "--api-key") {
      apiKey = args[++i];
    } else if (a == "--point") {
      const std::string text = args[++i];
      const bool negative = text.size() > 2 && text.compare(text.size() - 2, 2, ",-") == 0;
      if (!parseIndex(negative ? text.substr(0, text.size() - 2) : text, v) || v[0] < 0 ||
          v[1] < 0 || v[2] < 0) {
        std::fprintf(stderr, "delineate-cli infer: --point needs i,j,k[,-], not '%s'\n",
                     text.c_str());
        return 2;
      }
      core::ai::Prompt p;
      p.positive = !negative;
      p.point = {std::size_t(v[0]), std::size_t(v[1]), std::size_t(v[2])};
      order.emplace_back(p);
    } else if (a == "--box") {
      core::ai::Prompt p;
      if (!parseBox(args[++i], p)) {
        std::fprintf(stderr, "delineate-cli infer: --box needs i0,j0,k0,i1,j1,k1[,-], not '%s'\n",
                     args[i].c_str());
        return 2;
      }
      order.emplace_back(p);
    } else if (a == "--span") {
      const std::string text = args[++i];
      core::ai::Prompt* box = nullptr;
      for (auto it = order.rbegin(); it != order.rend() && box == nullptr; ++it) {
        core::ai::Prompt* p = std::get_if<core::ai::Prompt>(&*it);
        if (p != nullptr && p->kind == core::ai::PromptKind::Box) {
          box = p;
        }
      }
      if (box == nullptr || box->sliceAxis() < 0 || !parseSpan(text, *box)) {
        std::fprintf(stderr,
                     "delineate-cli infer: --span needs FIRST,LAST (slice indices, either may be "
                     "left out, first <= the box's slice <= last) after a --box drawn on one "
                     "slice, not '%s'\n",
                     text.c_str());
        return 2;
      }
    } else if (a == "--scribble" || a == "--lasso") {
      maskFiles.emplace_back(
          a == "--scribble" ? core::ai::PromptKind::Scribble : core::ai::PromptKind::Lasso,
          args[++i]);
      order.emplace_back(maskFiles.size() - 1);
    } else if (a == "--extreme" && parseIndex(args[i + 1], v)) {
      request.extremePoints.push_back(v);
      ++i;
    } else if (a == "--ca") {
      config.caFile = args[++i];
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
  // --api names the protocol; the backend comes from the registry every program shares.
  const std::string kind = api == "monai" ? "monai-label" : api == "aiaa" ? "clara-aiaa" : api;
  const plugins::BackendRegistry registry = plugins::linkedBackends();
  const plugins::BackendKind* chosenKind = registry.find(kind);
  if (chosenKind != nullptr && request.model.empty()) {
    request.model = chosenKind->defaultModel;
  }
  // The built-in engine runs here, without a server.
  if ((config.url.empty() && kind != "builtin") || request.model.empty() || image.empty() ||
      out.empty() || chosenKind == nullptr) {
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
    for (auto& item : order) {
      request.prompts.push_back(std::holds_alternative<core::ai::Prompt>(item)
                                    ? std::get<core::ai::Prompt>(item)
                                    : maskPromptFrom(maskFiles[std::get<std::size_t>(item)].second,
                                                     maskFiles[std::get<std::size_t>(item)].first,
                                                     request.image->geometry()));
    }
    if (kind == "nninteractive") {
      config.token = apiKey;  // the server's static API key
    }
    const std::shared_ptr<core::ai::AiBackend> backend = registry.create(kind, config);
    if (!user.empty()) {
      if (backend->signInEnabled(progress)) {
        backend->signIn(user, *password, progress);
      } else {
        std::fprintf(stderr, "delineate-cli infer: %s has sign-in off; --user is not needed\n",
                     config.url.c_str());
      }
    }
    if (!initial.empty()) {
      backend->info(progress);  // whether a server refines is in its answer (nnInteractive)
    }
    const core::ai::BackendCapabilities caps = backend->capabilities();
    if (!initial.empty()) {
      if (!caps.initialMasks) {
        std::fprintf(stderr,
                     "delineate-cli infer: model '%s' on %s does not refine a structure "
                     "(--initial needs a backend that takes one, such as --api nninteractive)\n",
                     request.model.c_str(), config.url.c_str());
        return 1;
      }
      request.initialMask = initialMaskFrom(initial, request.image->geometry());
    }
    // A backend that takes no point prompts gets points as foreground/background clicks; other
    // prompts it does not take are refused, naming the model and the prompt kind.
    std::vector<core::ai::Prompt> prompts;
    for (core::ai::Prompt p : request.prompts) {
      if ((p.spanLo || p.spanHi) && !caps.boxSpans) {
        std::fprintf(stderr,
                     "delineate-cli infer: note: %s (%s) has no field for a box's span; the box "
                     "goes without --span\n",
                     config.url.c_str(), api.c_str());
        p.spanLo.reset();
        p.spanHi.reset();
      }
      if (caps.takes(p.kind)) {
        prompts.push_back(p);
      } else if (p.kind == core::ai::PromptKind::Point) {
        (p.positive ? request.foreground : request.background)
            .push_back(
                {std::int64_t(p.point[0]), std::int64_t(p.point[1]), std::int64_t(p.point[2])});
      } else {
        std::fprintf(stderr,
                     "delineate-cli infer: model '%s' on %s does not take %s prompts (only "
                     "clicks)\n",
                     request.model.c_str(), config.url.c_str(), core::ai::promptKindName(p.kind));
        return 1;
      }
    }
    request.prompts = std::move(prompts);
    return writeResult(backend->infer(request, progress),
                       config.url.empty() ? std::string("built-in engine") : config.url,
                       request.model, out);
  } catch (const core::deid::HeldBackError& e) {
    std::fprintf(stderr,
                 "delineate-cli infer: %s\n  --allow-burned-in sends it anyway: only to a server "
                 "trusted with identifiable images\n",
                 e.what());
    return 1;
  }
}

}  // namespace delineate::cli
