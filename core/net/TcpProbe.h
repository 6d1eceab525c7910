#pragma once
// Can a TCP connection to host:port be opened within a timeout? Tells a name that does not
// resolve, a refused connection and silence apart, with a message naming the server.
#include <chrono>
#include <string>

#include "core/jobs/ProgressSink.h"

namespace delineate::core::net {

// Throws core::Error(Network, "host:port", ...) unless a connection opens within `timeout`;
// checks `progress` for cancel while waiting. Returns the seconds it took.
double probeTcp(const std::string& host, int port, std::chrono::milliseconds timeout,
                ProgressSink& progress);

}  // namespace delineate::core::net
