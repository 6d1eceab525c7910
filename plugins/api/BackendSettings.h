#pragma once
// What the app knows about one configured AI backend and hands to a plugin's factory: where the
// server is, how to prove who we are, which certificates to trust and how long to wait. Qt-free,
// so that backends built from it stay Qt-free. A backend ignores what does not apply to it (the
// built-in engine has no URL).
#include <chrono>
#include <string>

#include "core/deid/OutboundPolicy.h"

namespace delineate::plugins {

struct BackendSettings {
  std::string url;     // e.g. https://gpu-box:8000; empty for a local engine
  std::string token;   // a fixed access token; empty: none, or the backend's own sign-in
  std::string caFile;  // PEM bundle trusted in addition to the system's; empty: system only
  std::chrono::milliseconds connectTimeout{5000};
  std::chrono::milliseconds infoTimeout{30000};  // may stall behind someone's inference
  std::chrono::milliseconds inferTimeout{600000};
  // What the server is trusted with (de-identify before sending, on by default). Appended last,
  // so that the fields above keep their place for a plugin built before it.
  core::deid::OutboundPolicy outbound;
  // Servers with sessions (MONAI Label, Clara AIAA): true, the image goes once into a session
  // and later requests refer to it; false, every request carries the image (one call, scripts).
  bool useSessions = true;
};

}  // namespace delineate::plugins
