#pragma once
// A TCP proxy on 127.0.0.1 in front of a real HTTP server that spoils some exchanges on purpose:
// it cuts a request halfway (the server must not keep it), cuts an answer after the server has
// acted on the request (the case that tempts a client into sending twice), answers 5xx or 429
// itself, or delays the request. The fault of each request is drawn from a seeded std::mt19937,
// so a seed replays the same sequence for the same sequence of requests.
//
// It speaks just enough HTTP/1.1 to find where each request and answer ends (Content-Length,
// chunked, or the end of the connection), so every request on a kept-alive connection gets its
// own draw. Connections that close without sending a byte (the client's reachability probe)
// draw nothing.
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <list>
#include <mutex>
#include <optional>
#include <ostream>
#include <random>
#include <string>
#include <thread>
#include <vector>

namespace delineate::test {

enum class ProxyFault {
  Pass,             // forwarded untouched
  Latency,          // forwarded untouched after a wait
  ResetRequest,     // part of the request forwarded, then both connections reset (RST)
  ResetResponse,    // request forwarded whole, part of the answer returned, then RST
  ServerError,      // 500, 502 or 503 answered by the proxy; nothing forwarded
  TooManyRequests,  // 429 with Retry-After answered by the proxy; nothing forwarded
};
constexpr std::size_t kProxyFaultKinds = 6;
const char* toString(ProxyFault fault);
// For GoogleTest's messages.
inline void PrintTo(ProxyFault fault, std::ostream* os) {
  *os << toString(fault);
}

// Probability of each fault per request; whatever is left up to 1 passes untouched. When the
// probabilities add up to more than 1 the later kinds (in declaration order) get what remains.
struct FaultMix {
  double resetRequest = 0;
  double resetResponse = 0;
  double serverError = 0;
  double tooManyRequests = 0;
  double latency = 0;
  std::chrono::milliseconds latencyMin{20};  // the wait of a Latency fault, drawn uniformly
  std::chrono::milliseconds latencyMax{100};
  int retryAfterSeconds = 1;  // the Retry-After value of a 429
  // Where a reset falls, as a fraction of the message (0: before its first byte; a request
  // keeps at least one byte either side of the cut); nullopt: drawn per request.
  std::optional<double> cutAt;

  // Every request passes.
  static FaultMix none() { return {}; }
  // Every request gets `fault`.
  static FaultMix only(ProxyFault fault);
};

// How many of each fault were injected, counted just before the client can notice it (a Pass
// when its answer is handed on).
struct FaultCounts {
  int requests = 0;  // requests whose fault was drawn
  std::array<int, kProxyFaultKinds> injected{};
  int operator[](ProxyFault f) const { return injected[static_cast<std::size_t>(f)]; }
};

class FaultProxy {
 public:
  // `upstream`: http://host:port of the real server (a path is ignored).
  FaultProxy(const std::string& upstream, FaultMix mix, std::uint32_t seed);
  // Stops accepting, breaks off the exchanges in flight and joins every thread.
  ~FaultProxy();
  FaultProxy(const FaultProxy&) = delete;
  FaultProxy& operator=(const FaultProxy&) = delete;

  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

  // Applies to requests whose fault is drawn from now on (e.g. none() for a clean check).
  void setMix(const FaultMix& mix);
  FaultCounts counts() const;
  // The fault drawn for each request so far, in the order they were drawn.
  std::vector<ProxyFault> history() const;

 private:
  // What one request gets; drawn whole (a fixed number of draws per request) so that the
  // sequence does not depend on the sizes or timing of the exchanges.
  struct Decision {
    ProxyFault fault = ProxyFault::Pass;
    double cut = 0;  // where a reset falls, as a fraction of the message
    int status = 0;  // of a ServerError
    std::chrono::milliseconds wait{0};
    int retryAfterSeconds = 1;
  };
  struct Worker {
    std::thread thread;
    std::atomic<bool> done{false};
  };

  void acceptLoop();
  void serve(int client);
  Decision decide();
  void injected(ProxyFault fault) { counts_[static_cast<std::size_t>(fault)].fetch_add(1); }

  std::string upstreamHost_;
  std::string upstreamPort_;
  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};

  mutable std::mutex mutex_;  // guards mix_, rng_, history_
  FaultMix mix_;
  std::mt19937 rng_;
  std::vector<ProxyFault> history_;
  std::array<std::atomic<int>, kProxyFaultKinds> counts_{};

  std::list<Worker> workers_;  // touched by the accept thread only, then by the destructor
  std::thread acceptor_;
};

}  // namespace delineate::test
