#include <cstdio>
#include <string>

#include "CliProgress.h"
#include "Commands.h"
#include "core/sample/SampleWriter.h"

namespace delineate::cli {

int runSample(const Args& args) {
  std::string out;
  std::uint64_t seed = core::sample::kDefaultSeed;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--seed" && i + 1 < args.size()) {
      seed = std::stoull(args[++i]);
    } else if (out.empty() && !args[i].starts_with("--")) {
      out = args[i];
    } else {
      std::fprintf(stderr, "sample: unexpected argument '%s'\n", args[i].c_str());
      return 2;
    }
  }
  if (out.empty()) {
    std::fprintf(stderr, "usage: delineate-cli sample OUTDIR [--seed N]\n");
    return 2;
  }
  CliProgress progress;
  core::sample::writeSampleData(out, seed, progress);
  std::printf("wrote sample data (seed %llu) to %s\n", static_cast<unsigned long long>(seed),
              out.c_str());
  return 0;
}

}  // namespace delineate::cli
