#pragma once
// The nnInteractive v2 client (docs/ai-protocol.md, "nnInteractive v2"), Qt-free. One lease per
// backend: claimed on first use, kept alive by a heartbeat thread, released on destruction. The
// image goes once per lease (set_image, then set_target_buffer); each new click or prompt is one
// add_* call whose answer (the changed region of the server's buffer) is pasted into a local
// copy of that buffer, which becomes the proposal. Requests whose prompts are not the ones sent
// plus new ones (a click taken back in the app, another image or label) start over with
// reset_interactions. A lease the server dropped (410) is claimed again and the image and every
// prompt sent again; the result's params say so ("lease_renewed"). 401 names a bad API key,
// 503 a full server (with its Retry-After).
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/ai/AiBackend.h"
#include "core/deid/OutboundPolicy.h"
#include "core/net/HttpClient.h"

namespace delineate::plugins {

struct NnInteractiveConfig {
  std::string url;     // e.g. http://gpu-box:1527
  std::string apiKey;  // sent as Authorization: Bearer KEY when not empty
  core::net::TlsOptions tls;
  std::chrono::milliseconds connectTimeout{10000};
  std::chrono::milliseconds readTimeout{60000};       // prompts, undo, small calls
  std::chrono::milliseconds setImageTimeout{600000};  // the upload and the server's preprocessing
  core::deid::OutboundPolicy outbound;
};

class NnInteractiveBackend : public core::ai::AiBackend {
 public:
  static constexpr const char* kModel = "nninteractive";

  explicit NnInteractiveBackend(NnInteractiveConfig config,
                                std::unique_ptr<core::net::HttpClient> http = nullptr);
  ~NnInteractiveBackend() override;

  std::string displayName() const override;
  // One model, "nninteractive" (type deepgrow: clicks), described with the server's licence.
  core::ai::ServerInfo info(core::ProgressSink& progress) override;
  core::ai::InferResult infer(const core::ai::InferRequest& request,
                              core::ProgressSink& progress) override;
  // From the server's /capabilities once read (info() or the first infer), else the protocol's
  // defaults (points, 2-D boxes, scribbles, lassos); server undo when it says so.
  core::ai::BackendCapabilities capabilities() const override;
  core::ai::InferResult undoLastPrompt(core::ProgressSink& progress) override;
  // The server's static API key travels as the access token (the app keeps it in the keychain
  // and hands it over once read); nnInteractive has no sign-in of its own.
  core::ai::SignInTokens signInTokens() const override;
  void setSignInTokens(const core::ai::SignInTokens& tokens) override;

  // The lease held now (empty when none): tests and diagnostics.
  std::string leaseToken() const;

 private:
  struct Answer;
  core::net::HttpResponse call(const std::string& method, const std::string& path,
                               const std::string& contentType, std::string body,
                               const std::string& meta, std::chrono::milliseconds timeout,
                               core::ProgressSink& progress);
  core::net::HttpResponse checked(core::net::HttpResponse r, const std::string& what);
  void readCapabilities(core::ProgressSink& progress);
  void claim(core::ProgressSink& progress);
  void releaseLease();
  void sendImage(core::ProgressSink& progress);
  void sendPrompt(const core::ai::Prompt& prompt, core::ProgressSink& progress);
  // POST /add_initial_seg_interaction with the whole mask; the buffer starts from it.
  void sendInitialMask(const std::vector<std::uint8_t>& mask, core::ProgressSink& progress);
  void pasteAnswer(const core::net::HttpResponse& r, const std::string& what);
  void heartbeatLoop();
  core::ai::InferResult proposal(const std::string& label) const;

  NnInteractiveConfig config_;
  std::unique_ptr<core::net::HttpClient> http_;
  mutable std::mutex mutex_;  // one call at a time; guards everything below
  std::string lease_;
  double livenessSeconds_ = 0;
  // The server's /capabilities, guarded by its own mutex: capabilities() is asked on the GUI
  // thread and must not wait behind a call holding mutex_ (an upload can take minutes).
  mutable std::mutex capsMutex_;
  nlohmann::json capabilities_;
  nlohmann::json capabilitiesJson() const;
  core::VolumePtr image_;               // the image the server holds for this lease
  std::vector<std::uint8_t> buffer_;    // the server's target buffer, x fastest
  std::vector<core::ai::Prompt> sent_;  // the prompts behind buffer_, in order
  // The structure sent as the initial segmentation before sent_ (null: none).
  std::shared_ptr<const std::vector<std::uint8_t>> sentInitial_;
  std::string label_;
  bool leaseRenewed_ = false;
  core::ai::InferTimings timings_;  // of the calls since the current infer began
  // Heartbeat.
  std::mutex beatMutex_;
  std::condition_variable beatWake_;
  bool stopping_ = false;
  std::string beatLease_;  // what the heartbeat sends, guarded by beatMutex_
  std::string beatKey_;
  std::thread beat_;
};

}  // namespace delineate::plugins
