#include "core/pacs/DicomGet.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <dcmtk/dcmnet/scu.h>

#include <algorithm>
#include <memory>
#include <set>
#include <system_error>

#include "core/Error.h"
#include "core/io/DicomCodecs.h"
#include "core/io/DicomCondition.h"
#include "core/pacs/DicomAssociation.h"
#include "core/pacs/DicomFind.h"
#include "core/pacs/LocalInstance.h"
#include "core/pacs/StorageClasses.h"
#include "core/pacs/StorageScp.h"

namespace delineate::core::pacs {

namespace fs = std::filesystem;

namespace {

constexpr const char* kPartial = ".partial";

class GetScu : public DcmSCU {
 public:
  GetScu(fs::path folder, ProgressSink& progress, std::size_t expected)
      : folder_(std::move(folder)), progress_(progress), expected_(expected) {}

  std::size_t received() const { return received_; }
  bool cancelledByUser() const { return cancelled_; }
  Uint16 finalStatus() const { return finalStatus_; }
  const std::string& writeProblem() const { return writeProblem_; }

 protected:
  // Each instance as a Part-10 file in the transfer syntax it came in, written under a
  // `.partial` name and renamed when complete.
  OFCondition handleSTORERequest(const T_ASC_PresentationContextID, DcmDataset* incoming,
                                 OFBool& continueCGETSession, Uint16& cStoreReturnStatus) override {
    // DcmSCU hands the dataset over: this handler deletes it (DCMTK's own does too). Kept by
    // the file format below, which writes it without a copy.
    DcmFileFormat format(incoming, OFFalse);
    OFString sopClass, sop, series;
    if (incoming == nullptr || incoming->findAndGetOFString(DCM_SOPInstanceUID, sop).bad() ||
        sop.empty() || incoming->findAndGetOFString(DCM_SOPClassUID, sopClass).bad()) {
      cStoreReturnStatus = STATUS_STORE_Error_DataSetDoesNotMatchSOPClass;
      return EC_Normal;  // refused; the retrieve goes on and reports it missing
    }
    incoming->findAndGetOFString(DCM_SeriesInstanceUID, series);
    const fs::path file = retrievedFile(folder_, series.c_str(), sop.c_str());
    const std::string partial = file.string() + kPartial;
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    OFCondition c = ec ? makeOFCondition(0, 1, OF_error, ec.message().c_str()) : EC_Normal;
    if (c.good()) {
      c = format.saveFile(partial.c_str(), EXS_Unknown);  // as it came
    }
    if (c.good()) {
      fs::rename(partial, file, ec);
      if (ec) {
        c = makeOFCondition(0, 2, OF_error, ec.message().c_str());
      }
    }
    if (c.bad()) {
      fs::remove(partial, ec);
      writeProblem_ = file.string() + ": " + c.text();
      cStoreReturnStatus = STATUS_STORE_Refused_OutOfResources;
      continueCGETSession = OFFalse;
      return EC_Normal;
    }
    ++received_;
    progress_.report(expected_ ? 0.1 + 0.9 * double(received_) / double(expected_) : 0.5,
                     "received " + std::to_string(received_) +
                         (expected_ ? " of " + std::to_string(expected_) : std::string()));
    cStoreReturnStatus = STATUS_Success;
    if (progress_.cancelled()) {
      cancelled_ = true;
      continueCGETSession = OFFalse;
    }
    return EC_Normal;
  }

  OFCondition handleCGETResponse(const T_ASC_PresentationContextID presID,
                                 RetrieveResponse* response, OFBool& continueCGETSession) override {
    const OFCondition c = DcmSCU::handleCGETResponse(presID, response, continueCGETSession);
    if (response != nullptr && !DICOM_PENDING_STATUS(response->m_status)) {
      finalStatus_ = response->m_status;
    }
    if (progress_.cancelled()) {
      cancelled_ = true;
      continueCGETSession = OFFalse;
    }
    return c;
  }

 private:
  fs::path folder_;
  ProgressSink& progress_;
  std::size_t expected_;
  std::size_t received_ = 0;
  std::string writeProblem_;
  bool cancelled_ = false;
  Uint16 finalStatus_ = 0;
};

// One C-GET of `keys`; throws for what ends the retrieve (association, cancel, a folder that
// cannot be written), returns the final status for the caller to judge.
Uint16 sendGet(GetScu& scu, const DicomNode& node, T_ASC_PresentationContextID id,
               DcmDataset& keys) {
  const OFCondition c = scu.sendCGETRequest(id, &keys, nullptr);
  if (scu.cancelledByUser()) {
    scu.abortAssociation();
    throw CancelledError();
  }
  if (!scu.writeProblem().empty()) {
    scu.abortAssociation();
    throw Error(ErrorKind::Io, scu.writeProblem(), "could not write a retrieved instance");
  }
  if (c.bad()) {
    scu.abortAssociation();
    throw dicomError(c, node.label(), "C-GET");
  }
  return scu.finalStatus();
}

// C-MOVE requester: follows the node's pending answers (progress from what our Storage SCP has
// received) and stops on Cancel.
class MoveScu : public DcmSCU {
 public:
  MoveScu(ProgressSink& progress, const StorageScp* scp, std::size_t expected)
      : progress_(progress), scp_(scp), expected_(expected) {}

  bool cancelledByUser() const { return cancelled_; }
  Uint16 finalStatus() const { return finalStatus_; }

 protected:
  OFCondition handleMOVEResponse(const T_ASC_PresentationContextID presID,
                                 RetrieveResponse* response, OFBool& waitForNext) override {
    const OFCondition c = DcmSCU::handleMOVEResponse(presID, response, waitForNext);
    if (response != nullptr && !DICOM_PENDING_STATUS(response->m_status)) {
      finalStatus_ = response->m_status;
    }
    // Counted by our own listener, or (one that is always on) by the node's answers.
    const std::size_t received = scp_ != nullptr ? scp_->received()
                                 : response != nullptr
                                     ? std::size_t(response->m_numberOfCompletedSubops)
                                     : 0;
    progress_.report(expected_ ? 0.1 + 0.9 * double(received) / double(expected_) : 0.5,
                     "received " + std::to_string(received) +
                         (expected_ ? " of " + std::to_string(expected_) : std::string()));
    if (progress_.cancelled()) {
      cancelled_ = true;
      waitForNext = OFFalse;
    }
    return c;
  }

 private:
  ProgressSink& progress_;
  const StorageScp* scp_;
  std::size_t expected_;
  bool cancelled_ = false;
  Uint16 finalStatus_ = 0;
};

Uint16 sendMove(MoveScu& scu, const StorageScp* scp, const DicomNode& node,
                const DicomNetworkOptions& options, T_ASC_PresentationContextID id,
                DcmDataset& keys) {
  OFList<RetrieveResponse*> responses;
  const OFCondition c = scu.sendMOVERequest(id, options.callingAeTitle.c_str(), &keys, &responses);
  for (RetrieveResponse* r : responses) {
    delete r;
  }
  if (scu.cancelledByUser()) {
    scu.abortAssociation();
    throw CancelledError();
  }
  if (scp != nullptr && !scp->writeProblem().empty()) {
    scu.abortAssociation();
    throw Error(ErrorKind::Io, scp->writeProblem(), "could not write a retrieved instance");
  }
  if (c.bad()) {
    scu.abortAssociation();
    throw dicomError(c, node.label(), "C-MOVE");
  }
  if (scu.finalStatus() == STATUS_MOVE_Failed_MoveDestinationUnknown) {
    scu.abortAssociation();
    throw Error(ErrorKind::Network, node.label(),
                "the node does not know the move destination " + options.callingAeTitle +
                    " (status A801): register that AE title with this computer's address and "
                    "port " +
                    std::to_string(options.movePort) + " on the node");
  }
  return scu.finalStatus();
}

}  // namespace

nlohmann::json RetrieveReport::toJson() const {
  nlohmann::json list = nlohmann::json::array();
  for (const fs::path& f : files) {
    list.push_back(f.string());
  }
  return {{"files", list},
          {"received", received},
          {"already_local", alreadyLocal},
          {"missing", missing}};
}

void noteRetrieved(RetrieveReport& report, const fs::path& folder,
                   const std::vector<InstanceRecord>& wanted) {
  for (const InstanceRecord& r : wanted) {
    const fs::path file = retrievedFile(folder, r.seriesInstanceUid, r.sopInstanceUid);
    std::error_code ec;
    if (fs::is_regular_file(file, ec)) {
      report.files.push_back(file);
    } else {
      report.missing.push_back(r.sopInstanceUid);
    }
  }
}

std::string uidFileName(const std::string& uid) {
  std::string out;
  for (char c : uid) {
    out += (c >= '0' && c <= '9') || c == '.' ? c : '_';
  }
  if (out.empty() || out == "." || out == "..") {
    out = "unknown";
  }
  return out;
}

fs::path retrievedFile(const fs::path& folder, const std::string& seriesInstanceUid,
                       const std::string& sopInstanceUid) {
  return folder / uidFileName(seriesInstanceUid) / (uidFileName(sopInstanceUid) + ".dcm");
}

RetrieveReport retrieveByGet(const DicomNode& node, const RetrieveRequest& request,
                             const fs::path& folder, const DicomNetworkOptions& options,
                             ProgressSink& progress) {
  return retrieveDimse(node, request, folder, options, progress, false);
}

RetrieveReport retrieveByMove(const DicomNode& node, const RetrieveRequest& request,
                              const fs::path& folder, const DicomNetworkOptions& options,
                              ProgressSink& progress) {
  return retrieveDimse(node, request, folder, options, progress, true);
}

RetrieveReport retrieveDimse(const DicomNode& node, const RetrieveRequest& request,
                             const fs::path& folder, const DicomNetworkOptions& options,
                             ProgressSink& progress, bool move) {
  if (request.studyInstanceUid.empty()) {
    throw Error(ErrorKind::InvalidInput, node.label(), "a retrieve needs the study's UID");
  }
  ensureDicomCodecs();
  // What the node holds, instance by instance, and what of it is here already.
  SubProgress listing(progress, 0, 0.1);
  std::vector<std::string> seriesUids;
  if (!request.seriesInstanceUid.empty()) {
    seriesUids.push_back(request.seriesInstanceUid);
  } else {
    for (const SeriesRecord& s : findSeries(node, request.studyInstanceUid, options, listing)) {
      seriesUids.push_back(s.seriesInstanceUid);
    }
  }
  std::vector<InstanceRecord> wanted;
  for (const std::string& series : seriesUids) {
    for (InstanceRecord& r :
         findInstances(node, request.studyInstanceUid, series, options, listing)) {
      wanted.push_back(std::move(r));
    }
  }
  RetrieveReport report;
  std::vector<const InstanceRecord*> lacking;
  std::set<std::string> lackingSeries;
  for (const InstanceRecord& r : wanted) {
    const fs::path file = retrievedFile(folder, r.seriesInstanceUid, r.sopInstanceUid);
    if (localInstanceIsWhole(file, r.sopInstanceUid)) {
      ++report.alreadyLocal;
    } else {
      std::error_code ec;
      fs::remove(file, ec);  // damaged or cut short: never counted as retrieved
      lacking.push_back(&r);
      lackingSeries.insert(r.seriesInstanceUid);
    }
  }
  if (!lacking.empty()) {
    std::error_code ec;
    fs::create_directories(folder, ec);
    if (ec) {
      throw Error(ErrorKind::Io, folder.string(), "cannot create the folder: " + ec.message());
    }
    // C-GET: the instances come on our association. C-MOVE: the node opens one to our Storage
    // SCP, listening only while this retrieve runs.
    std::unique_ptr<StorageScp> scp;
    std::unique_ptr<GetScu> getScu;
    std::unique_ptr<MoveScu> moveScu;
    if (move) {
      if (!options.storageScpAlwaysOn) {
        scp = std::make_unique<StorageScp>(options.callingAeTitle, options.movePort, folder);
      }
      moveScu = std::make_unique<MoveScu>(progress, scp.get(), lacking.size());
    } else {
      getScu = std::make_unique<GetScu>(folder, progress, lacking.size());
    }
    DcmSCU& scu = move ? static_cast<DcmSCU&>(*moveScu) : *getScu;
    const char* model = move ? UID_MOVEStudyRootQueryRetrieveInformationModel
                             : UID_GETStudyRootQueryRetrieveInformationModel;
    configureScu(scu, node, options);
    offerUncompressed(scu, model, node,
                      move ? "offering Study Root C-MOVE" : "offering Study Root C-GET");
    if (!move) {
      const OFList<OFString> syntaxes = receivableSyntaxes();
      for (const std::string& sopClass : receivableStorageClasses()) {
        checkDicom(scu.addPresentationContext(sopClass.c_str(), syntaxes, ASC_SC_ROLE_SCP),
                   node.label(), "offering to receive " + sopClass);
      }
    }
    progress.report(0.1, "connecting to " + node.label());
    associateScu(scu, node, options);
    const T_ASC_PresentationContextID id = scu.findPresentationContextID(model, "");
    if (id == 0) {
      scu.abortAssociation();
      throw Error(ErrorKind::Network, node.label(),
                  move ? "the node does not offer C-MOVE (retrieve by C-GET instead)"
                       : "the node does not offer C-GET (retrieve by C-MOVE instead)");
    }
    std::vector<DcmDataset> requests;
    if (report.alreadyLocal == 0) {  // whole series at once
      for (const std::string& series : lackingSeries) {
        DcmDataset& keys = requests.emplace_back();
        putQueryKey(keys, DCM_QueryRetrieveLevel, "SERIES");
        putQueryKey(keys, DCM_StudyInstanceUID, request.studyInstanceUid);
        putQueryKey(keys, DCM_SeriesInstanceUID, series);
      }
    } else {  // only what is missing, instance by instance
      for (const InstanceRecord* r : lacking) {
        DcmDataset& keys = requests.emplace_back();
        putQueryKey(keys, DCM_QueryRetrieveLevel, "IMAGE");
        putQueryKey(keys, DCM_StudyInstanceUID, request.studyInstanceUid);
        putQueryKey(keys, DCM_SeriesInstanceUID, r->seriesInstanceUid);
        putQueryKey(keys, DCM_SOPInstanceUID, r->sopInstanceUid);
      }
    }
    for (DcmDataset& keys : requests) {
      const Uint16 status = move ? sendMove(*moveScu, scp.get(), node, options, id, keys)
                                 : sendGet(*getScu, node, id, keys);
      // B000 (some sub-operations failed) is judged below, instance by instance.
      if (status != STATUS_Success &&
          status != STATUS_GET_Warning_SubOperationsCompleteOneOrMoreFailures) {
        scu.abortAssociation();
        // Orthanc answers C000 rather than A801 for a destination it does not know.
        const std::string hint =
            move && (status & 0xF000) == 0xC000
                ? "; a PACS answers so too when it does not know the move destination " +
                      options.callingAeTitle +
                      ": register that AE title with this computer's "
                      "address and port " +
                      std::to_string(options.movePort) + " on the node"
                : std::string();
        throw Error(ErrorKind::Network, node.label(),
                    "the retrieve failed: " + dimseStatusText(status) + hint);
      }
    }
    scu.releaseAssociation();
    if (!move) {
      report.received = getScu->received();
    } else if (scp) {
      report.received = scp->received();
    } else {  // the listener that is always on wrote them: what is here now
      report.received = std::size_t(std::count_if(lacking.begin(), lacking.end(), [&](auto* r) {
        std::error_code ec;
        return fs::is_regular_file(retrievedFile(folder, r->seriesInstanceUid, r->sopInstanceUid),
                                   ec);
      }));
    }
  }
  noteRetrieved(report, folder, wanted);
  progress.report(1, "retrieved");
  return report;
}

}  // namespace delineate::core::pacs
