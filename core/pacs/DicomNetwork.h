#pragma once
// Talking DIMSE to a DICOM node through DCMTK's DcmSCU: C-ECHO (is it there and does it accept
// us?) and C-STORE (send files: images, SEG, SR). Blocking calls for jobs; every wait is bounded
// by a timeout, Cancel is honoured between files (and aborts the association), and every failure
// is a core::Error naming the node and what happened (refused association, wrong AE title, no
// answer, a file the node rejected).
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/pacs/DicomNode.h"

namespace delineate::core::pacs {

struct DicomNetworkOptions {
  std::string callingAeTitle = "DELINEATE";  // who we are to the node
  std::chrono::seconds connectTimeout{10};
  std::chrono::seconds responseTimeout{60};  // ACSE and DIMSE answers
  int movePort = 11112;  // C-MOVE: where our Storage SCP listens while a move runs
  // Our Storage SCP listens always (at movePort, writing into the study cache by study): a move
  // into a study folder of that cache uses it instead of opening the port itself.
  bool storageScpAlwaysOn = false;
};

// What every DIMSE exchange needs set once per process, before the first association: TCP's
// Nagle algorithm off (DCMTK leaves it on unless the environment variable TCP_NODELAY says
// otherwise; with it on, every small DIMSE message waits for the peer's delayed ACK, about 90 ms
// per instance stored on Orthanc, 15 times slower). A TCP_NODELAY the user set is kept. Called
// by the executables' main() while they have one thread, and again (a no-op) before each
// association.
void ensureDicomNetworkDefaults();

// C-ECHO; returns the round trip in milliseconds. Throws Error(Network) naming the node.
double echo(const DicomNode& node, const DicomNetworkOptions& options, ProgressSink& progress);

struct StoredFile {
  std::filesystem::path file;
  bool stored = false;
  std::uint16_t status = 0;  // the node's C-STORE response status (0 success, 0xB... warning)
  std::string message;       // why not, or the warning
};

struct StoreReport {
  std::vector<StoredFile> files;
  std::size_t storedCount() const;
  std::size_t failedCount() const;
};

// C-STORE of every file in one association (a presentation context per SOP class and transfer
// syntax found in the files, with explicit little endian as the fallback the node may pick; a
// file the node takes only uncompressed is decoded on the way).
// A file the node refuses (or that is not DICOM) is reported and the rest still go; an
// association that cannot be made or breaks throws Error naming the node. Cancel stops between
// files and throws CancelledError.
StoreReport store(const DicomNode& node, const std::vector<std::filesystem::path>& files,
                  const DicomNetworkOptions& options, ProgressSink& progress);

}  // namespace delineate::core::pacs
