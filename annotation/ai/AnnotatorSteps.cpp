#include "annotation/ai/AnnotatorSteps.h"

#include <filesystem>
#include <fstream>

#include "annotation/ai/ServerLabelSchema.h"

namespace delineate::annotation {

namespace {

// The server's path is of use only when this machine sees the same file (a shared disk).
bool readableHere(const std::string& path) {
  if (path.empty()) {
    return false;
  }
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return false;
  }
  return std::ifstream(path, std::ios::binary).good();
}

}  // namespace

std::string serverFileSuffix(const std::string& serverPath) {
  const std::string name = std::filesystem::path(serverPath).filename().string();
  const auto dot = name.find('.', 1);
  if (dot == std::string::npos) {
    return ".nii.gz";
  }
  const std::string last = std::filesystem::path(name).extension().string();
  if (last == ".gz" || last == ".bz2") {
    const std::string inner = std::filesystem::path(name).stem().extension().string();
    return inner.empty() ? ".nii.gz" : inner + last;
  }
  return last;
}

std::string safeFileName(const std::string& id) {
  std::string out;
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_' || (c == '.' && !out.empty());
    out += ok ? c : '_';
  }
  return out.empty() ? std::string("image") : out;
}

std::optional<FetchedSample> fetchNextSample(core::ai::AiBackend& server,
                                             const std::string& strategy, const std::string& folder,
                                             bool withOriginal, core::ProgressSink& progress) {
  core::SubProgress ask(progress, 0, 0.1);
  const auto next = server.nextSample(strategy, ask);
  if (!next) {
    return std::nullopt;  // every image has a final label
  }
  FetchedSample f;
  f.id = next->id;
  const std::string suffix = serverFileSuffix(next->path);
  if (readableHere(next->path)) {
    f.image = next->path;
  } else {
    core::SubProgress download(progress, 0.1, withOriginal ? 0.8 : 1.0);
    download.report(0, "downloading the image");
    f.image = folder + "/" + safeFileName(f.id) + suffix;
    server.fetchImage(f.id, f.image, download);
    f.downloaded = true;
  }
  if (withOriginal) {
    core::SubProgress label(progress, 0.8, 1.0);
    label.report(0, "downloading the original label");
    const std::string path = folder + "/" + safeFileName(f.id) + ".original" + suffix;
    if (server.fetchLabel(f.id, "original", path, label)) {
      f.original = path;
    }
  }
  return f;
}

void submitFinalLabel(core::ai::AiBackend& server, const core::LabelMap& labels,
                      const std::vector<core::ai::ModelLabel>& schema, const std::string& id,
                      const std::string& where, core::ProgressSink& progress) {
  core::SubProgress match(progress, 0, 0.3);
  const auto mapped = labelsForServer(labels, schema, where, match);
  core::SubProgress send(progress, 0.3, 1.0);
  send.report(0, "sending");
  server.submitLabel(id, *mapped, "final", send);
}

nlohmann::json trainingRequest(const std::vector<std::string>& snapshots) {
  nlohmann::json config = nlohmann::json::object();
  if (snapshots.size() == 1) {
    config["dataset_snapshot"] = snapshots.front();
  } else if (!snapshots.empty()) {
    config["dataset_snapshot"] = snapshots;
  }
  return config;
}

}  // namespace delineate::annotation
