// delineate-cli dataset: versions of a dataset folder (core/dataset, docs/datasets.md):
// snapshot (whole or in shards), log, show, diff, checkout, export.
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "CliProgress.h"
#include "Commands.h"
#include "core/dataset/DatasetStore.h"
#include "core/dataset/SnapshotDiff.h"
#include "core/dataset/SnapshotExport.h"
#include "core/jobs/Shard.h"

namespace delineate::cli {

namespace {

constexpr const char* kDatasetUsage =
    "usage: delineate-cli dataset snapshot DIR [--message TEXT]\n"
    "       delineate-cli dataset snapshot DIR --shard K/N --part PART_K.json\n"
    "       delineate-cli dataset snapshot DIR --merge PART_1.json ... PART_N.json [--message "
    "TEXT]\n"
    "       delineate-cli dataset log --root DIR [--json]\n"
    "       delineate-cli dataset show ID --root DIR [--json]\n"
    "       delineate-cli dataset diff A B --root DIR [--json]\n"
    "       delineate-cli dataset checkout ID OUT --root DIR\n"
    "       delineate-cli dataset export ID OUT --root DIR [--format msd|nnunet]\n"
    "           [--name NAME] [--modality CT|MRI|...]\n"
    "  snapshot keeps every file of DIR (content-addressed, in DIR/.delineate-snapshots) and\n"
    "  prints the snapshot id: the same content always gives the same id. log lists the\n"
    "  snapshots, latest first; show lists a snapshot's files and, for each label map with a\n"
    "  correction record beside it, where it came from (AI backend and model, clicks, strokes,\n"
    "  editing time, the Dice between the proposal and the final label); diff names the files "
    "added, removed and changed between two\n"
    "  (with the Dice between a changed label map's versions); checkout writes a snapshot's\n"
    "  files, checked against their digests, into a new folder; export writes a snapshot's\n"
    "  cases as a training dataset (Medical Segmentation Decathlon or nnU-Net v2 layout, image\n"
    "  identity fields cleared, dataset.json naming the snapshot). Ids may be shortened to a\n"
    "  unique prefix of at least 4 characters. A large dataset is snapshotted in N shards (N\n"
    "  processes or machines on the same folder): shard K hashes and stores the files at\n"
    "  positions K, K+N, ... of the path order and writes its list to PART_K.json; --merge\n"
    "  records the snapshot from all N lists, with the id one process gives.\n";

struct DatasetArgs {
  std::vector<std::string> positional, merge;
  std::string root, message, shard, part, format = "msd", name, modality;
  bool json = false;
};

bool parseDatasetArgs(const Args& args, DatasetArgs& a) {
  for (std::size_t i = 1; i < args.size(); ++i) {
    const bool value = i + 1 < args.size();
    if (args[i] == "--root" && value) {
      a.root = args[++i];
    } else if (args[i] == "--message" && value) {
      a.message = args[++i];
    } else if (args[i] == "--shard" && value) {
      a.shard = args[++i];
    } else if (args[i] == "--format" && value) {
      a.format = args[++i];
    } else if (args[i] == "--modality" && value) {
      a.modality = args[++i];
    } else if (args[i] == "--name" && value) {
      a.name = args[++i];
    } else if (args[i] == "--part" && value) {
      a.part = args[++i];
    } else if (args[i] == "--merge") {
      while (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) {
        a.merge.push_back(args[++i]);
      }
      if (a.merge.empty()) {
        return false;
      }
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
  if (what == "snapshot" && a.positional.size() == 1 && !a.shard.empty()) {
    const std::optional<core::Shard> shard = core::parseShard(a.shard);
    if (!shard || a.part.empty() || !a.merge.empty()) {
      std::fprintf(stderr, "delineate-cli dataset: --shard wants K/N (1 <= K <= N) and --part\n");
      return 2;
    }
    const core::dataset::DatasetStore store(a.positional[0]);
    const auto part = store.snapshotShard(shard->index, shard->count, progress);
    std::ofstream out(a.part, std::ios::binary | std::ios::trunc);
    out << part.toJson().dump(1) << "\n";
    if (!out.flush()) {
      std::fprintf(stderr, "delineate-cli dataset: %s: cannot write it\n", a.part.c_str());
      return 1;
    }
    std::printf("shard %s: %zu of %zu files\n", core::shardText(*shard).c_str(), part.files.size(),
                part.listed);
    return 0;
  }
  if (what == "snapshot" && a.positional.size() == 1 && !a.merge.empty()) {
    std::vector<core::dataset::DatasetStore::ShardPart> parts;
    for (const std::string& file : a.merge) {
      std::ifstream in(file, std::ios::binary);
      const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
      if (!in.is_open() || j.is_discarded()) {
        std::fprintf(stderr, "delineate-cli dataset: %s: not a snapshot shard (not JSON)\n",
                     file.c_str());
        return 1;
      }
      parts.push_back(core::dataset::DatasetStore::ShardPart::fromJson(j, file));
    }
    const core::dataset::DatasetStore store(a.positional[0]);
    const auto taken = store.snapshotFromShards(parts, a.message, progress);
    std::printf("%s\n", taken.id.c_str());
    if (!taken.changed) {
      std::fprintf(stderr, "unchanged since the latest snapshot: nothing added\n");
    }
    return 0;
  }
  if (what == "snapshot" && a.positional.size() == 1 && a.part.empty()) {
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
  if (what == "show" && a.positional.size() == 1) {
    const core::dataset::Snapshot s = store.read(a.positional[0]);
    if (a.json) {
      nlohmann::json files = nlohmann::json::array();
      for (const auto& f : s.files) {
        files.push_back({{"path", f.path}, {"sha256", f.sha256}, {"bytes", f.bytes}});
      }
      nlohmann::json provenance = nlohmann::json::array();
      for (const auto& p : s.provenance) {
        provenance.push_back(p.toJson());
      }
      std::printf("%s\n", nlohmann::json{{"id", s.id}, {"files", files}, {"provenance", provenance}}
                              .dump(2)
                              .c_str());
      return 0;
    }
    std::printf("snapshot %s: %zu files\n", s.id.c_str(), s.files.size());
    for (const auto& f : s.files) {
      std::printf("  %s  %s  %ju bytes\n", f.sha256.substr(0, 12).c_str(), f.path.c_str(), f.bytes);
    }
    for (const auto& p : s.provenance) {
      std::printf("%s\n", p.labelFile.c_str());
      if (!p.problem.empty()) {
        std::printf("  %s unreadable: %s\n",
                    p.recordFile.empty() ? p.adjudicationFile.c_str() : p.recordFile.c_str(),
                    p.problem.c_str());
        continue;
      }
      if (!p.recordFile.empty()) {
        if (!p.reader.empty()) {
          std::printf("  reader %s\n", p.reader.c_str());
        }
        if (p.backend.empty()) {
          std::printf("  drawn by hand; saved %s\n", p.savedAt.c_str());
        } else {
          std::printf("  AI: %s, model %s%s; accepted %s, saved %s\n", p.backend.c_str(),
                      p.model.c_str(),
                      p.modelVersion.empty() ? "" : (" version " + p.modelVersion).c_str(),
                      p.acceptedAt.c_str(), p.savedAt.c_str());
        }
        std::printf("  corrected with %d clicks and %d strokes in %.0f s of editing\n", p.clicks,
                    p.strokes, p.activeEditingSeconds);
        for (const auto& [segment, dice] : p.segmentDice) {
          std::printf("  %s: Dice proposal -> final %.3f\n", segment.c_str(), dice);
        }
      }
      if (!p.deidentificationFile.empty()) {
        std::printf("  de-identified: %s (%s)\n", p.deidentification.c_str(),
                    p.deidentificationFile.c_str());
      }
      if (!p.adjudicationFile.empty()) {
        std::string readers, kept;
        for (std::size_t r = 0; r < p.readers.size(); ++r) {
          const bool tools = r < p.readerTools.size() && !p.readerTools[r].empty();
          readers += (readers.empty() ? "" : "; ") + p.readers[r] +
                     (tools ? " (" + p.readerTools[r] + ")" : "");
        }
        for (const auto& [source, n] : p.regionSources) {
          kept += (kept.empty() ? "" : "; ") + source + " " + std::to_string(n);
        }
        std::printf("  adjudicated by %s, signed %s; readers %s; regions kept: %s\n",
                    p.reviewer.c_str(), p.signedAt.c_str(), readers.c_str(),
                    kept.empty() ? "none" : kept.c_str());
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
  if (what == "export" && a.positional.size() == 2) {
    if (a.format != "msd" && a.format != "nnunet") {
      std::fprintf(stderr, "delineate-cli dataset: --format is msd or nnunet, not %s\n",
                   a.format.c_str());
      return 2;
    }
    const auto layout = a.format == "nnunet" ? core::upload::DatasetLayout::NnUnet
                                             : core::upload::DatasetLayout::Msd;
    const auto r = core::dataset::exportSnapshot(store, a.positional[0], a.positional[1], layout,
                                                 a.name, a.modality, progress);
    for (const std::string& s : r.skipped) {
      std::fprintf(stderr, "skipped %s\n", s.c_str());
    }
    std::printf("%d cases of snapshot %s written to %s (%s)\n", r.cases,
                r.snapshot.substr(0, 12).c_str(), a.positional[1].c_str(), a.format.c_str());
    return r.cases > 0 ? 0 : 1;
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
