#include "app/gui/AppOptions.h"

#include <charconv>

#include "core/mammo/HangingProtocol.h"

namespace delineate::app {

namespace {

bool parseSize(const std::string& text, int& w, int& h) {
  const auto x = text.find_first_of("xX");
  if (x == std::string::npos) {
    return false;
  }
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  auto r1 = std::from_chars(begin, begin + x, w);
  auto r2 = std::from_chars(begin + x + 1, end, h);
  return r1.ec == std::errc() && r1.ptr == begin + x && r2.ec == std::errc() && r2.ptr == end &&
         w >= 64 && h >= 64 && w <= 16384 && h <= 16384;
}

}  // namespace

AppOptions parseAppOptions(const std::vector<std::string>& args) {
  AppOptions o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&](const char* name) -> const std::string* {
      if (i + 1 >= args.size()) {
        o.error = std::string(name) + " needs a value";
        return nullptr;
      }
      return &args[++i];
    };
    if (a == "--version" || a == "-v") {
      o.version = true;
    } else if (a == "--help" || a == "-h") {
      o.help = true;
    } else if (a == "--plugins") {
      o.plugins = true;
    } else if (a == "--screenshot") {
      if (const auto* v = value("--screenshot")) {
        o.screenshot = *v;
      }
    } else if (a == "--layout") {
      if (const auto* v = value("--layout")) {
        o.layout = *v;
        if (o.layout != "1x1" && o.layout != "1x3" && o.layout != "2x2" &&
            core::mammo::builtinHangingProtocols().find(o.layout) == nullptr) {
          o.error = "unknown layout '" + o.layout +
                    "' (use 1x1, 1x3, 2x2 or a hanging protocol: delineate-cli hang --layout list)";
        }
      }
    } else if (a == "--size") {
      if (const auto* v = value("--size")) {
        if (!parseSize(*v, o.width, o.height)) {
          o.error = "bad --size '" + *v + "' (use WxH, e.g. 1280x800)";
        }
      }
    } else if (a == "--views-json") {
      if (const auto* v = value("--views-json")) {
        o.viewsJson = *v;
      }
    } else if (a == "--labels") {
      if (const auto* v = value("--labels")) {
        o.labels.push_back(*v);
      }
    } else if (a == "--findings") {
      if (const auto* v = value("--findings")) {
        o.findings = *v;
      }
    } else if (a == "--show") {
      if (const auto* v = value("--show")) {
        o.show.push_back(*v);
      }
    } else if (a == "--recover") {
      o.recover = true;
    } else if (a == "--no-recover") {
      o.noRecover = true;
    } else if (a.size() > 1 && a[0] == '-' && a != "-") {
      o.error = "unknown option " + a;
    } else if (o.path.empty()) {
      o.path = a;
    } else {
      o.morePaths.push_back(a);  // a mammography study and its prior in separate folders
    }
    if (!o.error.empty()) {
      return o;
    }
  }
  if (!o.findings.empty() && !o.mammography()) {
    o.error = "--findings needs a mammography --layout (e.g. mammo-4up)";
  } else if (!o.morePaths.empty() && !o.mammography()) {
    o.error = "more than one path given";
  } else if (!o.screenshot.empty() && o.path.empty() && !o.version && !o.help && !o.mammography()) {
    o.error = "--screenshot needs a PATH to open";
  } else if (!o.show.empty() && o.screenshot.empty()) {
    o.error = "--show needs --screenshot";
  } else if (o.recover && o.noRecover) {
    o.error = "--recover and --no-recover exclude each other";
  } else if (!o.labels.empty() && o.path.empty() && !o.version && !o.help) {
    o.error = "--labels needs the PATH of the image they were drawn on";
  }
  return o;
}

bool AppOptions::mammography() const {
  return !layout.empty() && layout != "1x1" && layout != "1x3" && layout != "2x2";
}

std::string usageText() {
  return "Usage:\n"
         "  delineate [--labels LABELS] [--recover | --no-recover] [PATH]\n"
         "  delineate --screenshot FILE.png [--layout 1x1|1x3|2x2] [--size WxH]\n"
         "            [--views-json FILE] [--labels LABELS] [--recover] [--show NAME...] PATH\n"
         "  delineate [--screenshot FILE.png [--size WxH] [--views-json FILE]]\n"
         "            --layout mammo-4up|mammo-8up|... [--findings FINDINGS.json|demo]\n"
         "            [STUDY_FOLDER [PRIOR_FOLDER...]]\n"
         "  delineate --version\n"
         "  delineate --plugins\n"
         "\n"
         "PATH is a NIfTI/NRRD/MetaImage file, a DICOM file (its series opens) or a folder\n"
         "(scanned for DICOM; the largest series opens), or a report file (JSON, opened in\n"
         "its report dock). Without PATH the built-in sample brain MR opens with its\n"
         "ground-truth label map.\n"
         "LABELS is a label map (NIfTI/NRRD/MetaImage + its segment JSON) drawn on PATH;\n"
         "on another grid it is resampled (nearest neighbour). Give --labels again for more\n"
         "maps (several readers' maps of the image).\n"
         "A mammography --layout (a hanging protocol id) opens the folders' mammograms in the\n"
         "reading view; without a folder, the built-in sample screening study and its prior.\n"
         "--findings shows AI findings from a file, or runs the built-in demonstration detector.\n"
         "After a crash the next start offers the unsaved label map; --recover takes the\n"
         "newest without asking, --no-recover leaves it for later.\n"
         "--show, in order before the screenshot: raises a panel (aiDock, segmentsDock, ...),\n"
         "runs a command (ai.uploadDataset, report.measurements, ...), clicks a button by\n"
         "its text or turns to a dialog's tab by its title; a dialog it opens is drawn over\n"
         "the window in the picture. aiBox:i0,j0,k0,i1,j1,k1 draws an AI box over those\n"
         "voxels (one slice thick) and shows the current AI backend's proposal.\n"
         "--plugins lists where AI-backend plugins are looked for (DELINEATE_PLUGIN_PATH\n"
         "first) and which were loaded or refused, and why.\n";
}

}  // namespace delineate::app
