// delineate-server: a MONAI Label-compatible server backed by the built-in engine and a file
// datastore, for teams without a Python/GPU stack and for the client's tests.
//   delineate-server [--host 127.0.0.1] [--port 8000] [--datastore DIR]
//                    [--train-command "CMD"] [--train-model NAME]
//                    [--auth-users USERS.json [--token-lifetime S] [--refresh-lifetime S]]
//                    [--api-key KEY] [--max-sessions N] [--idle-timeout-seconds S]
//                    [--liveness-timeout-seconds S]
#include <signal.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>

#include "app/server/MonaiServer.h"
#include "core/Error.h"
#include "core/io/ItkInit.h"
#include "core/net/HttpServer.h"
#include "plugins/LinkedBackends.h"

#ifndef DELINEATE_VERSION
#define DELINEATE_VERSION "0.0.0"
#endif

using namespace delineate;

namespace {

int usage(const char* error) {
  if (error != nullptr) {
    std::fprintf(stderr, "delineate-server: %s\n", error);
  }
  std::fprintf(
      stderr,
      "usage: delineate-server --version\n"
      "       delineate-server [--host ADDRESS] [--port N] [--datastore DIR]\n"
      "                        [--train-command CMD] [--train-model NAME]\n"
      "                        [--labels NAME=VALUE,NAME=VALUE...]\n"
      "                        [--auth-users USERS.json [--token-lifetime SECONDS]\n"
      "                                                 [--refresh-lifetime SECONDS]]\n"
      "                        [--api-key KEY] [--max-sessions N]\n"
      "                        [--idle-timeout-seconds S] [--liveness-timeout-seconds S]\n"
      "Serves the MONAI Label API subset Delineate uses, Clara AIAA's v1 routes and\n"
      "nnInteractive's v2 routes, backed by the built-in engine.\n"
      "Listens on 127.0.0.1:8000 by default; --port 0 picks a free port (printed).\n"
      "--auth-users turns sign-in on: USERS.json is {\"users\": [{\"username\",\n"
      "\"password\", \"roles\": [\"monailabel-user\", ...]}]}; access tokens live 300 s and\n"
      "refresh tokens 1800 s unless told otherwise. Without it /auth/ answers 404.\n"
      "--labels declares the labels the datastore's cases carry and training learns\n"
      "(e.g. spleen=1,liver=2): clients check submitted labels against them.\n"
      "nnInteractive clients claim one of --max-sessions leases (default 3), reaped after\n"
      "--idle-timeout-seconds without a prompt (600) or --liveness-timeout-seconds\n"
      "without any request (60); --api-key (or NN_INTERACTIVE_API_KEY) makes them send\n"
      "Authorization: Bearer KEY.\n");
  return error != nullptr ? 2 : 0;
}

}  // namespace

int main(int argc, char** argv) {
  core::ensureItkInitialized();  // before the listener's threads can be the first to use ITK
  std::string host = "127.0.0.1";
  int port = 8000;
  server::ServerOptions options;
  server::AuthOptions auth;
  std::string usersFile;
  options.datastore = std::filesystem::path(std::getenv("HOME") ? std::getenv("HOME") : "/tmp") /
                      ".local/share/delineate/datastore";
  if (const char* key = std::getenv("NN_INTERACTIVE_API_KEY")) {
    options.nnInteractive.apiKey = key;
  }
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* { return i + 1 < argc ? argv[++i] : nullptr; };
    const char* v = nullptr;
    if (a == "--version") {
      std::printf("delineate-server %s\n", DELINEATE_VERSION);
      return 0;
    }
    if (a == "--help" || a == "-h") {
      return usage(nullptr);
    } else if (a == "--host" && (v = value())) {
      host = v;
    } else if (a == "--port" && (v = value())) {
      port = std::atoi(v);
    } else if (a == "--datastore" && (v = value())) {
      options.datastore = v;
    } else if (a == "--train-command" && (v = value())) {
      options.trainCommand = v;
    } else if (a == "--train-model" && (v = value())) {
      options.trainModel = v;
    } else if (a == "--labels" && (v = value())) {
      std::stringstream list(v);
      std::string item;
      while (std::getline(list, item, ',')) {
        const auto eq = item.rfind('=');
        const int label = eq == std::string::npos ? 0 : std::atoi(item.c_str() + eq + 1);
        if (eq == 0 || label <= 0 || label > 65535) {
          return usage(
              ("--labels needs NAME=VALUE pairs with values 1..65535, not '" + item + "'").c_str());
        }
        options.labels.emplace_back(item.substr(0, eq), label);
      }
    } else if (a == "--api-key" && (v = value())) {
      options.nnInteractive.apiKey = v;
    } else if (a == "--max-sessions" && (v = value())) {
      options.nnInteractive.leases.maxSessions = std::atoi(v);
      if (options.nnInteractive.leases.maxSessions <= 0) {
        return usage("--max-sessions needs a number above 0");
      }
    } else if ((a == "--idle-timeout-seconds" || a == "--liveness-timeout-seconds") &&
               (v = value())) {
      const double seconds = std::strtod(v, nullptr);
      if (!(seconds >= 0)) {
        return usage((a + " needs a number of seconds").c_str());
      }
      (a == "--idle-timeout-seconds" ? options.nnInteractive.leases.idleTimeoutSeconds
                                     : options.nnInteractive.leases.livenessTimeoutSeconds) =
          seconds;
    } else if (a == "--auth-users" && (v = value())) {
      usersFile = v;
    } else if ((a == "--token-lifetime" || a == "--refresh-lifetime") && (v = value())) {
      const long seconds = std::strtol(v, nullptr, 10);
      if (seconds <= 0) {
        return usage((a + " needs a number of seconds above 0").c_str());
      }
      (a == "--token-lifetime" ? auth.tokenLifetime : auth.refreshLifetime) =
          std::chrono::seconds(seconds);
    } else {
      return usage(("unknown or incomplete option " + a).c_str());
    }
  }
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);  // the listener's threads inherit the mask
  try {
    if (port == 0) {
      port = core::net::freeLocalPort();
    }
    if (!usersFile.empty()) {
      auth.users = server::readAuthUsers(usersFile);
      options.auth = auth;
    }
    // The built-in engine, from the backend registry the app and the CLI use too.
    server::MonaiServer app(plugins::linkedBackends().create("builtin", {}), options);
    const std::string address = "http://" + host + ":" + std::to_string(port);
    core::net::HttpServer http(address,
                               [&app](const core::net::ServerRequest& r) { return app.handle(r); });
    const std::string signIn =
        options.auth ? "sign-in required, " + std::to_string(auth.users.size()) + " user(s)"
                     : "no sign-in";
    std::printf(
        "delineate-server listening on %s (datastore %s, %s; nnInteractive: %d sessions, %s)\n",
        address.c_str(), options.datastore.c_str(), signIn.c_str(),
        options.nnInteractive.leases.maxSessions,
        options.nnInteractive.apiKey.empty() ? "no API key" : "API key required");
    std::fflush(stdout);
    int signal = 0;
    sigwait(&stop, &signal);
    std::printf("delineate-server: stopping (signal %d)\n", signal);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "delineate-server: %s\n", e.what());
    return 1;
  }
  return 0;
}
