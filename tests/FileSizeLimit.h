#pragma once
// What a full disk looks like to a writer, for tests: while one of these lives, the kernel
// refuses to grow any file of this process past `bytes` (RLIMIT_FSIZE, with SIGXFSZ ignored so
// that the write fails with EFBIG instead of killing the process). The old limit comes back
// when it goes.
#include <sys/resource.h>

#include <csignal>
#include <cstddef>

namespace delineate::test {

class FileSizeLimit {
 public:
  explicit FileSizeLimit(std::size_t bytes) {
    std::signal(SIGXFSZ, SIG_IGN);
    ::getrlimit(RLIMIT_FSIZE, &old_);
    rlimit small = old_;
    small.rlim_cur = bytes;
    ::setrlimit(RLIMIT_FSIZE, &small);
  }
  ~FileSizeLimit() { lift(); }
  FileSizeLimit(const FileSizeLimit&) = delete;
  FileSizeLimit& operator=(const FileSizeLimit&) = delete;

  // Room again before the end of the scope.
  void lift() { ::setrlimit(RLIMIT_FSIZE, &old_); }

 private:
  rlimit old_{};
};

}  // namespace delineate::test
