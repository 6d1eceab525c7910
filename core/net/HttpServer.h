#pragma once
// A small HTTP server for delineate-server: every request is handed, whole, to one handler that
// returns the whole answer. Handlers run on the library's thread pool and may block (inference).
// Listens on 127.0.0.1 unless told otherwise.
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "core/net/Http.h"

namespace delineate::core::net {

struct ServerRequest {
  std::string method;
  std::string path;                          // decoded, without the query
  std::map<std::string, std::string> query;  // decoded
  Headers headers;
  std::string body;

  std::string header(const std::string& name) const { return headerValue(headers, name); }
  std::string queryValue(const std::string& key) const {
    const auto it = query.find(key);
    return it == query.end() ? std::string() : it->second;
  }
};

using RequestHandler = std::function<HttpResponse(const ServerRequest&)>;

class HttpServer {
 public:
  // `address` like "http://127.0.0.1:8000". Throws core::Error(Network) when it cannot listen.
  HttpServer(const std::string& address, RequestHandler handler);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  const std::string& address() const { return address_; }

 private:
  struct Impl;
  std::string address_;
  std::unique_ptr<Impl> impl_;
};

// A TCP port on 127.0.0.1 that nothing listens on right now (tests, `--port 0`).
int freeLocalPort();

}  // namespace delineate::core::net
