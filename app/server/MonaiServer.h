#pragma once
// The MONAI Label API subset our client uses, answered by the built-in engine (docs/ai.md,
// "delineate-server"):
//   GET  /info/                          app, models, strategies, trainers, datastore counts
//   POST /infer/{model}?image=|session_id=  form `params` (+ `file`): multipart params + image;
//                                        mammo_demo_detector: JSON only (MammoDetectorModel.h)
//   PUT/GET/DELETE /session/             an uploaded image kept for later clicks
//   GET  /datastore/?output=stats|all|train, PUT /datastore/image (`params` kept as its info),
//   PUT /datastore/label, GET|HEAD /datastore/image?image=, GET /datastore/label?label=&tag=,
//   HEAD /datastore/label?image=&tag=, DELETE /datastore/image?id=, DELETE
//   /datastore/label?id=&tag=, GET|PUT /datastore/image/info?image=, GET|PUT
//   /datastore/label/info?label=&tag= (PUT: form
//                                        field `info`, merged). Putting an id again replaces it.
//   POST /activelearning/{first|random}  the next image without a final label
//   POST /train/{model}, GET /train/, DELETE /train/   the configured training command; its
//                                        train_stats.json is /info/'s train_stats
//                                        (TrainingRunner.h)
//   /auth/ and bearer tokens on every route only when ServerOptions::auth is set (AuthGate.h)
// Clara AIAA v1 clients are served too (/v1/..., AiaaApi), and nnInteractive v2 clients
// (/claim, /set_image, /add_*_interaction, ..., NnInteractiveApi).
// Answers follow the real server's shapes, including its error shapes (JSON `detail`), so that
// the client's handling of a real server is exercised over HTTP by the tests. A request whose
// body is shorter than its Content-Length (the client went away) is refused before any route. No
// sockets here: handle() maps a request to a response, and main.cpp puts it behind
// core::net::HttpServer.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "app/server/AiaaApi.h"
#include "app/server/AuthGate.h"
#include "app/server/FileDatastore.h"
#include "app/server/NnInteractiveApi.h"
#include "app/server/SessionStore.h"
#include "app/server/TrainingRunner.h"
#include "core/ai/AiBackend.h"
#include "core/net/HttpServer.h"

namespace delineate::server {

struct ServerOptions {
  std::filesystem::path datastore;  // folder of the file datastore
  std::string trainCommand;         // empty: no training offered
  std::string trainModel = "local_deepgrow";
  std::optional<AuthOptions> auth;  // nullopt: no /auth/ routes, no tokens needed (the default)
  // The labels the datastore's cases are labelled with and training learns (name, value): the
  // app-level `labels` of /info/ and the trainer's, which clients check submitted labels against.
  // Empty: none declared (clients then fall back to the models' labels).
  std::vector<std::pair<std::string, int>> labels;
  // nnInteractive v2 routes on the same port (their own API key and leases; not behind `auth`).
  NnInteractiveOptions nnInteractive;
};

class MonaiServer {
 public:
  MonaiServer(std::shared_ptr<core::ai::AiBackend> backend, ServerOptions options);

  core::net::HttpResponse handle(const core::net::ServerRequest& request);

  SessionStore& sessions() { return sessions_; }
  FileDatastore& datastore() { return datastore_; }
  TrainingRunner& training() { return training_; }
  NnInteractiveApi& nnInteractive() { return nnInteractive_; }

 private:
  core::net::HttpResponse info();
  core::net::HttpResponse infer(const std::string& model, const core::net::ServerRequest& r);
  // mammo_demo_detector (JSON), or with `heatmap` mammo_demo_heatmap (JSON and its image).
  core::net::HttpResponse inferMammo(const core::net::ServerRequest& r, bool heatmap);
  // The image a request names by `session_id` or datastore `image` id, else the error answer.
  std::variant<core::VolumePtr, core::net::HttpResponse> namedImage(
      const core::net::ServerRequest& r, core::ProgressSink& progress);
  core::net::HttpResponse session(const std::string& rest, const core::net::ServerRequest& r);
  core::net::HttpResponse datastore(const std::string& rest, const core::net::ServerRequest& r);
  core::net::HttpResponse activeLearning(const std::string& strategy,
                                         const core::net::ServerRequest& r);
  core::net::HttpResponse train(const std::string& model, const core::net::ServerRequest& r);

  std::shared_ptr<core::ai::AiBackend> backend_;
  ServerOptions options_;
  SessionStore sessions_;
  FileDatastore datastore_;
  TrainingRunner training_;
  std::unique_ptr<AuthGate> auth_;  // null when auth is off
  AiaaApi aiaa_;  // the Clara AIAA v1 routes (/v1/...), on the same backend and sessions
  NnInteractiveApi nnInteractive_;  // /claim, /set_image, /add_*_interaction, ...
};

}  // namespace delineate::server
