#include "FaultServer.h"

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace delineate::test {

FaultAction answer(int status, const std::string& contentType, const std::string& body,
                   const std::string& extraHeaders) {
  FaultAction a;
  a.bytes = "HTTP/1.1 " + std::to_string(status) + " Status\r\nContent-Type: " + contentType +
            "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n" + extraHeaders +
            "Connection: close\r\n\r\n" + body;
  return a;
}

FaultAction closeAfter(int status, const std::string& contentType, const std::string& body,
                       std::size_t keep) {
  FaultAction a;
  a.bytes = "HTTP/1.1 " + std::to_string(status) + " Status\r\nContent-Type: " + contentType +
            "\r\nConnection: close\r\n\r\n";
  a.cutAt = a.bytes.size() + std::min(keep, body.size());
  a.bytes += body;
  return a;
}

FaultServer::FaultServer(Script script) : script_(std::move(script)) {
  listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const int one = 1;
  ::setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(a);
  if (::bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0 ||
      ::listen(listener_, 16) != 0) {
    std::abort();
  }
  ::getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &len);
  port_ = ntohs(a.sin_port);
  thread_ = std::thread([this] { serve(); });
}

FaultServer::~FaultServer() {
  stopping_ = true;
  thread_.join();
  ::close(listener_);
  for (int fd : open_) {
    ::close(fd);
  }
}

std::vector<std::string> FaultServer::requests() {
  std::lock_guard lock(mutex_);
  return requests_;
}

void FaultServer::serve() {
  while (!stopping_) {
    pollfd p{listener_, POLLIN, 0};
    if (::poll(&p, 1, 50) <= 0) {
      continue;
    }
    const int client = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client >= 0) {
      handle(client);
    }
  }
}

void FaultServer::handle(int client) {
  // Read the head, then as many body bytes as Content-Length says.
  std::string data;
  char buf[65536];
  std::size_t headEnd = std::string::npos, need = 0;
  while (true) {
    pollfd p{client, POLLIN, 0};
    if (::poll(&p, 1, 2000) <= 0) {
      break;
    }
    const ssize_t n = ::recv(client, buf, sizeof(buf), 0);
    if (n <= 0) {
      break;
    }
    data.append(buf, static_cast<std::size_t>(n));
    if (headEnd == std::string::npos && (headEnd = data.find("\r\n\r\n")) != std::string::npos) {
      std::string lower = data.substr(0, headEnd);
      for (char& c : lower) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      }
      const auto cl = lower.find("content-length:");
      need = cl == std::string::npos ? 0 : std::strtoul(lower.c_str() + cl + 15, nullptr, 10);
    }
    if (headEnd != std::string::npos && data.size() >= headEnd + 4 + need) {
      break;
    }
  }
  const std::string line = data.substr(0, data.find("\r\n"));
  const auto sp1 = line.find(' '), sp2 = line.rfind(' ');
  const std::string method = line.substr(0, sp1);
  const std::string target = sp1 == std::string::npos ? "" : line.substr(sp1 + 1, sp2 - sp1 - 1);
  {
    std::lock_guard lock(mutex_);
    requests_.push_back(method + " " + target);
  }
  const FaultAction a = script_(method, target.substr(0, target.find('?')));
  if (a.hang) {
    open_.push_back(client);
    return;
  }
  const std::size_t n = std::min(a.cutAt, a.bytes.size());
  for (std::size_t sent = 0; sent < n;) {
    const ssize_t w = ::send(client, a.bytes.data() + sent, n - sent, MSG_NOSIGNAL);
    if (w <= 0) {
      break;
    }
    sent += static_cast<std::size_t>(w);
  }
  ::shutdown(client, SHUT_RDWR);
  ::close(client);
}

}  // namespace delineate::test
