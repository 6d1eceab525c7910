#include "core/dataset/SnapshotExport.h"

#include "core/Error.h"
#include "core/upload/CasePreparation.h"
#include "core/upload/DatasetCase.h"

namespace delineate::core::dataset {

namespace fs = std::filesystem;

namespace {

// Removes the scratch checkout however the export ends.
struct ScratchFolder {
  fs::path path;
  ~ScratchFolder() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

}  // namespace

ExportResult exportSnapshot(const DatasetStore& store, const std::string& idOrPrefix,
                            const fs::path& out, upload::DatasetLayout layout,
                            const std::string& name, const std::string& modality,
                            ProgressSink& progress) {
  std::error_code ec;
  if (fs::exists(out, ec) && !fs::is_empty(out, ec)) {
    throw Error(ErrorKind::InvalidInput, out.string(),
                "the folder is not empty: export into a new one");
  }
  const Snapshot snapshot = store.read(idOrPrefix);
  ScratchFolder scratch{out / ".snapshot-files"};
  SubProgress checkingOut(progress, 0, 0.3);
  store.checkout(snapshot.id, scratch.path, checkingOut);
  const std::vector<upload::DatasetCase> cases = upload::findDatasetCases(scratch.path);

  ExportResult result;
  result.snapshot = snapshot.id;
  upload::MsdDatasetWriter writer(
      out, name.empty() ? "snapshot " + snapshot.id.substr(0, 12) : name, modality, layout);
  writer.setField("dataset_snapshot", snapshot.id);
  upload::PrepareOptions options;
  for (std::size_t c = 0; c < cases.size(); ++c) {
    SubProgress one(progress, 0.3 + 0.7 * double(c) / double(cases.size()),
                    0.3 + 0.7 * double(c + 1) / double(cases.size()));
    const fs::path relative = fs::relative(cases[c].image, scratch.path, ec);
    const upload::PreparedCase prepared = upload::prepareCase(cases[c], options, one);
    if (!prepared.sendable() || !prepared.label) {
      std::string why = prepared.label ? "" : "no label";
      for (const upload::LintFinding& f : prepared.findings) {
        if (f.severity == upload::LintFinding::Severity::Error) {
          why += (why.empty() ? "" : "; ") + f.message;
        }
      }
      // The messages name the scratch copy; the user knows the file by its dataset path.
      std::string::size_type at;
      while ((at = why.find(scratch.path.string() + "/")) != std::string::npos) {
        why.erase(at, scratch.path.string().size() + 1);
      }
      result.skipped.push_back(relative.generic_string() + ": " + why);
      continue;
    }
    writer.add(prepared);
    ++result.cases;
  }
  progress.report(1.0, "Export");
  return result;
}

}  // namespace delineate::core::dataset
