#include "core/dicomweb/PacsService.h"

#include "core/dicomweb/DicomWebClient.h"
#include "core/pacs/DicomFind.h"
#include "core/pacs/EarlierStudies.h"

namespace delineate::core::pacs {

namespace {

// A DICOMweb client for the node over a fresh HTTP client trusting the node's CA.
template <typename Call>
auto overWeb(const DicomNode& node, const PacsAccess& access, Call call) {
  const std::unique_ptr<net::HttpClient> http = net::makeHttpClient({node.caFile});
  DicomWebClient client(node, access.secret, *http);
  return call(client);
}

}  // namespace

double verifyNode(const DicomNode& node, const PacsAccess& access, ProgressSink& progress) {
  if (node.isDicomWeb()) {
    return overWeb(node, access, [&](DicomWebClient& c) { return c.verify(progress); });
  }
  return echo(node, access.dimse, progress);
}

std::vector<StudyRecord> queryStudies(const DicomNode& node, const StudyQuery& query,
                                      const PacsAccess& access, ProgressSink& progress) {
  if (node.isDicomWeb()) {
    return overWeb(node, access, [&](DicomWebClient& c) { return c.findStudies(query, progress); });
  }
  return findStudies(node, query, access.dimse, progress);
}

std::vector<SeriesRecord> querySeries(const DicomNode& node, const std::string& study,
                                      const PacsAccess& access, ProgressSink& progress) {
  if (node.isDicomWeb()) {
    return overWeb(node, access, [&](DicomWebClient& c) { return c.findSeries(study, progress); });
  }
  return findSeries(node, study, access.dimse, progress);
}

std::vector<InstanceRecord> queryInstances(const DicomNode& node, const std::string& study,
                                           const std::string& series, const PacsAccess& access,
                                           ProgressSink& progress) {
  if (node.isDicomWeb()) {
    return overWeb(node, access,
                   [&](DicomWebClient& c) { return c.findInstances(study, series, progress); });
  }
  return findInstances(node, study, series, access.dimse, progress);
}

std::vector<StudyRecord> findEarlierStudies(const DicomNode& node, const StudyRecord& current,
                                            const std::string& modality,
                                            const std::string& dateRange, const PacsAccess& access,
                                            ProgressSink& progress) {
  const auto query = earlierStudiesQuery(current, modality, dateRange);
  if (!query) {
    return {};
  }
  return earlierStudies(current, *query, queryStudies(node, *query, access, progress));
}

RetrieveReport retrieveStudy(const DicomNode& node, const RetrieveRequest& request,
                             const std::filesystem::path& folder, const PacsAccess& access,
                             ProgressSink& progress) {
  if (node.isDicomWeb()) {
    return overWeb(node, access,
                   [&](DicomWebClient& c) { return c.retrieve(request, folder, progress); });
  }
  return retrieveDimse(node, request, folder, access.dimse, progress, node.retrieveByMove);
}

StoreReport sendFiles(const DicomNode& node, const std::vector<std::filesystem::path>& files,
                      const PacsAccess& access, ProgressSink& progress) {
  if (node.isDicomWeb()) {
    return overWeb(node, access, [&](DicomWebClient& c) { return c.store(files, progress); });
  }
  return store(node, files, access.dimse, progress);
}

}  // namespace delineate::core::pacs
