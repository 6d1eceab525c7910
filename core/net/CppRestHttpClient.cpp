// HttpClient over cpprestsdk (the only file of the client that includes it).
#include <cpprest/http_client.h>
#include <openssl/ssl.h>

#include <atomic>
#include <boost/asio/ssl.hpp>
#include <chrono>
#include <future>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>

#include "core/Error.h"
#include "core/net/HttpClient.h"
#include "core/net/TcpProbe.h"

namespace delineate::core::net {

namespace {

using Clock = std::chrono::steady_clock;
namespace http = web::http;

double secondsBetween(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

// What the callbacks of one exchange share with the waiting thread; kept alive by both.
struct Exchange {
  std::mutex mutex;
  std::optional<Clock::time_point> uploaded, firstByte;
  std::promise<HttpResponse> done;
};

std::string describeFailure(const std::string& what) {
  const bool tls = what.find("handshake") != std::string::npos ||
                   what.find("certificate") != std::string::npos ||
                   what.find("SSL") != std::string::npos || what.find("ssl") != std::string::npos;
  return tls ? "TLS failure (certificate not trusted or handshake refused): " + what
             : "the exchange failed: " + what;
}

class CppRestHttpClient : public HttpClient {
 public:
  explicit CppRestHttpClient(TlsOptions tls) : tls_(std::move(tls)) {}

  HttpResponse send(const HttpRequest& request, ProgressSink& progress) override {
    const auto start = Clock::now();
    web::uri uri;
    try {
      uri = web::uri(request.url);
    } catch (const std::exception& e) {
      throw Error(ErrorKind::InvalidInput, request.url,
                  "not a valid URL: " + std::string(e.what()));
    }
    const bool https = uri.scheme() == "https";
    if (!https && uri.scheme() != "http") {
      throw Error(ErrorKind::InvalidInput, request.url, "only http:// and https:// are supported");
    }
    const int port = uri.port() > 0 ? uri.port() : (https ? 443 : 80);
    const std::string server = uri.scheme() + "://" + uri.host() + ":" + std::to_string(port);
    HttpTimings timings;
    // The probe tells an unresolvable name, a refused connection and silence apart within the
    // connect timeout; a server that answered moments ago is not probed again (a click every
    // second would pay a TCP handshake each time).
    const bool probe = !answeredRecently(server);
    if (probe) {
      try {
        timings.connectSeconds = probeTcp(uri.host(), port, request.connectTimeout, progress);
      } catch (const CancelledError&) {
        throw;
      } catch (const Error& e) {
        throw Error(ErrorKind::Network, server, e.detail());
      }
    }
    const std::shared_ptr<http::client::http_client> client =
        request.reuseConnection ? clientFor(server, request.timeout)
                                : makeClient(server, request.timeout);
    http::http_request message(request.method);
    message.set_request_uri(uri.resource());
    for (const auto& [name, value] : request.headers) {
      message.headers().add(name, value);
    }
    if (!request.body.empty() || request.method == "POST" || request.method == "PUT") {
      message.set_body(std::vector<unsigned char>(request.body.begin(), request.body.end()));
      if (!request.contentType.empty()) {
        message.headers().set_content_type(request.contentType);
      }
    }
    auto exchange = std::make_shared<Exchange>();
    const std::size_t bodySize = request.body.size();
    message.set_progress_handler(
        [exchange, bodySize](http::message_direction::direction d, utility::size64_t bytes) {
          std::lock_guard lock(exchange->mutex);
          if (d == http::message_direction::upload && bytes >= bodySize && !exchange->uploaded) {
            exchange->uploaded = Clock::now();
          } else if (d == http::message_direction::download && bytes > 0 && !exchange->firstByte) {
            exchange->firstByte = Clock::now();
          }
        });

    pplx::cancellation_token_source cancel;
    auto future = exchange->done.get_future();
    client->request(message, cancel.get_token())
        .then([exchange](http::http_response r) {
          HttpResponse out;
          out.status = r.status_code();
          out.reason = r.reason_phrase();
          for (const auto& [name, value] : r.headers()) {
            out.headers.emplace_back(name, value);
          }
          const std::vector<unsigned char> body = r.extract_vector().get();
          out.body.assign(body.begin(), body.end());
          return out;
        })
        .then([exchange](pplx::task<HttpResponse> t) {
          try {
            exchange->done.set_value(t.get());
          } catch (...) {
            exchange->done.set_exception(std::current_exception());
          }
        });
    while (future.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
      if (progress.cancelled()) {
        cancel.cancel();
        future.wait_for(std::chrono::seconds(2));  // let cpprestsdk unwind; the state outlives us
        throw CancelledError();
      }
    }
    HttpResponse response;
    try {
      response = future.get();
      answered(server);
    } catch (const http::http_exception& e) {
      forget(server);
      const std::string what = e.what();
      if (what.find("timed out") != std::string::npos || e.error_code() == std::errc::timed_out) {
        throw Error(
            ErrorKind::Network, server,
            "no complete answer within " + std::to_string(request.timeout.count() / 1000) + " s");
      }
      explainUnprobed(probe, uri.host(), port, request, progress, server);
      throw Error(ErrorKind::Network, server, describeFailure(what));
    } catch (const pplx::task_canceled&) {
      forget(server);
      throw CancelledError();
    } catch (const std::exception& e) {
      forget(server);
      explainUnprobed(probe, uri.host(), port, request, progress, server);
      throw Error(ErrorKind::Network, server, describeFailure(e.what()));
    }
    const auto end = Clock::now();
    std::lock_guard lock(exchange->mutex);
    const auto requestStart = start + std::chrono::duration_cast<Clock::duration>(
                                          std::chrono::duration<double>(timings.connectSeconds));
    const auto uploaded = exchange->uploaded.value_or(requestStart);
    const auto firstByte = exchange->firstByte.value_or(end);
    timings.uploadSeconds = secondsBetween(requestStart, uploaded);
    timings.waitSeconds = secondsBetween(uploaded, firstByte);
    timings.downloadSeconds = secondsBetween(firstByte, end);
    timings.totalSeconds = secondsBetween(start, end);
    timings.bytesSent = bodySize;
    timings.bytesReceived = response.body.size();
    response.timings = timings;
    return response;
  }

 private:
  static constexpr std::chrono::seconds kRecent{10};

  // A request to a server that was not probed first failed: probe now, so that a server that
  // went away is named as such ("cannot connect", "no answer") rather than as a failed exchange.
  static void explainUnprobed(bool probed, const std::string& host, int port,
                              const HttpRequest& request, ProgressSink& progress,
                              const std::string& server) {
    if (probed) {
      return;
    }
    try {
      probeTcp(host, port, request.connectTimeout, progress);
    } catch (const CancelledError&) {
      throw;
    } catch (const Error& e) {
      throw Error(ErrorKind::Network, server, e.detail());
    }
  }

  // One cpprestsdk client per server and timeout, kept: its connections stay open between
  // requests (HTTP keep-alive, and no new TLS handshake per click).
  std::shared_ptr<http::client::http_client> clientFor(const std::string& server,
                                                       std::chrono::milliseconds timeout) {
    const std::string key = server + "|" + std::to_string(timeout.count());
    std::lock_guard lock(mutex_);
    auto& client = clients_[key];
    if (!client) {
      client = makeClient(server, timeout);
    }
    return client;
  }

  std::shared_ptr<http::client::http_client> makeClient(const std::string& server,
                                                        std::chrono::milliseconds timeout) const {
    http::client::http_client_config config;
    config.set_timeout(std::chrono::duration_cast<std::chrono::microseconds>(timeout));
    config.set_validate_certificates(true);
    if (!tls_.caFile.empty()) {
      const std::string ca = tls_.caFile;
      config.set_ssl_context_callback(
          [ca](boost::asio::ssl::context& context) { context.load_verify_file(ca); });
    }
    return std::make_shared<http::client::http_client>(web::uri(server), config);
  }

  bool answeredRecently(const std::string& server) {
    std::lock_guard lock(mutex_);
    const auto it = lastAnswer_.find(server);
    return it != lastAnswer_.end() && Clock::now() - it->second < kRecent;
  }

  void answered(const std::string& server) {
    std::lock_guard lock(mutex_);
    lastAnswer_[server] = Clock::now();
  }

  // After a failure: probe again next time, on fresh connections.
  void forget(const std::string& server) {
    std::lock_guard lock(mutex_);
    lastAnswer_.erase(server);
    for (auto it = clients_.begin(); it != clients_.end();) {
      it = it->first.rfind(server + "|", 0) == 0 ? clients_.erase(it) : std::next(it);
    }
  }

  TlsOptions tls_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<http::client::http_client>> clients_;
  std::map<std::string, Clock::time_point> lastAnswer_;
};

}  // namespace

std::unique_ptr<HttpClient> makeHttpClient(const TlsOptions& tls) {
  // OpenSSL must not clean itself up at exit: cpprestsdk's thread pool is torn down after
  // OpenSSL's exit handler, and a TLS connection it still frees then waits forever on a lock
  // OpenSSL has destroyed (the process hangs on quit after a failed HTTPS exchange). Called
  // before cpprestsdk first touches OpenSSL.
  static std::once_flag once;
  std::call_once(once, [] { OPENSSL_init_ssl(OPENSSL_INIT_NO_ATEXIT, nullptr); });
  return std::make_unique<CppRestHttpClient>(tls);
}

}  // namespace delineate::core::net
