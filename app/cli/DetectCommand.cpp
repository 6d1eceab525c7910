// delineate-cli detect: the built-in demonstration detector (core/mammo), or a MONAI Label
// detection model on a server (--server URL --model NAME), on the current study's mammograms
// under some folders: a short summary per image (marks with kind, score and centre in mm) and the
// case risk score, labelled as a demonstration when it is one, and the findings file with --json.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "CliPassword.h"
#include "CliProgress.h"
#include "Commands.h"
#include "core/Error.h"
#include "core/io/DicomHeader.h"
#include "core/io/DicomScanner.h"
#include "core/io/DicomSeriesLoader.h"
#include "core/jobs/ProgressSink.h"
#include "core/mammo/DemoMammoDetector.h"
#include "core/mammo/HangingAssignment.h"
#include "core/mammo/HangingProtocol.h"
#include "core/mammo/MammoFindings.h"
#include "core/mammo/MammoViewDicom.h"
#include "core/mammo/ServerFindings.h"
#include "core/report/MammoCadSr.h"
#include "plugins/LinkedBackends.h"

namespace delineate::cli {

namespace {

constexpr const char* kDetectUsage =
    "usage: delineate-cli detect [--json OUT.json] [--sr OUT.dcm] [--study UID] DIR...\n"
    "       delineate-cli detect --server URL --model NAME [--token TOKEN] [--ca CA.pem]\n"
    "                            [--user NAME [--password-file FILE]]\n"
    "                            [--json OUT.json] [--sr OUT.dcm] [--study UID] DIR...\n"
    "  runs the built-in DEMONSTRATION detector (classical image processing, not a diagnosis) on\n"
    "  the display mammograms (DX/MG DICOM) of the current study under the folders (the latest,\n"
    "  or --study UID) and prints its marks (kind, score, centre in mm from the image's first\n"
    "  pixel) and the case risk score. --json writes the findings file: per image the marks\n"
    "  (image pixels) and a heatmap, and the risk score (format: core/mammo/MammoFindings.h).\n"
    "  --sr writes the marks as a DICOM Mammography CAD SR in the study (docs/cad-sr.md), which\n"
    "  `delineate-cli report show` and the app read back and Send to PACS sends with the study.\n"
    "  --server URL --model NAME asks a MONAI Label detection or classification model instead\n"
    "  (e.g. delineate-server's mammo_demo_detector), one request per image; the risk score is\n"
    "  then 1 - prod(1 - p) over the images' probabilities, and there are no heatmaps.\n"
    "  Servers with sign-in on: --token passes an access token, or --user NAME signs in with\n"
    "  the password from the first line of --password-file FILE or else from the environment\n"
    "  variable DELINEATE_PASSWORD.\n";

struct Candidate {
  core::mammo::MammoView view;
  std::string file;
  core::DicomSeries series;  // the file's series, narrowed to this one file
};

// Per breast, view and modifiers, the image a reader sees: one for presentation before one for
// processing, the latest acquisition among the rest (as the hanging protocols choose).
std::vector<const Candidate*> displayImages(const std::vector<Candidate>& all,
                                            const std::string& study) {
  std::map<std::tuple<int, int, bool, bool>, const Candidate*> chosen;
  for (const Candidate& c : all) {
    if (c.view.studyUid != study) {
      continue;
    }
    const auto key = std::make_tuple(int(c.view.view), int(c.view.laterality), c.view.spot,
                                     c.view.magnification);
    const Candidate*& best = chosen[key];
    if (best == nullptr ||
        std::make_tuple(!c.view.forProcessing, c.view.acquisitionTime) >
            std::make_tuple(!best->view.forProcessing, best->view.acquisitionTime)) {
      best = &c;
    }
  }
  std::vector<const Candidate*> out;
  for (const auto& [key, c] : chosen) {
    out.push_back(c);  // ordered by view, then R before L
  }
  return out;
}

}  // namespace

int runDetect(const Args& args) {
  std::string jsonOut, srOut, study, model, user, passwordFile;
  plugins::BackendSettings server;
  server.useSessions = false;  // each image is sent once: with its request
  std::vector<std::filesystem::path> folders;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const bool value = i + 1 < args.size();
    if (args[i] == "--json" && value) {
      jsonOut = args[++i];
    } else if (args[i] == "--sr" && value) {
      srOut = args[++i];
    } else if (args[i] == "--study" && value) {
      study = args[++i];
    } else if (args[i] == "--server" && value) {
      server.url = args[++i];
    } else if (args[i] == "--model" && value) {
      model = args[++i];
    } else if (args[i] == "--token" && value) {
      server.token = args[++i];
    } else if (args[i] == "--ca" && value) {
      server.caFile = args[++i];
    } else if (args[i] == "--user" && value) {
      user = args[++i];
    } else if (args[i] == "--password-file" && value) {
      passwordFile = args[++i];
    } else if (!args[i].empty() && args[i][0] != '-') {
      folders.emplace_back(args[i]);
    } else {
      std::fprintf(stderr, "delineate-cli detect: bad argument '%s'\n%s", args[i].c_str(),
                   kDetectUsage);
      return 2;
    }
  }
  if (folders.empty() || server.url.empty() != model.empty() ||
      (server.url.empty() && !(user.empty() && server.token.empty()))) {
    std::fputs(kDetectUsage, stderr);
    return 2;
  }
  std::optional<std::string> password;
  if (!user.empty()) {
    password = readPassword(passwordFile);
    if (!password) {
      std::fprintf(stderr,
                   "delineate-cli detect: --user needs a password: set DELINEATE_PASSWORD or "
                   "give --password-file FILE\n");
      return 2;
    }
  }
  CliProgress progress;
  std::vector<Candidate> all;
  for (const auto& folder : folders) {
    core::SubProgress scanning(progress, 0, 0.1);
    const core::DicomScanResult scan = core::scanDicomFolder(folder, scanning);
    for (const core::DicomSeries* series : scan.allSeries()) {
      for (const std::string& file : series->files) {
        const core::DicomFileHeader header = core::readDicomHeader(file);
        if ((header.modality != "MG" && header.modality != "DX") || header.frames != 1) {
          continue;  // not a mammogram, or a tomosynthesis stack
        }
        Candidate c{core::mammo::mammoViewOf(header, file), file, *series};
        c.view.id = header.sopInstanceUid.empty() ? file : header.sopInstanceUid;
        c.series.files = {file};
        c.series.frames = 1;
        all.push_back(std::move(c));
      }
    }
  }
  std::vector<core::mammo::MammoView> views;
  for (const Candidate& c : all) {
    views.push_back(c.view);
  }
  const core::mammo::Hanging h =
      core::mammo::hang(*core::mammo::builtinHangingProtocols().find("mammo-4up"), views, study);
  const std::vector<const Candidate*> chosen = displayImages(all, h.currentStudy);
  if (chosen.empty()) {
    std::fprintf(stderr, "delineate-cli detect: no mammograms (DX/MG DICOM) found\n");
    return 1;
  }
  std::vector<core::mammo::DetectorImage> inputs;
  for (std::size_t i = 0; i < chosen.size(); ++i) {
    core::SubProgress loading(progress, 0.1 + 0.4 * double(i) / double(chosen.size()),
                              0.1 + 0.4 * double(i + 1) / double(chosen.size()));
    inputs.push_back({core::loadDicomSeries(chosen[i]->series, loading), chosen[i]->view});
  }
  core::SubProgress detecting(progress, 0.5, 1.0);
  core::mammo::StudyFindings findings;
  if (server.url.empty()) {
    findings = core::mammo::DemoMammoDetector().run(inputs, detecting);
  } else {
    const std::shared_ptr<core::ai::AiBackend> made =
        plugins::linkedBackends().create("monai-label", server);
    core::ai::AiBackend& backend = *made;
    if (!user.empty()) {
      if (backend.signInEnabled(progress)) {
        backend.signIn(user, *password, progress);
      } else {
        std::fprintf(stderr, "delineate-cli detect: %s has sign-in off; --user is not needed\n",
                     server.url.c_str());
      }
    }
    findings = core::mammo::findingsFromServer(backend, model, inputs, detecting);
  }

  std::printf("AI findings: %s\n  %s\n  study %s\n",
              findings.demonstration ? "DEMONSTRATION, NOT A DIAGNOSIS" : "from an AI model",
              findings.source.c_str(), h.currentStudy.c_str());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const core::mammo::ImageFindings& image = findings.images[i];
    const core::Vec3& spacing = inputs[i].image->geometry().spacing;
    std::printf("%s %s  %s\n", toString(inputs[i].view.laterality), toString(inputs[i].view.view),
                chosen[i]->file.c_str());
    if (image.marks.empty()) {
      std::printf("    no marks\n");
    }
    for (const core::mammo::FindingMark& m : image.marks) {
      std::printf("    %-14s score %.2f  at %.1f, %.1f mm\n", m.kind.c_str(), m.score,
                  m.column * spacing[0], m.row * spacing[1]);
    }
  }
  if (findings.riskScore) {
    std::printf("risk score %.3f%s\n", *findings.riskScore,
                findings.demonstration ? " (demonstration, not a diagnosis)" : "");
  } else {
    std::printf("no risk score (the model gave none)\n");
  }
  if (!jsonOut.empty()) {
    core::mammo::writeStudyFindings(findings, jsonOut);
    std::printf("findings written to %s\n", jsonOut.c_str());
  }
  if (!srOut.empty()) {
    std::vector<std::filesystem::path> files;
    for (const Candidate* c : chosen) {
      files.emplace_back(c->file);
    }
    core::report::CadSrOptions options;
    options.algorithmVersion = DELINEATE_VERSION;
    if (server.url.empty()) {
      options.detectionsPerformed = {"mass", "calcification", "asymmetry"};
    }
    core::report::writeMammographyCadSr(findings, files, srOut, options);
    std::printf("CAD SR written to %s\n", srOut.c_str());
  }
  return 0;
}

}  // namespace delineate::cli
