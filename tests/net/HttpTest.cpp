// The HTTP layer against real sockets on 127.0.0.1: our server and client talking, and the
// failures a user meets (nothing listening, a name that does not resolve, a server that never
// answers, Cancel, TLS against a plain server), each with a message naming the server.
#include <gtest/gtest.h>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <atomic>

#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "core/Error.h"
#include "core/jobs/CancelToken.h"
#include "core/jobs/ProgressSink.h"
#include "core/net/HttpClient.h"
#include "core/net/HttpServer.h"

using namespace delineate::core;
using namespace delineate::core::net;

namespace {

using Clock = std::chrono::steady_clock;

// A socket that listens and never answers: connections complete (the kernel's backlog) and
// then nothing comes back.
class SilentServer {
 public:
  SilentServer() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(a);
    EXPECT_EQ(::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
    EXPECT_EQ(::listen(fd_, 8), 0);
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
  }
  ~SilentServer() { ::close(fd_); }
  std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }

 private:
  int fd_ = -1;
  int port_ = 0;
};

std::string expectNetworkError(const HttpRequest& request, ProgressSink& progress) {
  try {
    makeHttpClient()->send(request, progress);
  } catch (const CancelledError&) {
    throw;
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Network) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error for " << request.url;
  return {};
}

}  // namespace

TEST(Http, HeaderNamesMatchWhateverTheirCase) {
  EXPECT_EQ(headerValue({{"content-TYPE", "a/b"}}, "Content-Type"), "a/b");
  EXPECT_EQ(headerValue({{"X-Other", "c"}}, "Content-Type"), "");
}

TEST(Http, ClientAndServerExchangeBinaryBodiesWithTimings) {
  const int port = freeLocalPort();
  HttpServer server("http://127.0.0.1:" + std::to_string(port), [](const ServerRequest& r) {
    HttpResponse out;
    out.status = 200;
    out.headers = {{"Content-Type", "application/octet-stream"},
                   {"X-Seen", r.method + " " + r.path + " " + r.queryValue("image") + " " +
                                  r.header("Content-Type")}};
    out.body = r.body;
    std::reverse(out.body.begin(), out.body.end());
    return out;
  });
  HttpRequest request;
  request.method = "POST";
  request.url = "http://127.0.0.1:" + std::to_string(port) + "/infer/deepgrow?image=ct%201";
  request.contentType = "application/x-test";
  request.body.resize(1 << 20);
  for (std::size_t i = 0; i < request.body.size(); ++i) {
    request.body[i] = static_cast<char>(i * 7 % 251);  // every byte value, zeros included
  }
  NullProgress progress;
  const HttpResponse response = makeHttpClient()->send(request, progress);
  EXPECT_EQ(response.status, 200);
  EXPECT_EQ(response.header("x-seen"), "POST /infer/deepgrow ct 1 application/x-test");
  std::string expected = request.body;
  std::reverse(expected.begin(), expected.end());
  EXPECT_EQ(response.body, expected);
  EXPECT_EQ(response.timings.bytesSent, request.body.size());
  EXPECT_EQ(response.timings.bytesReceived, expected.size());
  EXPECT_GT(response.timings.totalSeconds, 0.0);
  EXPECT_LE(response.timings.uploadSeconds + response.timings.waitSeconds +
                response.timings.downloadSeconds,
            response.timings.totalSeconds + 1e-3);
}

TEST(Http, NothingListeningIsReportedWithTheServer) {
  const int port = freeLocalPort();
  HttpRequest request;
  request.url = "http://127.0.0.1:" + std::to_string(port) + "/info/";
  NullProgress progress;
  const std::string message = expectNetworkError(request, progress);
  EXPECT_NE(message.find("127.0.0.1:" + std::to_string(port)), std::string::npos) << message;
  EXPECT_NE(message.find("cannot connect"), std::string::npos) << message;
}

TEST(Http, ConnectionsAreKeptAndAServerThatWentAwayIsStillNamedSo) {
  const int port = freeLocalPort();
  const std::string url = "http://127.0.0.1:" + std::to_string(port) + "/info/";
  std::atomic<int> requests{0};
  auto server = std::make_unique<HttpServer>("http://127.0.0.1:" + std::to_string(port),
                                             [&requests](const ServerRequest&) {
                                               ++requests;
                                               HttpResponse out;
                                               out.status = 200;
                                               out.body = "{}";
                                               return out;
                                             });
  const auto client = makeHttpClient();
  HttpRequest request;
  request.url = url;
  NullProgress progress;
  const HttpResponse first = client->send(request, progress);
  EXPECT_GT(first.timings.connectSeconds, 0.0) << "the first request probes the server";
  const HttpResponse second = client->send(request, progress);
  EXPECT_EQ(second.status, 200);
  EXPECT_EQ(second.timings.connectSeconds, 0.0) << "it answered moments ago: no probe";
  EXPECT_EQ(requests.load(), 2);
  // The server goes away between two clicks: the message still says what happened.
  server.reset();
  try {
    client->send(request, progress);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot connect"), std::string::npos) << e.what();
  }
  // And it works again once the server is back.
  server = std::make_unique<HttpServer>("http://127.0.0.1:" + std::to_string(port),
                                        [](const ServerRequest&) {
                                          HttpResponse out;
                                          out.status = 200;
                                          return out;
                                        });
  EXPECT_EQ(client->send(request, progress).status, 200);
}

TEST(Http, ANameThatDoesNotResolveIsSaidSo) {
  HttpRequest request;
  request.url = "http://no-such-server.invalid:8000/info/";
  NullProgress progress;
  const std::string message = expectNetworkError(request, progress);
  EXPECT_NE(message.find("no-such-server.invalid"), std::string::npos) << message;
  EXPECT_NE(message.find("does not resolve"), std::string::npos) << message;
}

TEST(Http, AServerThatNeverAnswersTimesOut) {
  SilentServer silent;
  HttpRequest request;
  request.url = silent.url("/info/");
  request.timeout = std::chrono::milliseconds(700);
  NullProgress progress;
  const auto start = Clock::now();
  const std::string message = expectNetworkError(request, progress);
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - start).count(), 5.0);
  EXPECT_NE(message.find("no complete answer"), std::string::npos) << message;
}

TEST(Http, CancelStopsARequestInFlight) {
  SilentServer silent;
  HttpRequest request;
  request.url = silent.url("/infer/model");
  CancelToken token;
  NullProgress progress(token);
  std::thread canceller([token]() mutable {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    token.cancel();
  });
  const auto start = Clock::now();
  EXPECT_THROW(makeHttpClient()->send(request, progress), CancelledError);
  canceller.join();
  EXPECT_LT(std::chrono::duration<double>(Clock::now() - start).count(), 3.0);
}

TEST(Http, TlsAgainstAPlainServerFailsWithAClearMessage) {
  const int port = freeLocalPort();
  HttpServer server("http://127.0.0.1:" + std::to_string(port), [](const ServerRequest&) {
    HttpResponse out;
    out.status = 200;
    return out;
  });
  HttpRequest request;
  request.url = "https://127.0.0.1:" + std::to_string(port) + "/info/";
  request.timeout = std::chrono::milliseconds(5000);
  NullProgress progress;
  const std::string message = expectNetworkError(request, progress);
  EXPECT_NE(message.find("TLS"), std::string::npos) << message;
}
