// delineate-cli dataset: versions of a dataset folder (core/dataset, docs/datasets.md):
// snapshot, log, diff, checkout.
#include <cstdio>
#include <string>
#include <vector>

#include "CliProgress.h"
#include "Commands.h"
#include "core/dataset/DatasetStore.h"
#include "core/dataset/SnapshotDiff.h"

namespace delineate::cli {

namespace {

constexpr const char* kDatasetUsage =
    "usage: delineate-cli dataset snapshot DIR [--message TEXT]\n"
    "       delineate-cli dataset log --root DIR [--json]\n"
    "       delineate-cli dataset diff A B --root DIR [--json]\n"
    "       delineate-cli dataset checkout ID OUT --root DIR\n"
    "  snapshot keeps every file of DIR (content-addressed, in DIR/.delineate-snapshots) and\n"
    "  prints the snapshot id: the same content always gives the same id. log lists the\n"
    "  snapshots, latest first; diff names the files added, removed and changed between two\n"
    "  (with the Dice between a changed label map's versions); checkout writes a snapshot's\n"
    "  files, checked against their digests, into a new folder. Ids may be shortened to a\n"
    "  unique prefix of at least 4 characters.\n";

struct DatasetArgs {
  std::vector<std::string> positional;
  std::string root, message;
  bool json = false;
};

bool parseDatasetArgs(const Args& args, DatasetArgs& a) {
  for (std::size_t i = 1; i < args.size(); ++i) {
    const bool value = i + 1 < args.size();
    if (args[i] == "--root" && value) {
      a.root = args[++i];
    } else if (args[i] == "--message" && value) {
      a.message = args[++i];
    } else if (args[i] == "--json") {
      a.json = true;
    } else if (args[i].rfind("--", 0) == 0) {
      std::fprintf(stderr, "delineate-cli dataset: unknown option or missing value: %s\n",
                   args[i].c_str());
      return false;
    } else {
      a.positional.push_back(args[i]);
    }
  }
  return true;
}

void printDiff(const core::dataset::SnapshotDiff& d) {
  std::printf("from %s to %s\n", d.from.substr(0, 12).c_str(), d.to.substr(0, 12).c_str());
  for (const std::string& p : d.added) {
    std::printf("  added    %s\n", p.c_str());
  }
  for (const std::string& p : d.removed) {
    std::printf("  removed  %s\n", p.c_str());
  }
  for (const core::dataset::ChangedFile& c : d.changed) {
    std::printf("  changed  %s", c.path.c_str());
    for (const core::dataset::LabelChange& l : c.labels) {
      std::printf("  %s %.3f", l.name.empty() ? std::to_string(l.label).c_str() : l.name.c_str(),
                  l.dice);
    }
    if (!c.note.empty()) {
      std::printf("  (%s)", c.note.c_str());
    }
    std::printf("\n");
  }
}

}  // namespace

int runDataset(const Args& args) {
  DatasetArgs a;
  if (args.empty() || !parseDatasetArgs(args, a)) {
    std::fputs(kDatasetUsage, stderr);
    return 2;
  }
  const std::string& what = args[0];
  CliProgress progress;
  if (what == "snapshot" && a.positional.size() == 1) {
    const core::dataset::DatasetStore store(a.positional[0]);
    const auto taken = store.snapshot(a.message, progress);
    std::printf("%s\n", taken.id.c_str());
    if (!taken.changed) {
      std::fprintf(stderr, "unchanged since the latest snapshot: nothing added\n");
    }
    return 0;
  }
  if (a.root.empty()) {
    std::fputs(kDatasetUsage, stderr);
    return 2;
  }
  const core::dataset::DatasetStore store(a.root);
  if (what == "log" && a.positional.empty()) {
    const auto entries = store.log();
    if (a.json) {
      nlohmann::json list = nlohmann::json::array();
      for (const auto& e : entries) {
        list.push_back(
            {{"id", e.id}, {"parent", e.parent}, {"time", e.time}, {"message", e.message}});
      }
      std::printf("%s\n", list.dump(2).c_str());
    } else {
      for (const auto& e : entries) {
        std::printf("%s  %s  %s\n", e.id.substr(0, 12).c_str(), e.time.c_str(), e.message.c_str());
      }
    }
    return 0;
  }
  if (what == "diff" && a.positional.size() == 2) {
    const auto d = core::dataset::diffSnapshots(store, a.positional[0], a.positional[1], progress);
    if (a.json) {
      std::printf("%s\n", d.toJson().dump(2).c_str());
    } else {
      printDiff(d);
    }
    return 0;
  }
  if (what == "checkout" && a.positional.size() == 2) {
    store.checkout(a.positional[0], a.positional[1], progress);
    std::printf("%s\n", a.positional[1].c_str());
    return 0;
  }
  std::fputs(kDatasetUsage, stderr);
  return 2;
}

}  // namespace delineate::cli
