#include "core/pacs/StorageScp.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmnet/diutil.h>
#include <dcmtk/dcmnet/scp.h>

#include <system_error>

#include "core/Error.h"
#include "core/io/DicomCodecs.h"
#include "core/pacs/DicomGet.h"
#include "core/pacs/DicomNetwork.h"
#include "core/pacs/StorageClasses.h"

namespace delineate::core::pacs {

namespace fs = std::filesystem;

class StorageScp::Impl : public DcmSCP {
 public:
  Impl(fs::path folder, bool byStudy) : folder_(std::move(folder)), byStudy_(byStudy) {}

  std::atomic<bool> stop{false};
  std::atomic<std::size_t> received{0};
  std::mutex mutex;
  std::string writeProblem;

 protected:
  OFCondition handleIncomingCommand(T_DIMSE_Message* message,
                                    const DcmPresentationContextInfo& info) override {
    if (message->CommandField != DIMSE_C_STORE_RQ) {
      return DcmSCP::handleIncomingCommand(message, info);
    }
    T_DIMSE_C_StoreRQ& rq = message->msg.CStoreRQ;
    std::error_code ec;
    fs::create_directories(folder_, ec);
    const fs::path partial =
        folder_ /
        ("incoming-" + std::to_string(received.load()) + "-" +
         std::to_string(std::hash<std::string>{}(rq.AffectedSOPInstanceUID)) + ".partial");
    OFCondition c = receiveSTORERequest(rq, info.presentationContextID, partial.c_str());
    if (c.bad()) {
      fs::remove(partial, ec);
      return c;  // the association broke; the retrieve reports what did not arrive
    }
    Uint16 status = STATUS_Success;
    DcmFileFormat header;
    OFString study, series;
    if (header
            .loadFile(partial.c_str(), EXS_Unknown, EGL_noChange, DCM_MaxReadLength, ERM_autoDetect)
            .good()) {
      header.getDataset()->findAndGetOFString(DCM_StudyInstanceUID, study);
      header.getDataset()->findAndGetOFString(DCM_SeriesInstanceUID, series);
    }
    const fs::path file = retrievedFile(byStudy_ ? folder_ / uidFileName(study.c_str()) : folder_,
                                        series.c_str(), rq.AffectedSOPInstanceUID);
    fs::create_directories(file.parent_path(), ec);
    if (!ec) {
      fs::rename(partial, file, ec);
    }
    if (ec) {
      fs::remove(partial, ec);
      std::lock_guard lock(mutex);
      if (writeProblem.empty()) {
        writeProblem = file.string() + ": " + ec.message();
      }
      status = STATUS_STORE_Refused_OutOfResources;
    } else {
      ++received;
    }
    return sendSTOREResponse(info.presentationContextID, rq, status);
  }

  OFBool stopAfterConnectionTimeout() override { return stop.load(); }
  OFBool stopAfterCurrentAssociation() override { return stop.load(); }

 private:
  fs::path folder_;
  bool byStudy_;
};

StorageScp::StorageScp(const std::string& aeTitle, int port, fs::path folder, Layout layout)
    : impl_(std::make_unique<Impl>(std::move(folder), layout == Layout::StudySeries)) {
  ensureDicomCodecs();
  ensureDicomNetworkDefaults();
  const std::string where = "port " + std::to_string(port) + " (Storage SCP)";
  if (port < 1 || port > 65535) {
    throw Error(ErrorKind::InvalidInput, where, "not a port between 1 and 65535");
  }
  impl_->setAETitle(aeTitle.c_str());
  impl_->setPort(static_cast<Uint16>(port));
  impl_->setConnectionBlockingMode(DUL_NOBLOCK);
  impl_->setConnectionTimeout(1);
  impl_->setACSETimeout(30);
  impl_->setDIMSETimeout(60);
  impl_->setHostLookupEnabled(OFFalse);
  const OFList<OFString> syntaxes = receivableSyntaxes();
  for (const std::string& sopClass : receivableStorageClasses()) {
    impl_->addPresentationContext(sopClass.c_str(), syntaxes);
  }
  impl_->addPresentationContext(UID_VerificationSOPClass, syntaxes);
  const OFCondition c = impl_->openListenPort();
  if (c.bad()) {
    throw Error(ErrorKind::Network, where,
                std::string("cannot listen: ") + c.text() +
                    " (is another program using it? choose another in Preferences)");
  }
  thread_ = std::thread([impl = impl_.get()] { impl->acceptAssociations(); });
}

StorageScp::~StorageScp() {
  impl_->stop = true;
  if (thread_.joinable()) {
    thread_.join();
  }
}

std::size_t StorageScp::received() const {
  return impl_->received.load();
}

std::string StorageScp::writeProblem() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->writeProblem;
}

}  // namespace delineate::core::pacs
