#pragma once
// The project's own small HTTP vocabulary: requests and responses as plain values (binary-safe
// bodies), so that protocol code and tests never see the HTTP library underneath.
#include <chrono>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace delineate::core::net {

using Headers = std::vector<std::pair<std::string, std::string>>;

// Value of header `name` (case-insensitive), or empty.
std::string headerValue(const Headers& headers, const std::string& name);

struct HttpRequest {
  std::string method = "GET";
  std::string url;  // absolute: http(s)://host[:port]/path[?query]
  Headers headers;
  std::string contentType;  // of `body`
  std::string body;
  // Reaching the server (DNS + TCP connect); a server that does not accept within it is "down".
  std::chrono::milliseconds connectTimeout{5000};
  // The whole exchange (upload, server work, download). Inference on a CPU server takes minutes.
  std::chrono::milliseconds timeout{600000};
  // false: send on a connection of its own. cpprestsdk silently sends a request again when the
  // kept-alive connection it used fails before the answer's status line; for a request with side
  // effects (an upload) that could store it twice, so such requests do not share connections.
  bool reuseConnection = true;
};

// Where the time of one exchange went, as the client saw it.
struct HttpTimings {
  double connectSeconds = 0;   // name lookup + TCP connect (the reachability probe)
  double uploadSeconds = 0;    // request sent
  double waitSeconds = 0;      // request sent -> first byte of the answer
  double downloadSeconds = 0;  // first -> last byte of the answer
  double totalSeconds = 0;
  std::size_t bytesSent = 0;
  std::size_t bytesReceived = 0;
};

struct HttpResponse {
  int status = 0;
  std::string reason;
  Headers headers;
  std::string body;
  HttpTimings timings;

  std::string header(const std::string& name) const { return headerValue(headers, name); }
  std::string contentType() const { return header("Content-Type"); }
  bool ok() const { return status >= 200 && status < 300; }
};

}  // namespace delineate::core::net
