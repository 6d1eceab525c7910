#include "core/jobs/ParallelFor.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "core/Error.h"

namespace delineate::core {

unsigned hardwareThreads() {
  // DELINEATE_THREADS caps the worker threads (shared machines, single-thread benchmarks).
  if (const char* env = std::getenv("DELINEATE_THREADS"); env && *env) {
    const long n = std::strtol(env, nullptr, 10);
    if (n >= 1 && n <= 256) {
      return static_cast<unsigned>(n);
    }
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

void parallelFor(std::size_t count, unsigned threads, ProgressSink& progress,
                 const std::function<void(std::size_t)>& body) {
  if (count == 0) {
    return;
  }
  threads = static_cast<unsigned>(std::clamp<std::size_t>(threads, 1, count));
  std::atomic<std::size_t> next{0};
  std::atomic<bool> stop{false};
  std::exception_ptr firstError;
  std::mutex errorMutex;

  auto worker = [&] {
    for (;;) {
      if (stop.load(std::memory_order_relaxed)) {
        return;
      }
      const std::size_t i = next.fetch_add(1, std::memory_order_relaxed);
      if (i >= count) {
        return;
      }
      try {
        progress.throwIfCancelled();
        body(i);
      } catch (...) {
        std::lock_guard lock(errorMutex);
        if (!firstError) {
          firstError = std::current_exception();
        }
        stop.store(true, std::memory_order_relaxed);
        return;
      }
    }
  };

  std::vector<std::thread> pool;
  pool.reserve(threads - 1);
  try {
    for (unsigned t = 1; t < threads; ++t) {
      pool.emplace_back(worker);
    }
  } catch (const std::system_error&) {
    // Could not start a thread: the threads we have (at least this one) do all the work.
  }
  worker();
  for (auto& t : pool) {
    t.join();
  }
  if (firstError) {
    std::rethrow_exception(firstError);
  }
}

}  // namespace delineate::core
