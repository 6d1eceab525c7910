#include "core/ai/AiBackend.h"

#include <algorithm>

#include "core/Error.h"

namespace delineate::core::ai {

namespace {

[[noreturn]] void unsupported(const AiBackend& backend, const char* what) {
  throw Error(ErrorKind::Unsupported, backend.displayName(),
              std::string(what) + " is not offered by this backend");
}

}  // namespace

bool BackendCapabilities::takes(PromptKind kind) const {
  return std::find(promptKinds.begin(), promptKinds.end(), kind) != promptKinds.end();
}

BackendCapabilities AiBackend::capabilities() const {
  return {};
}

InferResult AiBackend::undoLastPrompt(ProgressSink&) {
  unsupported(*this, "taking a prompt back on the server");
}

std::string AiBackend::uploadImage(const Volume&, const std::string&, ProgressSink&) {
  unsupported(*this, "uploading images");
}
void AiBackend::submitLabel(const std::string&, const LabelMap&, const std::string&,
                            ProgressSink&) {
  unsupported(*this, "submitting labels");
}
std::string AiBackend::putImageFile(const std::string&, const DatastoreFile&, ProgressSink&) {
  unsupported(*this, "uploading images");
}
void AiBackend::putLabelFile(const std::string&, const std::string&, const DatastoreFile&,
                             ProgressSink&) {
  unsupported(*this, "submitting labels");
}
std::optional<nlohmann::json> AiBackend::imageInfo(const std::string&, ProgressSink&) {
  unsupported(*this, "reading the datastore");
}
std::optional<nlohmann::json> AiBackend::labelInfo(const std::string&, const std::string&,
                                                   ProgressSink&) {
  unsupported(*this, "reading the datastore");
}
nlohmann::json AiBackend::datastoreObjects(ProgressSink&) {
  unsupported(*this, "listing the datastore");
}
std::optional<NextSample> AiBackend::nextSample(const std::string&, ProgressSink&) {
  unsupported(*this, "active learning");
}
void AiBackend::fetchImage(const std::string&, const std::string&, ProgressSink&) {
  unsupported(*this, "downloading images");
}
bool AiBackend::fetchLabel(const std::string&, const std::string&, const std::string&,
                           ProgressSink&) {
  unsupported(*this, "downloading labels");
}
TrainStatus AiBackend::startTraining(const std::string&, const nlohmann::json&, ProgressSink&) {
  unsupported(*this, "training");
}
TrainStatus AiBackend::trainingStatus(ProgressSink&) {
  unsupported(*this, "training");
}
void AiBackend::stopTraining(ProgressSink&) {
  unsupported(*this, "training");
}

bool AiBackend::signInEnabled(ProgressSink&) {
  return false;
}
SignInTokens AiBackend::signIn(const std::string&, const std::string&, ProgressSink&) {
  unsupported(*this, "signing in");
}
SignInTokens AiBackend::signInTokens() const {
  return {};
}
void AiBackend::setSignInTokens(const SignInTokens&) {}

}  // namespace delineate::core::ai
