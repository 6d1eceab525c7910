// delineate-cli: the workstation's operations for scripts, tests and docs.
#include <cstdio>
#include <cstring>
#include <exception>
#include <functional>
#include <map>

#include "Commands.h"
#include "core/Error.h"
#include "core/io/ItkInit.h"
#include "core/pacs/DicomNetwork.h"

#ifndef DELINEATE_VERSION
#define DELINEATE_VERSION "0.0.0"
#endif

namespace {

void usage(std::FILE* out) {
  std::fprintf(
      out,
      "usage: delineate-cli COMMAND [ARGS]\n"
      "  sample OUTDIR [--seed N]   write the synthetic sample studies (DICOM + NIfTI)\n"
      "  info [--voxels] PATH       print every series under PATH as JSON (headers only;\n"
      "                             --voxels decodes them: value ranges, final voxel type)\n"
      "  convert IN OUT [--nifti2]  write the series at IN as NIfTI(-2)/NRRD/MetaImage\n"
      "  seg export|import ...      DICOM SEG from / to a label file (seg for details)\n"
      "  infer --server URL ...     one AI inference on a MONAI Label server (infer)\n"
      "  eval --ref DIR --test DIR  evaluate a dataset against a reference (eval)\n"
      "  consensus MAP MAP... --out OUT  STAPLE or majority vote of readers (consensus)\n"
      "  dataset snapshot|log|diff|checkout ...  versions of a dataset folder (dataset)\n"
      "  hang [--layout ID] DIR...  mammograms in the viewports of a hanging protocol\n"
      "  detect [--json OUT] DIR... AI findings on mammograms: the demonstration detector,\n"
      "                             or --server URL --model NAME (detect for details)\n"
      "  report export|show ...     a report as DICOM SR, PDF or JSON; what it holds (report)\n"
      "  deid IN OUT [--retain-...] de-identify DICOM/NIfTI for upload (PS3.15 profile; deid)\n"
      "  upload --server URL ...    send labelled cases to a datastore through a resumable\n"
      "                             queue, or --msd OUT to write an MSD dataset (upload)\n"
      "  pacs find|get|send ...     query, retrieve from and send to a DICOM node (pacs)\n"
      "  --version                  print the version\n");
}

}  // namespace

int main(int argc, char** argv) {
  using namespace delineate::cli;
  delineate::core::ensureItkInitialized();  // before any worker thread can be first to use ITK
  delineate::core::pacs::ensureDicomNetworkDefaults();  // Nagle off, while one thread runs
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const std::string command = argv[1];
  if (command == "--version" || command == "version") {
    std::printf("delineate-cli %s\n", DELINEATE_VERSION);
    return 0;
  }
  if (command == "--help" || command == "-h" || command == "help") {
    usage(stdout);
    return 0;
  }
  const std::map<std::string, std::function<int(const Args&)>> commands{
      {"sample", runSample},       {"info", runInfo},
      {"convert", runConvert},     {"seg", runSeg},
      {"infer", runInfer},         {"eval", runEval},
      {"hang", runHang},           {"detect", runDetect},
      {"report", runReport},       {"deid", runDeid},
      {"upload", runUpload},       {"pacs", runPacs},
      {"consensus", runConsensus}, {"dataset", runDataset}};
  const auto it = commands.find(command);
  if (it == commands.end()) {
    std::fprintf(stderr, "delineate-cli: unknown command '%s'\n", command.c_str());
    usage(stderr);
    return 2;
  }
  try {
    return it->second(Args(argv + 2, argv + argc));
  } catch (const delineate::core::Error& e) {
    std::fprintf(stderr, "delineate-cli %s: %s\n", command.c_str(), e.what());
    return e.kind() == delineate::core::ErrorKind::Cancelled ? 130 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "delineate-cli %s: %s\n", command.c_str(), e.what());
    return 1;
  }
}
