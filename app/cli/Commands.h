#pragma once
#include <string>
#include <vector>

namespace delineate::cli {

using Args = std::vector<std::string>;

// Each returns the process exit code: 0 success, 1 failure (message on stderr), 2 usage error.
int runSample(const Args& args);
int runInfo(const Args& args);
int runConvert(const Args& args);
int runSeg(const Args& args);
int runInfer(const Args& args);
int runEval(const Args& args);
int runConsensus(const Args& args);
int runDataset(const Args& args);
int runHang(const Args& args);
int runDetect(const Args& args);
int runReport(const Args& args);
int runDeid(const Args& args);
int runUpload(const Args& args);
int runPacs(const Args& args);

}  // namespace delineate::cli
