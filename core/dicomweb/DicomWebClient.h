#pragma once
// A DICOMweb PACS (PS3.18) as one DicomNode with a base URL: QIDO-RS searches for studies, series
// and instances (paged with limit/offset), WADO-RS retrieve of a series or of single instances
// into the same folder layout as C-GET, and STOW-RS stores whose every instance is checked in the
// answer. Basic or Bearer authentication; TLS always verified, with the node's own CA besides the
// system's. Blocking calls for jobs; Cancel stops between requests and aborts one in flight.
//
// Servers differ, and this client does not trust what they say about themselves: RetrieveURLs in
// answers are never followed (Orthanc names "localhost" in them), routes are built from the
// configured base; the stored bytes are asked for (transfer-syntax=*), and an instance stored in
// a syntax Delineate cannot decode (JPEG 2000) is asked for again as explicit little endian.
#include <filesystem>
#include <string>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/net/HttpClient.h"
#include "core/pacs/DicomGet.h"
#include "core/pacs/DicomNetwork.h"
#include "core/pacs/StudyRecords.h"

namespace delineate::core::pacs {

class DicomWebClient {
 public:
  // `secret`: the Basic password or the Bearer token (ignored without authentication). `http`
  // must outlive the client; the default builds one with the node's CA file.
  DicomWebClient(DicomNode node, std::string secret, net::HttpClient& http);

  // QIDO-RS. Results beyond `pageSize` are fetched page by page (limit/offset) until the server
  // has no more or query.limit is reached.
  std::vector<StudyRecord> findStudies(const StudyQuery& query, ProgressSink& progress);
  std::vector<SeriesRecord> findSeries(const std::string& studyInstanceUid, ProgressSink& progress);
  std::vector<InstanceRecord> findInstances(const std::string& studyInstanceUid,
                                            const std::string& seriesInstanceUid,
                                            ProgressSink& progress);
  // Is it there and does it take our credentials: a QIDO search for one study. Returns the
  // round trip in milliseconds; throws Error(Network) naming the node otherwise.
  double verify(ProgressSink& progress);

  // WADO-RS into `folder` (FOLDER/<series>/<sop>.dcm, written as .partial then renamed); what is
  // already there is not asked for again.
  RetrieveReport retrieve(const RetrieveRequest& request, const std::filesystem::path& folder,
                          ProgressSink& progress);

  // STOW-RS, in requests of at most `batchBytes` each.
  StoreReport store(const std::vector<std::filesystem::path>& files, ProgressSink& progress);

  std::size_t pageSize = 500;
  std::size_t batchBytes = std::size_t(64) << 20;

 private:
  net::HttpResponse get(const std::string& path, const std::string& accept, ProgressSink& progress);
  // Throws Error(Network) naming the node for a status that is not 2xx (401/403/404 explained).
  void checkStatus(const net::HttpResponse& r, const std::string& path) const;
  // The parts of a WADO-RS answer written as instances of `series`; returns their SOP UIDs and
  // those whose transfer syntax cannot be decoded here.
  struct Written {
    std::vector<std::string> sops;
    std::vector<std::string> undecodable;
  };
  Written writeParts(const net::HttpResponse& r, const std::string& path,
                     const std::filesystem::path& folder, const std::string& series);
  net::HttpResponse getInstances(const std::string& path, bool storedSyntax,
                                 ProgressSink& progress);

  DicomNode node_;
  std::string secret_;
  net::HttpClient& http_;
  std::string base_;  // the URL without trailing slashes
  bool quoteType_ = true;
};

}  // namespace delineate::core::pacs
