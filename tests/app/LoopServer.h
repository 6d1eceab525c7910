#pragma once
// The MONAI Label server the annotator loop's tests talk to: delineate-server's handler behind a
// listener on 127.0.0.1, with the faults those tests need (a slow or failing training status, an
// active learning answer from another machine, a server that goes away).
#include <QString>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "annotation/engine/LocalEngineBackend.h"
#include "app/server/MonaiServer.h"
#include "core/net/HttpServer.h"

namespace delineate::test {

// delineate-server's handler behind a listener on 127.0.0.1. `remote`: the image paths its
// active learning reports are rewritten to a folder this machine does not have, as a server on
// another machine would report them.
class LoopServer {
 public:
  LoopServer(const std::filesystem::path& datastore, std::string trainCommand, bool remote = false)
      : remote_(remote) {
    server::ServerOptions options;
    options.datastore = datastore;
    options.trainCommand = std::move(trainCommand);
    app_ = std::make_unique<server::MonaiServer>(std::make_shared<annotation::LocalEngineBackend>(),
                                                 options);
    url_ = QStringLiteral("http://127.0.0.1:%1").arg(core::net::freeLocalPort());
    http_ = std::make_unique<core::net::HttpServer>(
        url_.toStdString(), [this](const core::net::ServerRequest& r) {
          if (r.method == "GET" && r.path == "/train/" && failingStatuses_ > 0) {
            --failingStatuses_;
            core::net::HttpResponse busy;
            busy.status = 503;
            busy.headers = {{"Content-Type", "text/plain"}};
            busy.body = "Service Unavailable";
            return busy;
          }
          core::net::HttpResponse answer = app_->handle(r);
          if (r.method == "GET" && r.path == "/train/" && firstStatusDelayMs_ > 0) {
            std::this_thread::sleep_for(std::chrono::milliseconds(firstStatusDelayMs_.exchange(0)));
          }
          if (remote_ && r.path.rfind("/activelearning/", 0) == 0) {
            nlohmann::json body = nlohmann::json::parse(answer.body);
            if (body.contains("path")) {
              body["path"] =
                  "/srv/elsewhere/datastore/images/" +
                  std::filesystem::path(body["path"].get<std::string>()).filename().string();
              answer.body = body.dump();
            }
          }
          return answer;
        });
  }
  const QString& url() const { return url_; }
  server::MonaiServer& app() { return *app_; }
  // The server goes away (its port no longer answers).
  void stop() { http_.reset(); }
  // The next training status is answered only after `ms`, with what was true when it was asked.
  void delayNextStatus(int ms) { firstStatusDelayMs_ = ms; }
  // The next `n` training statuses fail (503), as polls do while a MONAI Label server runs a
  // long inference.
  void failNextStatuses(int n) { failingStatuses_ = n; }

 private:
  bool remote_;
  std::atomic<int> failingStatuses_{0};
  std::atomic<int> firstStatusDelayMs_{0};
  std::unique_ptr<server::MonaiServer> app_;
  QString url_;
  std::unique_ptr<core::net::HttpServer> http_;
};

}  // namespace delineate::test
