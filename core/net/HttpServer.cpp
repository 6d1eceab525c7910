// HttpServer over cpprestsdk's http_listener (the only file of the server that includes it).
#include "core/net/HttpServer.h"

#include <arpa/inet.h>
#include <cpprest/http_listener.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>

#include "core/Error.h"

namespace delineate::core::net {

namespace http = web::http;

struct HttpServer::Impl {
  std::unique_ptr<http::experimental::listener::http_listener> listener;
};

namespace {

ServerRequest toRequest(const http::http_request& r) {
  ServerRequest out;
  out.method = r.method();
  const web::uri uri = r.relative_uri();
  out.path = web::uri::decode(uri.path());
  // A query is form-encoded: '+' is a space there (Python's quote_plus and urlencode, Java's
  // URLEncoder write it so), a plus sign travels as %2B.
  const auto formDecoded = [](std::string text) {
    std::replace(text.begin(), text.end(), '+', ' ');
    return web::uri::decode(text);
  };
  for (const auto& [k, v] : web::uri::split_query(uri.query())) {
    out.query[formDecoded(k)] = formDecoded(v);
  }
  for (const auto& [name, value] : r.headers()) {
    out.headers.emplace_back(name, value);
  }
  const std::vector<unsigned char> body = r.extract_vector().get();
  out.body.assign(body.begin(), body.end());
  return out;
}

void answer(const http::http_request& request, const HttpResponse& response) {
  http::http_response r(static_cast<http::status_code>(response.status));
  std::string type = "application/octet-stream";
  for (const auto& [name, value] : response.headers) {
    if (headerValue({{name, value}}, "Content-Type").empty()) {
      r.headers().add(name, value);
    } else {
      type = value;
    }
  }
  r.set_body(std::vector<unsigned char>(response.body.begin(), response.body.end()));
  r.headers().set_content_type(type);
  request.reply(r).wait();
}

}  // namespace

HttpServer::HttpServer(const std::string& address, RequestHandler handler)
    : address_(address), impl_(std::make_unique<Impl>()) {
  try {
    impl_->listener =
        std::make_unique<http::experimental::listener::http_listener>(web::uri(address));
    impl_->listener->support([handler](const http::http_request& request) {
      HttpResponse response;
      try {
        response = handler(toRequest(request));
      } catch (const std::exception&) {
        // A handler bug must not take the server down; the handler reports known errors itself.
        response.status = 500;
        response.headers = {{"Content-Type", "text/plain"}};
        response.body = "Internal Server Error";
      }
      try {
        answer(request, response);
      } catch (const std::exception&) {
        // The client went away; nothing to tell it.
      }
    });
    impl_->listener->open().wait();
  } catch (const std::exception& e) {
    throw Error(ErrorKind::Network, address, std::string("cannot listen: ") + e.what());
  }
}

HttpServer::~HttpServer() {
  try {
    impl_->listener->close().wait();
  } catch (const std::exception&) {
    // Closing a listener whose clients vanished: nothing left to do.
  }
}

int freeLocalPort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  socklen_t len = sizeof(a);
  int port = 0;
  if (fd >= 0 && ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0 &&
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0) {
    port = ntohs(a.sin_port);
  }
  if (fd >= 0) {
    ::close(fd);
  }
  if (port == 0) {
    throw Error(ErrorKind::Network, "127.0.0.1", "no free TCP port");
  }
  return port;
}

}  // namespace delineate::core::net
