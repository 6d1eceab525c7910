#include "FaultProxy.h"

#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace delineate::test {

namespace {

using Clock = std::chrono::steady_clock;

// Every wait is cut into slices this long so that the destructor is never kept waiting on a
// peer that has gone quiet.
constexpr int kSliceMs = 50;

// In [0, 1), from the generator's raw 32-bit output: the same on every standard library, unlike
// std::uniform_real_distribution.
double unit(std::mt19937& rng) {
  return static_cast<double>(rng()) / 4294967296.0;
}

// True once `fd` is ready for `events` (or has failed: the next call on it says so); false when
// the proxy is stopping.
bool waitFor(int fd, short events, const std::atomic<bool>& stopping) {
  while (!stopping) {
    pollfd p{fd, events, 0};
    const int r = ::poll(&p, 1, kSliceMs);
    if (r > 0) {
      return true;
    }
    if (r < 0 && errno != EINTR) {
      return false;
    }
  }
  return false;
}

// Appends what `fd` has to `buf`. >0: bytes read; 0: end of stream; -1: failure or stopping.
ssize_t readSome(int fd, std::string& buf, const std::atomic<bool>& stopping) {
  if (!waitFor(fd, POLLIN, stopping)) {
    return -1;
  }
  char chunk[65536];
  const ssize_t n = ::recv(fd, chunk, sizeof(chunk), 0);
  if (n > 0) {
    buf.append(chunk, static_cast<std::size_t>(n));
  }
  return n < 0 ? -1 : n;
}

bool sendAll(int fd, std::string_view bytes, const std::atomic<bool>& stopping) {
  while (!bytes.empty()) {
    if (!waitFor(fd, POLLOUT, stopping)) {
      return false;
    }
    const ssize_t n = ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n < 0) {
      if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
        continue;
      }
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// Closes with an RST instead of a FIN: the peer's next read or write fails with "connection
// reset", as when a middlebox or a crashing server drops the connection.
void resetAndClose(int fd) {
  const linger hard{1, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &hard, sizeof(hard));
  ::close(fd);
}

void sleepUnlessStopping(std::chrono::milliseconds wait, const std::atomic<bool>& stopping) {
  const auto until = Clock::now() + wait;
  while (!stopping && Clock::now() < until) {
    std::this_thread::sleep_for(
        std::min<Clock::duration>(std::chrono::milliseconds(10), until - Clock::now()));
  }
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) {
    s.remove_prefix(1);
  }
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

// What the proxy needs from the head of a request or an answer.
struct Head {
  std::size_t size = 0;  // bytes, blank line included
  std::string method;    // of a request
  int status = 0;        // of an answer
  std::optional<std::size_t> contentLength;
  bool chunked = false;
  bool close = false;  // the connection ends after this message
};

// The head at the start of `buf`; nullopt while it is incomplete.
std::optional<Head> parseHead(const std::string& buf, bool request) {
  const std::size_t end = buf.find("\r\n\r\n");
  if (end == std::string::npos) {
    return std::nullopt;
  }
  Head head;
  head.size = end + 4;
  const std::string_view all(buf.data(), end + 2);
  const std::size_t firstEnd = all.find("\r\n");
  const std::string_view first = all.substr(0, firstEnd);
  const std::size_t space = first.find(' ');
  if (request) {
    head.method = std::string(first.substr(0, space));
    head.close = first.ends_with("HTTP/1.0");
  } else {
    head.status = space == std::string_view::npos
                      ? 0
                      : std::atoi(std::string(first.substr(space + 1, 3)).c_str());
    head.close = first.starts_with("HTTP/1.0");
  }
  for (std::size_t at = firstEnd + 2; at < all.size();) {
    const std::size_t eol = all.find("\r\n", at);
    const std::string_view line = all.substr(at, eol - at);
    at = eol + 2;
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      continue;
    }
    const std::string name = lower(trim(line.substr(0, colon)));
    const std::string value = lower(trim(line.substr(colon + 1)));
    if (name == "content-length") {
      head.contentLength = std::strtoull(value.c_str(), nullptr, 10);
    } else if (name == "transfer-encoding") {
      head.chunked = value.find("chunked") != std::string::npos;
    } else if (name == "connection") {
      head.close = value.find("close") != std::string::npos ||
                   (head.close && value.find("keep-alive") == std::string::npos);
    }
  }
  return head;
}

// Bytes of the chunked body that starts at `from` (last chunk and trailer included); nullopt
// while it is incomplete.
std::optional<std::size_t> chunkedSize(const std::string& buf, std::size_t from) {
  std::size_t at = from;
  while (true) {
    const std::size_t eol = buf.find("\r\n", at);
    if (eol == std::string::npos) {
      return std::nullopt;
    }
    const std::size_t n = std::strtoull(buf.c_str() + at, nullptr, 16);
    at = eol + 2;
    if (n == 0) {
      while (true) {  // trailer fields up to an empty line
        const std::size_t end = buf.find("\r\n", at);
        if (end == std::string::npos) {
          return std::nullopt;
        }
        if (end == at) {
          return end + 2 - from;
        }
        at = end + 2;
      }
    }
    if (buf.size() < at + n + 2) {
      return std::nullopt;
    }
    at += n + 2;
  }
}

struct Message {
  Head head;
  std::size_t size = 0;  // head and body: the first `size` bytes of the buffer
  bool interim() const { return head.status >= 100 && head.status < 200; }
};

// Reads from `fd` into `buf` until `buf` starts with one whole message. An answer with neither
// length nor chunks ends with the connection. nullopt: the stream ended or failed first, or the
// proxy is stopping.
std::optional<Message> readMessage(int fd, std::string& buf, bool request,
                                   const std::string& requestMethod,
                                   const std::atomic<bool>& stopping) {
  while (true) {
    if (const auto head = parseHead(buf, request)) {
      Message m{*head, 0};
      const bool noBody = !request && (requestMethod == "HEAD" || m.interim() ||
                                       head->status == 204 || head->status == 304);
      if (noBody) {
        m.size = head->size;
        return m;
      }
      if (head->chunked) {
        if (const auto body = chunkedSize(buf, head->size)) {
          m.size = head->size + *body;
          return m;
        }
      } else if (head->contentLength || request) {
        m.size = head->size + head->contentLength.value_or(0);
        if (buf.size() >= m.size) {
          return m;
        }
      }
    }
    const ssize_t n = readSome(fd, buf, stopping);
    if (n == 0 && !request) {
      if (const auto head = parseHead(buf, false); head && !head->chunked && !head->contentLength) {
        Message m{*head, buf.size()};
        m.head.close = true;
        return m;
      }
    }
    if (n <= 0) {
      return std::nullopt;
    }
  }
}

std::string answerText(int status, const std::string& extraHeaders) {
  const char* reason = status == 429   ? "Too Many Requests"
                       : status == 502 ? "Bad Gateway"
                       : status == 503 ? "Service Unavailable"
                                       : "Internal Server Error";
  const std::string body =
      "fault injected by the test proxy: " + std::to_string(status) + " " + reason + "\n";
  return "HTTP/1.1 " + std::to_string(status) + " " + reason +
         "\r\nContent-Type: text/plain\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\nConnection: close\r\n" + extraHeaders + "\r\n" + body;
}

int connectTo(const std::string& host, const std::string& port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (::getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0) {
    return -1;
  }
  int fd = -1;
  for (const addrinfo* a = found; a != nullptr && fd < 0; a = a->ai_next) {
    fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd >= 0 && ::connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
      ::close(fd);
      fd = -1;
    }
  }
  ::freeaddrinfo(found);
  return fd;
}

}  // namespace

const char* toString(ProxyFault fault) {
  switch (fault) {
    case ProxyFault::Pass:
      return "pass";
    case ProxyFault::Latency:
      return "latency";
    case ProxyFault::ResetRequest:
      return "reset-request";
    case ProxyFault::ResetResponse:
      return "reset-response";
    case ProxyFault::ServerError:
      return "server-error";
    case ProxyFault::TooManyRequests:
      return "too-many-requests";
  }
  return "?";
}

FaultMix FaultMix::only(ProxyFault fault) {
  FaultMix mix;
  switch (fault) {
    case ProxyFault::Pass:
      break;
    case ProxyFault::Latency:
      mix.latency = 1;
      break;
    case ProxyFault::ResetRequest:
      mix.resetRequest = 1;
      break;
    case ProxyFault::ResetResponse:
      mix.resetResponse = 1;
      break;
    case ProxyFault::ServerError:
      mix.serverError = 1;
      break;
    case ProxyFault::TooManyRequests:
      mix.tooManyRequests = 1;
      break;
  }
  return mix;
}

FaultProxy::FaultProxy(const std::string& upstream, FaultMix mix, std::uint32_t seed)
    : mix_(std::move(mix)), rng_(seed) {
  std::string_view rest = upstream;
  if (const std::size_t scheme = rest.find("://"); scheme != std::string_view::npos) {
    rest.remove_prefix(scheme + 3);
  }
  rest = rest.substr(0, rest.find('/'));
  const std::size_t colon = rest.rfind(':');
  upstreamHost_ = std::string(rest.substr(0, colon));
  upstreamPort_ = colon == std::string_view::npos ? "80" : std::string(rest.substr(colon + 1));

  listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const int one = 1;
  ::setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(a);
  if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0 ||
      ::listen(listener_, 64) != 0 ||
      ::getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    if (listener_ >= 0) {
      ::close(listener_);
    }
    throw std::runtime_error("fault proxy: cannot listen on 127.0.0.1");
  }
  port_ = ntohs(a.sin_port);
  acceptor_ = std::thread([this] { acceptLoop(); });
}

FaultProxy::~FaultProxy() {
  stopping_ = true;
  acceptor_.join();
  for (Worker& w : workers_) {
    w.thread.join();
  }
  ::close(listener_);
}

void FaultProxy::setMix(const FaultMix& mix) {
  std::lock_guard lock(mutex_);
  mix_ = mix;
}

FaultCounts FaultProxy::counts() const {
  FaultCounts out;
  {
    std::lock_guard lock(mutex_);
    out.requests = static_cast<int>(history_.size());
  }
  for (std::size_t i = 0; i < kProxyFaultKinds; ++i) {
    out.injected[i] = counts_[i].load();
  }
  return out;
}

std::vector<ProxyFault> FaultProxy::history() const {
  std::lock_guard lock(mutex_);
  return history_;
}

FaultProxy::Decision FaultProxy::decide() {
  std::lock_guard lock(mutex_);
  const double which = unit(rng_), cut = unit(rng_), pick = unit(rng_), wait = unit(rng_);
  Decision d;
  const std::pair<double, ProxyFault> kinds[] = {
      {mix_.resetRequest, ProxyFault::ResetRequest},
      {mix_.resetResponse, ProxyFault::ResetResponse},
      {mix_.serverError, ProxyFault::ServerError},
      {mix_.tooManyRequests, ProxyFault::TooManyRequests},
      {mix_.latency, ProxyFault::Latency}};
  double edge = 0;
  for (const auto& [p, kind] : kinds) {
    edge += std::max(p, 0.0);
    if (which < edge) {
      d.fault = kind;
      break;
    }
  }
  d.cut = mix_.cutAt.value_or(cut);
  d.status = pick < 1.0 / 3 ? 500 : pick < 2.0 / 3 ? 502 : 503;
  const auto span = std::max(mix_.latencyMax - mix_.latencyMin, std::chrono::milliseconds(0));
  d.wait = mix_.latencyMin +
           std::chrono::milliseconds(static_cast<long>(wait * double(span.count() + 1)));
  d.retryAfterSeconds = mix_.retryAfterSeconds;
  history_.push_back(d.fault);
  return d;
}

void FaultProxy::acceptLoop() {
  while (!stopping_) {
    for (auto it = workers_.begin(); it != workers_.end();) {
      if (it->done) {
        it->thread.join();
        it = workers_.erase(it);
      } else {
        ++it;
      }
    }
    pollfd p{listener_, POLLIN, 0};
    if (::poll(&p, 1, kSliceMs) <= 0) {
      continue;
    }
    const int client = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) {
      continue;
    }
    Worker& w = workers_.emplace_back();
    w.thread = std::thread([this, client, &w] {
      serve(client);
      w.done = true;
    });
  }
}

void FaultProxy::serve(int client) {
  std::string fromClient, fromUpstream;  // bytes read and not yet passed on
  int upstream = -1;
  const auto closeUpstream = [&upstream](bool reset) {
    if (upstream >= 0) {
      reset ? resetAndClose(upstream) : (void)::close(upstream);
      upstream = -1;
    }
  };
  while (!stopping_) {
    // Between requests: a server that closes its idle side closes this connection too, as it
    // would without the proxy.
    bool upstreamClosed = false;
    while (fromClient.empty() && upstream >= 0 && !stopping_ && !upstreamClosed) {
      pollfd p[2] = {{client, POLLIN, 0}, {upstream, POLLIN, 0}};
      if (::poll(p, 2, kSliceMs) < 0 && errno != EINTR) {
        break;
      }
      upstreamClosed = p[1].revents != 0;
      if (p[0].revents != 0) {
        break;
      }
    }
    if (upstreamClosed) {
      break;
    }
    const auto request = readMessage(client, fromClient, true, {}, stopping_);
    if (!request) {
      break;  // the client closed (or vanished mid-request), or the proxy is stopping
    }
    const Decision d = decide();
    const std::string_view bytes(fromClient.data(), request->size);

    if (d.fault == ProxyFault::ServerError || d.fault == ProxyFault::TooManyRequests) {
      const bool tooMany = d.fault == ProxyFault::TooManyRequests;
      const std::string text =
          tooMany ? answerText(429, "Retry-After: " + std::to_string(d.retryAfterSeconds) + "\r\n")
                  : answerText(d.status, {});
      injected(d.fault);  // counted before the client can see it
      sendAll(client, text, stopping_);
      ::shutdown(client, SHUT_WR);
      break;
    }
    if (upstream < 0 && (upstream = connectTo(upstreamHost_, upstreamPort_)) < 0) {
      sendAll(client, answerText(502, {}), stopping_);
      break;
    }
    if (d.fault == ProxyFault::ResetRequest) {
      // At least one byte goes and at least one is kept back: the server sees a request that
      // stops halfway (in its head or its body), then a reset.
      const std::size_t cut =
          bytes.size() <= 1 ? 0 : 1 + static_cast<std::size_t>(d.cut * double(bytes.size() - 1));
      injected(d.fault);
      sendAll(upstream, bytes.substr(0, cut), stopping_);
      closeUpstream(true);
      resetAndClose(client);
      return;
    }
    if (d.fault == ProxyFault::Latency) {
      injected(d.fault);
      sleepUnlessStopping(d.wait, stopping_);
    }
    if (!sendAll(upstream, bytes, stopping_)) {
      break;
    }
    bool keepAlive = !request->head.close;
    const std::string method = request->head.method;
    fromClient.erase(0, request->size);

    bool answered = false;
    while (!answered) {
      const auto answer = readMessage(upstream, fromUpstream, false, method, stopping_);
      if (!answer) {
        // The server ended the exchange without a whole answer: the client sees the same.
        sendAll(client, fromUpstream, stopping_);
        keepAlive = false;
        break;
      }
      if (d.fault == ProxyFault::ResetResponse && !answer->interim()) {
        // The server has acted on the request; the client gets none or part of its answer.
        const std::size_t cut = static_cast<std::size_t>(d.cut * double(answer->size));
        injected(d.fault);
        sendAll(client, std::string_view(fromUpstream).substr(0, cut), stopping_);
        resetAndClose(client);
        closeUpstream(false);
        return;
      }
      if (d.fault == ProxyFault::Pass && !answer->interim()) {
        injected(d.fault);
      }
      if (!sendAll(client, std::string_view(fromUpstream).substr(0, answer->size), stopping_)) {
        keepAlive = false;
        break;
      }
      fromUpstream.erase(0, answer->size);
      answered = !answer->interim();
      keepAlive = keepAlive && !answer->head.close;
    }
    if (!keepAlive) {
      break;
    }
  }
  closeUpstream(false);
  ::close(client);
}

}  // namespace delineate::test
