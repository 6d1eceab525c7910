#pragma once
// A tiny fork-join loop for jobs: runs work items on a few threads, stops early on cancel or on the
// first exception, and rethrows that exception on the calling thread.
#include <cstddef>
#include <functional>

#include "core/jobs/ProgressSink.h"

namespace delineate::core {

// Threads worth using on this machine (std::thread::hardware_concurrency, at least 1), or the
// value of the environment variable DELINEATE_THREADS when set.
unsigned hardwareThreads();

// Calls body(i) for every i in [0, count), in increasing order per thread, on up to `threads`
// threads (the calling thread is one of them). Checks progress.cancelled() before each item;
// after a cancel or an exception no new item starts. Rethrows the first exception (or
// CancelledError). `body` must be safe to call concurrently for different i.
void parallelFor(std::size_t count, unsigned threads, ProgressSink& progress,
                 const std::function<void(std::size_t)>& body);

}  // namespace delineate::core
