#pragma once
// A raw-socket HTTP server on 127.0.0.1 that answers with whatever bytes a test scripts, per
// method and path: well-formed answers, error statuses, bodies that stop halfway, answers that
// never come. For the client's fault handling; the real server cannot misbehave on request.
#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace delineate::test {

struct FaultAction {
  std::string bytes;  // raw HTTP answer, status line included
  // Close the connection after this many bytes of `bytes` (npos: all of them).
  std::size_t cutAt = std::string::npos;
  bool hang = false;  // never answer (the connection stays open until the server goes)
};

// A complete answer with Content-Length.
FaultAction answer(int status, const std::string& contentType, const std::string& body,
                   const std::string& extraHeaders = {});
// An answer whose end is the closing of the connection (no Content-Length), cut after `keep`
// bytes of the body.
FaultAction closeAfter(int status, const std::string& contentType, const std::string& body,
                       std::size_t keep);

class FaultServer {
 public:
  using Script = std::function<FaultAction(const std::string& method, const std::string& path)>;
  explicit FaultServer(Script script);
  ~FaultServer();
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  // "METHOD /path?query" of each request received, in order.
  std::vector<std::string> requests();

 private:
  void serve();
  void handle(int client);

  Script script_;
  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  std::vector<std::string> requests_;
  std::vector<int> open_;
  std::thread thread_;
};

}  // namespace delineate::test
