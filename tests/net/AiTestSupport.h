#pragma once
// For the AI client tests: a synthetic image with a known structure, and delineate-server's
// handler running in this process behind a real HTTP listener on 127.0.0.1.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "TempDir.h"
#include "annotation/engine/LocalEngineBackend.h"
#include "app/server/MonaiServer.h"
#include "core/model/LabelMap.h"
#include "core/net/HttpServer.h"

namespace delineate::test {

// A 48x44x40 CT-like image (0.9 x 0.9 x 1.5 mm, oblique-free) with a bright ball (radius 9 mm)
// at `centreIndex()` in noisy soft tissue; `truth()` is the ball.
struct BallImage {
  BallImage();
  core::VolumePtr image;
  std::shared_ptr<core::LabelMap> truth;
  core::ai::VoxelIndex centre{24, 22, 20};
};

double dice(const core::LabelMap& a, const core::LabelMap& b);

class LocalServer {
 public:
  // `auth`: sign-in on with these users and token lifetimes (AuthGate); nullopt: off.
  explicit LocalServer(const std::filesystem::path& datastore, std::string trainCommand = {},
                       std::optional<server::AuthOptions> auth = std::nullopt);
  const std::string& url() const { return url_; }
  server::MonaiServer& app() { return *app_; }

 private:
  std::unique_ptr<server::MonaiServer> app_;
  std::string url_;
  std::unique_ptr<core::net::HttpServer> http_;
};

}  // namespace delineate::test
