#include "core/metrics/DatasetPairing.h"

#include <algorithm>
#include <cctype>
#include <map>

#include "core/Error.h"

namespace delineate::core {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
  for (char& c : s) {
    c = char(std::tolower(static_cast<unsigned char>(c)));
  }
  return s;
}

void addFolder(const fs::path& folder, bool reference, std::map<std::string, CasePair>& cases) {
  std::error_code ec;
  fs::directory_iterator it(folder, ec);
  if (ec || !fs::is_directory(folder)) {
    throw Error(ErrorKind::Io, folder.string(),
                "cannot list the folder: " + (ec ? ec.message() : std::string("not a folder")));
  }
  for (const fs::directory_entry& entry : it) {
    if (!entry.is_regular_file(ec)) {
      continue;
    }
    const std::string name = caseNameOf(entry.path());
    if (name.empty()) {
      continue;
    }
    CasePair& c = cases[name];
    c.name = name;
    (reference ? c.reference : c.test).push_back(entry.path());
  }
}

}  // namespace

std::string caseNameOf(const fs::path& file) {
  const std::string name = file.filename().string();
  if (name.empty() || name.front() == '.') {
    return {};
  }
  const std::string low = lower(name);
  for (const char* ext : {".nii.gz", ".nii", ".nrrd", ".mha", ".dcm"}) {
    const std::string e = ext;
    if (low.size() > e.size() && low.ends_with(e)) {
      return name.substr(0, name.size() - e.size());
    }
  }
  return {};
}

std::vector<CasePair> pairCases(const fs::path& referenceFolder, const fs::path& testFolder) {
  std::map<std::string, CasePair> cases;
  addFolder(referenceFolder, true, cases);
  addFolder(testFolder, false, cases);
  std::vector<CasePair> out;
  out.reserve(cases.size());
  for (auto& [name, c] : cases) {
    std::sort(c.reference.begin(), c.reference.end());
    std::sort(c.test.begin(), c.test.end());
    out.push_back(std::move(c));
  }
  return out;
}

std::optional<fs::path> findCaseImage(const fs::path& labelFile) {
  const std::string name = caseNameOf(labelFile);
  if (name.empty()) {
    return std::nullopt;
  }
  const fs::path parent = labelFile.parent_path().parent_path();
  std::error_code ec;
  for (const char* folder : {"imagesTr", "imagesTs", "images"}) {
    for (const char* suffix : {"", "_0000"}) {
      for (const char* ext : {".nii.gz", ".nii", ".nrrd", ".mha"}) {
        const fs::path candidate = parent / folder / (name + suffix + ext);
        if (fs::is_regular_file(candidate, ec) && !fs::equivalent(candidate, labelFile, ec)) {
          return candidate;
        }
      }
    }
  }
  return std::nullopt;
}

}  // namespace delineate::core
