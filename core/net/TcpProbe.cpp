#include "core/net/TcpProbe.h"

#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>

#include "core/Error.h"

namespace delineate::core::net {

namespace {

using Clock = std::chrono::steady_clock;

struct FdCloser {
  int fd;
  ~FdCloser() {
    if (fd >= 0) {
      ::close(fd);
    }
  }
};

}  // namespace

double probeTcp(const std::string& host, int port, std::chrono::milliseconds timeout,
                ProgressSink& progress) {
  const std::string where = host + ":" + std::to_string(port);
  const auto start = Clock::now();
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int rc = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found);
  if (rc != 0) {
    throw Error(ErrorKind::Network, where,
                "the server name does not resolve (" + std::string(::gai_strerror(rc)) + ")");
  }
  std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> list(found, &::freeaddrinfo);
  std::string lastError = "no address";
  for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
    FdCloser s{
        ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol)};
    if (s.fd < 0) {
      lastError = std::strerror(errno);
      continue;
    }
    if (::connect(s.fd, a->ai_addr, a->ai_addrlen) == 0) {
      return std::chrono::duration<double>(Clock::now() - start).count();
    }
    if (errno != EINPROGRESS) {
      lastError = std::strerror(errno);
      continue;
    }
    // Wait in short slices so that Cancel is honoured.
    while (true) {
      progress.throwIfCancelled();
      const auto left =
          timeout - std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start);
      if (left.count() <= 0) {
        throw Error(ErrorKind::Network, where,
                    "the server did not accept a connection within " +
                        std::to_string(timeout.count() / 1000.0).substr(0, 4) + " s");
      }
      pollfd p{s.fd, POLLOUT, 0};
      const int ready = ::poll(&p, 1, static_cast<int>(std::min<long>(left.count(), 100)));
      if (ready < 0 && errno != EINTR) {
        lastError = std::strerror(errno);
        break;
      }
      if (ready > 0) {
        int err = 0;
        socklen_t len = sizeof(err);
        ::getsockopt(s.fd, SOL_SOCKET, SO_ERROR, &err, &len);
        if (err == 0) {
          return std::chrono::duration<double>(Clock::now() - start).count();
        }
        lastError = std::strerror(err);
        break;
      }
    }
  }
  throw Error(ErrorKind::Network, where, "cannot connect to the server (" + lastError + ")");
}

}  // namespace delineate::core::net
