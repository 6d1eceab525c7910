#include "core/pacs/DicomNetwork.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <dcmtk/dcmdata/dcxfer.h>
#include <dcmtk/dcmnet/scu.h>

#include <chrono>
#include <cstdlib>
#include <map>
#include <mutex>
#include <set>

#include "core/Error.h"
#include "core/io/DicomCodecs.h"
#include "core/io/DicomCondition.h"
#include "core/pacs/DicomAssociation.h"

namespace delineate::core::pacs {

void ensureDicomNetworkDefaults() {
  static std::once_flag once;
  std::call_once(once, [] { ::setenv("TCP_NODELAY", "1", 0); });
}

namespace {

using Clock = std::chrono::steady_clock;

// DcmSCU, with the syntax the node accepted for a presentation context in reach.
class StoreScu : public DcmSCU {
 public:
  using DcmSCU::findPresentationContext;
};

const OFList<OFString>& uncompressed() {
  static const OFList<OFString> list = [] {
    OFList<OFString> l;
    l.push_back(UID_LittleEndianExplicitTransferSyntax);
    l.push_back(UID_LittleEndianImplicitTransferSyntax);
    return l;
  }();
  return list;
}

struct FileSyntax {
  std::string sopClass;
  std::string transferSyntax;
  std::string problem;  // not DICOM, no meta header, ...
};

FileSyntax syntaxOf(const std::filesystem::path& file) {
  DcmFileFormat format;
  FileSyntax s;
  const OFCondition c =
      format.loadFile(file.c_str(), EXS_Unknown, EGL_noChange, DCM_MaxReadLength, ERM_metaOnly);
  if (c.bad()) {
    s.problem = std::string("not a readable DICOM file: ") + c.text();
    return s;
  }
  OFString sop, ts;
  format.getMetaInfo()->findAndGetOFString(DCM_MediaStorageSOPClassUID, sop);
  format.getMetaInfo()->findAndGetOFString(DCM_TransferSyntaxUID, ts);
  if (sop.empty() || ts.empty()) {
    s.problem = "its file meta information names no SOP class or transfer syntax";
    return s;
  }
  s.sopClass = sop.c_str();
  s.transferSyntax = ts.c_str();
  return s;
}

// PS3.7 C.4.2.1.4: 0000 success, Bxxx warnings (stored); everything else is a failure.
bool storedStatus(std::uint16_t status) {
  return status == 0 || (status & 0xF000) == 0xB000;
}

}  // namespace

std::size_t StoreReport::storedCount() const {
  std::size_t n = 0;
  for (const StoredFile& f : files) {
    n += f.stored;
  }
  return n;
}

std::size_t StoreReport::failedCount() const {
  return files.size() - storedCount();
}

double echo(const DicomNode& node, const DicomNetworkOptions& options, ProgressSink& progress) {
  progress.throwIfCancelled();
  const auto start = Clock::now();
  DcmSCU scu;
  configureScu(scu, node, options);
  scu.addPresentationContext(UID_VerificationSOPClass, uncompressed());
  progress.report(0.2, "connecting to " + node.label());
  associateScu(scu, node, options);
  const OFCondition c = scu.sendECHORequest(0);
  if (c.bad()) {
    scu.abortAssociation();
    throw dicomError(c, node.label(), "C-ECHO");
  }
  scu.releaseAssociation();
  progress.report(1, "verified");
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

StoreReport store(const DicomNode& node, const std::vector<std::filesystem::path>& files,
                  const DicomNetworkOptions& options, ProgressSink& progress) {
  ensureDicomCodecs();
  StoreReport report;
  report.files.resize(files.size());
  std::vector<FileSyntax> syntaxes(files.size());
  std::map<std::string, std::set<std::string>> contexts;  // SOP class -> transfer syntaxes
  for (std::size_t i = 0; i < files.size(); ++i) {
    progress.throwIfCancelled();
    report.files[i].file = files[i];
    syntaxes[i] = syntaxOf(files[i]);
    if (!syntaxes[i].problem.empty()) {
      report.files[i].message = syntaxes[i].problem;
    } else {
      contexts[syntaxes[i].sopClass].insert(syntaxes[i].transferSyntax);
    }
  }
  if (contexts.empty()) {
    return report;
  }
  StoreScu scu;
  configureScu(scu, node, options);
  for (const auto& [sopClass, transfers] : contexts) {
    for (const std::string& ts : transfers) {  // the file's own encoding, then uncompressed
      OFList<OFString> offered;
      offered.push_back(ts.c_str());
      for (const OFString& u : uncompressed()) {
        if (u != ts.c_str()) {
          offered.push_back(u);
        }
      }
      checkDicom(scu.addPresentationContext(sopClass.c_str(), offered), node.label(),
                 "offering " + sopClass);
    }
  }
  progress.report(0, "connecting to " + node.label());
  associateScu(scu, node, options);
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (progress.cancelled()) {
      scu.abortAssociation();
      throw CancelledError();
    }
    StoredFile& out = report.files[i];
    if (!syntaxes[i].problem.empty()) {
      continue;
    }
    const T_ASC_PresentationContextID id = scu.findAnyPresentationContextID(
        syntaxes[i].sopClass.c_str(), syntaxes[i].transferSyntax.c_str());
    if (id == 0) {
      out.message = "the node accepted no way to receive its SOP class " + syntaxes[i].sopClass;
      continue;
    }
    Uint16 status = 0;
    OFCondition c = EC_Normal;
    OFString abstractSyntax, accepted;
    scu.findPresentationContext(id, abstractSyntax, accepted);
    if (accepted == syntaxes[i].transferSyntax.c_str()) {
      c = scu.sendSTORERequest(id, files[i].c_str(), nullptr, status);
    } else {
      // The node took the object only uncompressed (or in another syntax): DCMTK does not
      // convert a file on the way, so decode it here, one file at a time.
      DcmFileFormat format;
      const E_TransferSyntax target = DcmXfer(accepted.c_str()).getXfer();
      c = format.loadFile(files[i].c_str());
      if (c.good()) {
        c = format.getDataset()->chooseRepresentation(target, nullptr);
      }
      if (c.bad() || !format.getDataset()->canWriteXfer(target)) {
        out.message = "cannot be converted from " + syntaxes[i].transferSyntax + " to the node's " +
                      accepted.c_str() + (c.bad() ? std::string(": ") + c.text() : std::string());
        continue;
      }
      c = scu.sendSTORERequest(id, "", format.getDataset(), status);
    }
    if (c.bad()) {
      // The file could not be encoded for the accepted syntax, or the association broke.
      if (!scu.isConnected()) {
        throw dicomError(c, node.label(), "sending " + files[i].filename().string());
      }
      out.message = c.text();
      continue;
    }
    out.status = status;
    out.stored = storedStatus(status);
    if (status != 0) {
      out.message = dimseStatusText(status);
    }
    progress.report(double(i + 1) / double(files.size()),
                    "sent " + std::to_string(i + 1) + " of " + std::to_string(files.size()));
  }
  scu.releaseAssociation();
  return report;
}

}  // namespace delineate::core::pacs
