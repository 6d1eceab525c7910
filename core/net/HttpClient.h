#pragma once
// Sends one HTTP request and waits for the whole answer; a blocking call for jobs. Before each
// request the server is probed (name lookup + TCP connect within the request's connectTimeout) so
// that "name not resolvable", "connection refused" and "no answer" are told apart quickly. TLS
// certificates are always verified (a custom CA file may be added). The job's ProgressSink
// cancels a request in flight; the request's timeout bounds it.
//
// Errors are core::Error(Network) whose `where` is the server (scheme://host:port) and whose text
// says what happened; HTTP error statuses are not errors here (the protocol layer reads them).
#include <memory>
#include <string>

#include "core/jobs/ProgressSink.h"
#include "core/net/Http.h"

namespace delineate::core::net {

struct TlsOptions {
  std::string caFile;  // PEM bundle trusted in addition to the system's; empty: system only
};

class HttpClient {
 public:
  virtual ~HttpClient() = default;
  virtual HttpResponse send(const HttpRequest& request, ProgressSink& progress) = 0;
};

// The cpprestsdk implementation.
std::unique_ptr<HttpClient> makeHttpClient(const TlsOptions& tls = {});

}  // namespace delineate::core::net
