#include "core/pacs/DicomFind.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <dcmtk/dcmnet/scu.h>

#include <functional>

#include "core/Error.h"
#include "core/io/DicomCondition.h"
#include "core/pacs/DicomAssociation.h"

namespace delineate::core::pacs {

namespace {

using ResultHandler = std::function<void(DcmDataset&)>;

// Hands each pending answer's identifier to `handler`; stops asking for more (C-CANCEL) when
// the user cancels or `limit` answers have come.
class FindScu : public DcmSCU {
 public:
  FindScu(ResultHandler handler, std::size_t limit, ProgressSink& progress)
      : handler_(std::move(handler)), limit_(limit), progress_(progress) {}

  Uint16 finalStatus() const { return finalStatus_; }
  bool cancelledByUser() const { return cancelledByUser_; }
  bool stoppedAtLimit() const { return stoppedAtLimit_; }

 protected:
  OFCondition handleFINDResponse(const T_ASC_PresentationContextID presID, QRResponse* response,
                                 OFBool& waitForNextResponse) override {
    waitForNextResponse = OFFalse;
    if (response == nullptr) {
      return EC_IllegalParameter;
    }
    if (!DICOM_PENDING_STATUS(response->m_status)) {
      finalStatus_ = response->m_status;
      return EC_Normal;
    }
    waitForNextResponse = OFTrue;
    if (cancelSent_) {
      return EC_Normal;  // answers already on their way after C-CANCEL
    }
    if (response->m_dataset != nullptr) {
      handler_(*response->m_dataset);
      ++count_;
      progress_.report(0.5, std::to_string(count_) + " found");
    }
    const bool atLimit = limit_ > 0 && count_ >= limit_;
    if (progress_.cancelled() || atLimit) {
      cancelledByUser_ = !atLimit;
      stoppedAtLimit_ = atLimit;
      cancelSent_ = true;
      sendCANCELRequest(presID);
    }
    return EC_Normal;
  }

 private:
  ResultHandler handler_;
  std::size_t limit_;
  ProgressSink& progress_;
  std::size_t count_ = 0;
  Uint16 finalStatus_ = 0;
  bool cancelSent_ = false;
  bool cancelledByUser_ = false;
  bool stoppedAtLimit_ = false;
};

void runFind(const DicomNode& node, const DicomNetworkOptions& options, ProgressSink& progress,
             DcmDataset& keys, std::size_t limit, const ResultHandler& handler) {
  progress.throwIfCancelled();
  FindScu scu(handler, limit, progress);
  configureScu(scu, node, options);
  offerUncompressed(scu, UID_FINDStudyRootQueryRetrieveInformationModel, node,
                    "offering Study Root C-FIND");
  progress.report(0, "connecting to " + node.label());
  associateScu(scu, node, options);
  const T_ASC_PresentationContextID id =
      scu.findPresentationContextID(UID_FINDStudyRootQueryRetrieveInformationModel, "");
  if (id == 0) {
    scu.abortAssociation();
    throw Error(ErrorKind::Network, node.label(), "the node does not answer Study Root queries");
  }
  progress.report(0.1, "searching");
  const OFCondition c = scu.sendFINDRequest(id, &keys, nullptr);
  if (c.bad()) {
    scu.abortAssociation();
    throw dicomError(c, node.label(), "C-FIND");
  }
  scu.releaseAssociation();
  if (scu.cancelledByUser()) {
    throw CancelledError();
  }
  const Uint16 status = scu.finalStatus();
  if (status != STATUS_Success &&
      !(status == STATUS_FIND_Cancel_MatchingTerminatedDueToCancelRequest &&
        scu.stoppedAtLimit())) {
    throw Error(ErrorKind::Network, node.label(), "the search failed: " + dimseStatusText(status));
  }
  progress.report(1, "done");
}

// A text attribute in UTF-8, without DICOM's padding.
std::string answerText(DcmDataset& d, const DcmTagKey& tag) {
  OFString value;
  if (d.findAndGetOFStringArray(tag, value).bad()) {
    return {};
  }
  std::string s(value.c_str(), value.length());
  while (!s.empty() && (s.back() == ' ' || s.back() == '\0')) {
    s.pop_back();
  }
  const auto first = s.find_first_not_of(' ');
  return first == std::string::npos ? std::string() : s.substr(first);
}

int answerNumber(DcmDataset& d, const DcmTagKey& tag) {
  const std::string s = answerText(d, tag);
  try {
    return s.empty() ? -1 : std::stoi(s);
  } catch (const std::exception&) {
    return -1;  // a node that sends a malformed count: unknown, not a failure
  }
}

std::vector<std::string> splitValues(const std::string& s) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= s.size() && !s.empty()) {
    const auto end = s.find('\\', start);
    const std::string part = s.substr(start, end == std::string::npos ? end : end - start);
    if (!part.empty()) {
      out.push_back(part);
    }
    if (end == std::string::npos) {
      break;
    }
    start = end + 1;
  }
  return out;
}

// Answers in another character set become UTF-8; one that cannot be converted is read as is.
void answerToUtf8(DcmDataset& d) {
  if (d.tagExistsWithValue(DCM_SpecificCharacterSet)) {
    (void)d.convertToUTF8();
  }
}

}  // namespace

std::vector<StudyRecord> findStudies(const DicomNode& node, const StudyQuery& query,
                                     const DicomNetworkOptions& options, ProgressSink& progress) {
  if (auto p = query.problem()) {
    throw Error(ErrorKind::InvalidInput, node.label(), *p);
  }
  DcmDataset keys;
  putQueryKey(keys, DCM_QueryRetrieveLevel, "STUDY");
  putQueryKey(keys, DCM_SpecificCharacterSet, "ISO_IR 192");
  putQueryKey(keys, DCM_StudyInstanceUID, query.studyInstanceUid);
  putQueryKey(keys, DCM_PatientName, query.patientName);
  putQueryKey(keys, DCM_PatientID, query.patientId);
  putQueryKey(keys, DCM_AccessionNumber, query.accessionNumber);
  putQueryKey(keys, DCM_ModalitiesInStudy, query.modality);
  putQueryKey(keys, DCM_StudyDate, query.studyDate);
  putQueryKey(keys, DCM_StudyDescription, query.studyDescription);
  for (const DcmTagKey& tag : {DCM_StudyTime, DCM_PatientBirthDate, DCM_PatientSex, DCM_StudyID,
                               DCM_NumberOfStudyRelatedSeries, DCM_NumberOfStudyRelatedInstances}) {
    putQueryKey(keys, tag, "");
  }
  std::vector<StudyRecord> studies;
  runFind(node, options, progress, keys, query.limit, [&](DcmDataset& d) {
    answerToUtf8(d);
    StudyRecord s;
    s.studyInstanceUid = answerText(d, DCM_StudyInstanceUID);
    s.patientName = answerText(d, DCM_PatientName);
    s.patientId = answerText(d, DCM_PatientID);
    s.patientBirthDate = answerText(d, DCM_PatientBirthDate);
    s.patientSex = answerText(d, DCM_PatientSex);
    s.studyDate = answerText(d, DCM_StudyDate);
    s.studyTime = answerText(d, DCM_StudyTime);
    s.accessionNumber = answerText(d, DCM_AccessionNumber);
    s.studyDescription = answerText(d, DCM_StudyDescription);
    s.modalities = splitValues(answerText(d, DCM_ModalitiesInStudy));
    s.seriesCount = answerNumber(d, DCM_NumberOfStudyRelatedSeries);
    s.instanceCount = answerNumber(d, DCM_NumberOfStudyRelatedInstances);
    if (!s.studyInstanceUid.empty()) {  // an answer without its unique key cannot be retrieved
      studies.push_back(std::move(s));
    }
  });
  return studies;
}

std::vector<SeriesRecord> findSeries(const DicomNode& node, const std::string& studyInstanceUid,
                                     const DicomNetworkOptions& options, ProgressSink& progress) {
  if (studyInstanceUid.empty()) {
    throw Error(ErrorKind::InvalidInput, node.label(), "listing series needs the study's UID");
  }
  DcmDataset keys;
  putQueryKey(keys, DCM_QueryRetrieveLevel, "SERIES");
  putQueryKey(keys, DCM_SpecificCharacterSet, "ISO_IR 192");
  putQueryKey(keys, DCM_StudyInstanceUID, studyInstanceUid);
  for (const DcmTagKey& tag :
       {DCM_SeriesInstanceUID, DCM_Modality, DCM_SeriesNumber, DCM_SeriesDescription,
        DCM_BodyPartExamined, DCM_NumberOfSeriesRelatedInstances}) {
    putQueryKey(keys, tag, "");
  }
  std::vector<SeriesRecord> series;
  runFind(node, options, progress, keys, 0, [&](DcmDataset& d) {
    answerToUtf8(d);
    SeriesRecord s;
    s.studyInstanceUid = studyInstanceUid;
    s.seriesInstanceUid = answerText(d, DCM_SeriesInstanceUID);
    s.modality = answerText(d, DCM_Modality);
    s.seriesNumber = answerNumber(d, DCM_SeriesNumber);
    s.seriesDescription = answerText(d, DCM_SeriesDescription);
    s.bodyPart = answerText(d, DCM_BodyPartExamined);
    s.instanceCount = answerNumber(d, DCM_NumberOfSeriesRelatedInstances);
    if (!s.seriesInstanceUid.empty()) {
      series.push_back(std::move(s));
    }
  });
  return series;
}

std::vector<InstanceRecord> findInstances(const DicomNode& node,
                                          const std::string& studyInstanceUid,
                                          const std::string& seriesInstanceUid,
                                          const DicomNetworkOptions& options,
                                          ProgressSink& progress) {
  if (studyInstanceUid.empty() || seriesInstanceUid.empty()) {
    throw Error(ErrorKind::InvalidInput, node.label(),
                "listing instances needs the study's and the series' UIDs");
  }
  DcmDataset keys;
  putQueryKey(keys, DCM_QueryRetrieveLevel, "IMAGE");
  putQueryKey(keys, DCM_StudyInstanceUID, studyInstanceUid);
  putQueryKey(keys, DCM_SeriesInstanceUID, seriesInstanceUid);
  for (const DcmTagKey& tag : {DCM_SOPInstanceUID, DCM_SOPClassUID, DCM_InstanceNumber}) {
    putQueryKey(keys, tag, "");
  }
  std::vector<InstanceRecord> instances;
  runFind(node, options, progress, keys, 0, [&](DcmDataset& d) {
    InstanceRecord r;
    r.seriesInstanceUid = seriesInstanceUid;
    r.sopInstanceUid = answerText(d, DCM_SOPInstanceUID);
    r.sopClassUid = answerText(d, DCM_SOPClassUID);
    r.instanceNumber = answerNumber(d, DCM_InstanceNumber);
    if (!r.sopInstanceUid.empty()) {
      instances.push_back(std::move(r));
    }
  });
  return instances;
}

}  // namespace delineate::core::pacs
