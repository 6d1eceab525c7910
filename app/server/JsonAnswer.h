#pragma once
// A JSON answer of delineate-server (MONAI Label and Clara AIAA routes alike).
#include <nlohmann/json.hpp>

#include "core/net/Http.h"

namespace delineate::server {

inline core::net::HttpResponse jsonAnswer(int status, const nlohmann::json& body) {
  core::net::HttpResponse r;
  r.status = status;
  r.headers = {{"Content-Type", "application/json"}};
  r.body = body.dump();
  return r;
}

}  // namespace delineate::server
