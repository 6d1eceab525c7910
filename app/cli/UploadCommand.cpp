// delineate-cli upload: labelled cases checked against the server's label schema, then sent
// through the persistent upload queue (or written as an MSD folder); a JSON summary on stdout.
#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "CliPassword.h"
#include "CliProgress.h"
#include "Commands.h"
#include "annotation/ai/ServerLabelSchema.h"
#include "core/Error.h"
#include "core/upload/CaseQueueing.h"
#include "core/upload/DatasetCase.h"
#include "core/upload/MsdDatasetWriter.h"
#include "core/upload/UploadWorker.h"
#include "plugins/LinkedBackends.h"

namespace delineate::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
namespace up = core::upload;

constexpr const char* kUploadUsage =
    "usage: delineate-cli upload [--server URL] [--queue DIR]\n"
    "                            [--case IMAGE [LABEL ...]] ... [--dataset DIR] ...\n"
    "                            [--lint | --msd OUT [--modality M]] [--tag TAG] [--prefix P]\n"
    "                            [--allow-empty] [--allow-burned-in] [--give-up-after SECONDS]\n"
    "                            [--no-send]\n"
    "                            [--status | --pause | --resume | --retry-failed | --clear-done]\n"
    "                            [--token TOKEN | --user NAME [--password-file FILE]] [--ca "
    "CA.pem]\n"
    "  Checks each case (label values against the server's labels, grids, empty labels, label\n"
    "  files that overlap), then queues the cases that pass and sends the queue to the server's\n"
    "  datastore (image, then its label under TAG, default final), verifying each by checksum.\n"
    "  The queue (default ~/.local/share/delineate/upload/<server>) survives a crash or a lost\n"
    "  network: run the command again, without cases, to resume it. Nothing is sent twice.\n"
    "  --case IMAGE LABEL...: an image (volume file or DICOM folder) and its label files.\n"
    "  --dataset DIR: an MSD folder (imagesTr/, labelsTr/) or images with NAME_labels.nii.gz.\n"
    "  An image that may show identifying text in its pixels (Burned In Annotation YES, or\n"
    "  absent from ultrasound, secondary capture, ...) is held back as an error, unless\n"
    "  --allow-burned-in (a server trusted with identifiable images; docs/deidentification.md).\n"
    "  --lint: only check. --msd OUT: write the cases as an MSD dataset instead of sending.\n"
    "  --no-send: queue only. --give-up-after: stop when nothing was delivered for SECONDS\n"
    "  (the queue keeps the rest). Exit 0 when every case was delivered (or written).\n";

struct Options {
  plugins::BackendSettings server;
  std::string queue, msd, modality, tag = "final", prefix = "case", user, passwordFile;
  std::vector<up::DatasetCase> cases;
  bool lint = false, allowEmpty = false, noSend = false;
  std::optional<double> giveUpAfter;
  std::string action;  // status, pause, resume, retry-failed, clear-done
};

// Parses; nullopt and a message on a usage error.
std::optional<Options> parse(const Args& args) {
  Options o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool hasValue = i + 1 < args.size();
    if (a == "--server" && hasValue) {
      o.server.url = args[++i];
    } else if (a == "--queue" && hasValue) {
      o.queue = args[++i];
    } else if (a == "--case" && hasValue) {
      up::DatasetCase c{args[++i], {}};
      while (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) {
        c.labels.emplace_back(args[++i]);
      }
      o.cases.push_back(std::move(c));
    } else if (a == "--dataset" && hasValue) {
      for (up::DatasetCase& c : up::findDatasetCases(args[++i])) {
        o.cases.push_back(std::move(c));
      }
    } else if (a == "--msd" && hasValue) {
      o.msd = args[++i];
    } else if (a == "--modality" && hasValue) {
      o.modality = args[++i];
    } else if (a == "--tag" && hasValue) {
      o.tag = args[++i];
    } else if (a == "--prefix" && hasValue) {
      o.prefix = args[++i];
    } else if (a == "--give-up-after" && hasValue) {
      o.giveUpAfter = std::stod(args[++i]);
    } else if (a == "--token" && hasValue) {
      o.server.token = args[++i];
    } else if (a == "--user" && hasValue) {
      o.user = args[++i];
    } else if (a == "--password-file" && hasValue) {
      o.passwordFile = args[++i];
    } else if (a == "--ca" && hasValue) {
      o.server.caFile = args[++i];
    } else if (a == "--lint") {
      o.lint = true;
    } else if (a == "--allow-empty") {
      o.allowEmpty = true;
    } else if (a == "--allow-burned-in") {
      o.server.outbound.deidentify = false;
    } else if (a == "--no-send") {
      o.noSend = true;
    } else if (a == "--status" || a == "--pause" || a == "--resume" || a == "--retry-failed" ||
               a == "--clear-done") {
      o.action = a.substr(2);
    } else {
      std::fprintf(stderr, "delineate-cli upload: unexpected '%s'\n%s", a.c_str(), kUploadUsage);
      return std::nullopt;
    }
  }
  const bool local = o.lint || !o.msd.empty();
  if (o.server.url.empty() && !local && o.queue.empty()) {
    std::fprintf(stderr, "delineate-cli upload: --server URL (or --queue DIR) is needed\n%s",
                 kUploadUsage);
    return std::nullopt;
  }
  if (o.queue.empty() && !o.server.url.empty()) {
    o.queue = up::defaultQueueFolder(o.server.url).string();
  }
  return o;
}

json itemJson(const up::UploadItem& i) {
  return {{"id", i.id},           {"state", up::toString(i.state)},
          {"source", i.source},   {"attempts", i.attempts},
          {"error", i.lastError}, {"bytes", i.image.size + i.label.size}};
}

int queueAction(const Options& o) {
  up::UploadQueue queue(o.queue);
  json out = {{"queue", o.queue}};
  if (o.action == "pause" || o.action == "resume") {
    queue.setPaused(o.action == "pause");
  } else if (o.action == "retry-failed") {
    out["retried"] = queue.retryFailed();
  } else if (o.action == "clear-done") {
    out["cleared"] = queue.clearDone();
  }
  out["paused"] = queue.paused();
  out["items"] = json::array();
  for (const up::UploadItem& i : queue.items()) {
    out["items"].push_back(itemJson(i));
  }
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}

}  // namespace

int runUpload(const Args& args) {
  if (!args.empty() && (args[0] == "--help" || args[0] == "-h")) {
    std::printf("%s", kUploadUsage);
    return 0;
  }
  std::optional<Options> parsed;
  try {
    parsed = parse(args);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "delineate-cli upload: %s\n", e.what());
    return 2;
  }
  if (!parsed) {
    return 2;
  }
  const Options& o = *parsed;
  CliProgress progress;
  json out = {{"cases", json::array()}};
  bool ok = true;
  try {
    if (!o.action.empty()) {
      return queueAction(o);
    }
    std::shared_ptr<core::ai::AiBackend> backend;
    up::PrepareOptions prepare;
    prepare.idPrefix = o.prefix;
    prepare.allowEmptyLabel = o.allowEmpty;
    prepare.outbound = o.server.outbound;
    if (!o.server.url.empty()) {
      backend = plugins::linkedBackends().create("monai-label", o.server);
      if (!o.user.empty()) {
        const std::optional<std::string> password = readPassword(o.passwordFile);
        if (!password) {
          std::fprintf(stderr,
                       "delineate-cli upload: --user needs a password: set "
                       "DELINEATE_PASSWORD or give --password-file FILE\n");
          return 2;
        }
        if (backend->signInEnabled(progress)) {
          backend->signIn(o.user, *password, progress);
        }
      }
      if (!o.cases.empty()) {
        prepare.schema = annotation::serverLabelSchema(backend->info(progress));
      }
    }
    std::optional<up::UploadQueue> queue;
    std::optional<up::MsdDatasetWriter> msd;
    if (!o.msd.empty()) {
      msd.emplace(o.msd, fs::path(o.msd).filename().string(), o.modality);
    } else if (!o.lint) {
      queue.emplace(o.queue);
      out["queue"] = o.queue;
    }
    for (std::size_t n = 0; n < o.cases.size(); ++n) {
      core::SubProgress caseProgress(progress, double(n) / o.cases.size(),
                                     double(n + 1) / o.cases.size());
      const up::PreparedCase c = up::prepareCase(o.cases[n], prepare, caseProgress);
      json entry = {{"source", c.source}, {"id", c.id}, {"findings", json::array()}};
      for (const up::LintFinding& f : c.findings) {
        entry["findings"].push_back(
            {{"severity", f.severity == up::LintFinding::Severity::Error ? "error" : "warning"},
             {"message", f.message}});
        std::fprintf(stderr, "%s: %s\n",
                     f.severity == up::LintFinding::Severity::Error ? "error" : "warning",
                     f.message.c_str());
      }
      ok = ok && c.sendable();
      if (c.sendable() && msd) {
        msd->add(c);
        entry["written"] = true;
      } else if (c.sendable() && queue) {
        const up::EnqueueOutcome outcome = up::enqueuePrepared(*queue, c, o.tag);
        entry["queued"] = outcome == up::EnqueueOutcome::Added      ? "added"
                          : outcome == up::EnqueueOutcome::Replaced ? "replaced"
                                                                    : "unchanged";
      }
      out["cases"].push_back(entry);
    }
    if (queue && backend && !o.noSend) {
      up::UploadRunOptions run;
      run.giveUpAfterSeconds = o.giveUpAfter;
      up::UploadWorker worker(*queue, *backend, run);
      worker.onWaiting([](double seconds, const std::string& reason) {
        std::fprintf(stderr, "waiting %.1f s before trying again (%s)\n", seconds, reason.c_str());
      });
      const up::UploadRunSummary s = worker.run(progress);
      out["delivered"] = s.delivered;
      out["files_sent"] = s.filesSent;
      out["files_already_held"] = s.filesAlreadyHeld;
      out["retries"] = s.retries;
      out["pending"] = s.pending;
      out["paused"] = s.paused;
      if (!s.stoppedBecause.empty()) {
        out["stopped_because"] = s.stoppedBecause;
      }
      out["failed"] = json::array();
      for (const up::UploadItem& i : queue->items()) {
        if (i.state == up::UploadState::Failed) {
          out["failed"].push_back(itemJson(i));
        }
      }
      ok = ok && s.pending == 0 && out["failed"].empty();
    } else if (queue) {
      out["pending"] = queue->counts().pending;
    }
  } catch (const core::CancelledError&) {
    std::fprintf(stderr, "delineate-cli upload: cancelled; the queue keeps what is left\n");
    return 1;
  } catch (const core::Error& e) {
    std::fprintf(stderr, "delineate-cli upload: %s\n", e.what());
    return 1;
  }
  std::printf("%s\n", out.dump(2).c_str());
  return ok ? 0 : 1;
}

}  // namespace delineate::cli
