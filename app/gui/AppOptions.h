#pragma once
// The `delineate` command line, parsed without Qt (so that --version and --help work without a
// display, and the parser is unit-tested):
//   delineate [--labels LABELS] [--recover | --no-recover] [PATH]
//   delineate --screenshot FILE [--layout 1x1|1x3|2x2] [--size WxH] [--views-json FILE]
//             [--labels LABELS] [--recover] [--show NAME...] PATH
//   delineate [--screenshot FILE [--size WxH] [--views-json FILE]] --layout MAMMO-PROTOCOL
//             [--findings FINDINGS.json|demo] [STUDY_FOLDER [PRIOR_FOLDER...]]
//   delineate --version | --help | --plugins
#include <string>
#include <vector>

namespace delineate::app {

struct AppOptions {
  std::string path;        // file or folder to open; empty: the built-in sample (interactive)
  std::string screenshot;  // PNG to write, then exit
  std::string layout;      // empty: the default layout; a hanging protocol id: mammography
  std::vector<std::string> morePaths;  // further folders of a mammography study (its prior)
  std::string findings;  // mammography: AI findings file to show, or "demo" (the built-in detector)
  int width = 0;         // window size; 0: default
  int height = 0;
  std::string viewsJson;  // with --screenshot: where each view lies in the PNG (for tests, docs)
  // Label map files opened onto PATH once it is shown (--labels may be given more than once:
  // several readers' maps).
  std::vector<std::string> labels;
  // With --screenshot: panels (dock object names) to raise or commands (ids) to run once PATH is
  // shown, in order; dialogs they open are in the picture (the user guide's screenshots).
  std::vector<std::string> show;
  bool recover = false;    // recover the newest crashed session without asking
  bool noRecover = false;  // do not look for crashed sessions
  bool version = false;
  bool help = false;
  bool plugins = false;  // list the plugin folders and what was found there, then exit
  std::string error;     // non-empty when the command line is invalid

  // True when --layout names a hanging protocol (the mammography reading view).
  bool mammography() const;
};

AppOptions parseAppOptions(const std::vector<std::string>& args);  // args without argv[0]
std::string usageText();

}  // namespace delineate::app
