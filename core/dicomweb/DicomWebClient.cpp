#include "core/dicomweb/DicomWebClient.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcmetinf.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <set>

#include "core/Base64.h"
#include "core/Error.h"
#include "core/Text.h"
#include "core/ai/Multipart.h"
#include "core/io/DicomCodecs.h"
#include "core/pacs/DicomJson.h"
#include "core/pacs/LocalInstance.h"
#include "core/pacs/StowAnswer.h"

namespace delineate::core::pacs {

namespace fs = std::filesystem;

namespace {

constexpr const char* kExplicitLittle = "1.2.840.10008.1.2.1";
// A series whose pixels come to more than this is fetched instance by instance, so that one
// answer held in memory stays small (a whole 500-slice CT in one answer peaked at 900 MB).
constexpr long long kSeriesAtOnceBytes = 48ll << 20;
constexpr long long kUnknownInstanceBytes = 1ll << 20;  // a node that did not give the sizes
constexpr const char* kStudyFields = "00081030,00080061,00201206,00201208,00100030,00100040";
constexpr const char* kSeriesFields = "0008103E,00180015,00200011,00201209";

// Transfer syntaxes DCMTK 3.6.7 decodes here (uncompressed, deflate, JPEG, JPEG-LS, RLE).
bool decodable(const std::string& ts) {
  static const std::set<std::string> known = {
      "1.2.840.10008.1.2",      "1.2.840.10008.1.2.1",    "1.2.840.10008.1.2.1.99",
      "1.2.840.10008.1.2.2",    "1.2.840.10008.1.2.4.50", "1.2.840.10008.1.2.4.51",
      "1.2.840.10008.1.2.4.57", "1.2.840.10008.1.2.4.70", "1.2.840.10008.1.2.4.80",
      "1.2.840.10008.1.2.4.81", "1.2.840.10008.1.2.5"};
  return ts.empty() || known.count(ts) != 0;
}

struct Meta {
  std::string sopInstanceUid;
  std::string transferSyntax;
};

// The File Meta Information of a Part-10 file; nullopt when it has none.
std::optional<Meta> readMeta(const fs::path& file) {
  DcmMetaInfo meta;
  if (meta.loadFile(file.c_str()).bad()) {
    return std::nullopt;
  }
  OFString sop, ts;
  meta.findAndGetOFString(DCM_MediaStorageSOPInstanceUID, sop);
  meta.findAndGetOFString(DCM_TransferSyntaxUID, ts);
  if (sop.empty()) {
    return std::nullopt;
  }
  return Meta{sop.c_str(), ts.c_str()};
}

// A QIDO-RS match value in a URL. DICOM's wildcards (* ?), the ^ of person names and the commas
// of lists go as they are: Orthanc 1.10 with DICOMweb 1.7 does not percent-decode query values,
// so "DOE%5E*" or "%2A" match nothing there, while every server reads them raw. A space, which
// cannot go raw, becomes the one-character wildcard ? for the same reason ("Ball phantom*" is
// sent as "Ball?phantom*": it matches what was asked, and a little more). Characters that would
// break the URL are percent-encoded.
std::string qidoValue(std::string_view value) {
  std::string spaced(value);
  std::replace(spaced.begin(), spaced.end(), ' ', '?');
  return percentEncode(spaced, "*?^,:@/!$'();");
}

std::string query(const std::vector<std::pair<std::string, std::string>>& params) {
  std::string out;
  for (const auto& [key, value] : params) {
    if (value.empty()) {
      continue;
    }
    out += out.empty() ? '?' : '&';
    out += key + "=" + qidoValue(value);
  }
  return out;
}

std::string excerpt(const std::string& body) {
  std::string text = body.substr(0, 200);
  for (char& c : text) {
    if (static_cast<unsigned char>(c) < 0x20) {
      c = ' ';
    }
  }
  return text;
}

void authorize(net::HttpRequest& request, const DicomNode& node, const std::string& secret) {
  if (node.auth == WebAuth::Basic) {
    const std::string pair = node.user + ":" + secret;
    request.headers.emplace_back(
        "Authorization",
        "Basic " + base64Encode(reinterpret_cast<const std::uint8_t*>(pair.data()), pair.size()));
  } else if (node.auth == WebAuth::Bearer) {
    request.headers.emplace_back("Authorization", "Bearer " + secret);
  }
}

std::string readFile(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

DicomWebClient::DicomWebClient(DicomNode node, std::string secret, net::HttpClient& http)
    : node_(std::move(node)), secret_(std::move(secret)), http_(http), base_(node_.dicomWebUrl) {
  while (!base_.empty() && base_.back() == '/') {
    base_.pop_back();
  }
  if (auto p = node_.problem()) {
    throw Error(ErrorKind::InvalidInput, node_.label(), *p);
  }
}

net::HttpResponse DicomWebClient::get(const std::string& path, const std::string& accept,
                                      ProgressSink& progress) {
  progress.throwIfCancelled();
  net::HttpRequest request;
  request.url = base_ + "/" + path;
  request.headers.emplace_back("Accept", accept);
  authorize(request, node_, secret_);
  net::HttpResponse r = http_.send(request, progress);
  progress.throwIfCancelled();
  return r;
}

void DicomWebClient::checkStatus(const net::HttpResponse& r, const std::string& path) const {
  if (r.ok()) {
    return;
  }
  const std::string code = "HTTP " + std::to_string(r.status);
  switch (r.status) {
    case 401:
      throw Error(ErrorKind::Network, node_.label(),
                  node_.auth == WebAuth::None
                      ? "the server asks for credentials (" + code +
                            "): set its authentication in Preferences"
                      : "the server did not accept the credentials (" + code +
                            "): check the user and the password or token");
    case 403:
      throw Error(ErrorKind::Network, node_.label(), "the server refused access (" + code + ")");
    case 404:
      throw Error(ErrorKind::Network, node_.label(),
                  "the server has no " + path.substr(0, path.find('?')) + " (" + code + "): is " +
                      base_ + " the root of its DICOMweb routes (…/dicom-web)?");
    default:
      throw Error(ErrorKind::Network, node_.label(),
                  "the server answered " + code + (r.reason.empty() ? "" : " " + r.reason) +
                      " to " + path.substr(0, path.find('?')) +
                      (r.body.empty() ? "" : ": " + excerpt(r.body)));
  }
}

namespace {

// QIDO-RS paging: `parse` fetches one page (the path with limit and offset) and reads it.
template <typename Record, typename Parse>
std::vector<Record> pagedSearch(const std::string& path, std::size_t limit, std::size_t pageSize,
                                Parse parse, ProgressSink& progress) {
  std::vector<Record> out;
  for (std::size_t offset = 0;;) {
    const std::size_t want = limit == 0 ? pageSize : std::min(pageSize, limit - out.size());
    const std::string paged = path + (path.find('?') == std::string::npos ? "?" : "&") +
                              "limit=" + std::to_string(want) + "&offset=" + std::to_string(offset);
    std::vector<Record> page = parse(paged);
    const std::size_t got = page.size();
    for (Record& r : page) {
      out.push_back(std::move(r));
    }
    progress.report(0, std::to_string(out.size()) + " found");
    offset += want;
    // A short page is the last; so is an answer that ignored the limit (it gave everything).
    if (got < want || got > want || (limit != 0 && out.size() >= limit)) {
      break;
    }
  }
  if (limit != 0 && out.size() > limit) {
    out.resize(limit);
  }
  return out;
}

}  // namespace

std::vector<StudyRecord> DicomWebClient::findStudies(const StudyQuery& q, ProgressSink& progress) {
  if (auto p = q.problem()) {
    throw Error(ErrorKind::InvalidInput, node_.label(), *p);
  }
  std::string path = "studies" + query({{"StudyInstanceUID", q.studyInstanceUid},
                                        {"PatientName", q.patientName},
                                        {"PatientID", q.patientId},
                                        {"AccessionNumber", q.accessionNumber},
                                        {"ModalitiesInStudy", q.modality},
                                        {"StudyDate", q.studyDate},
                                        {"StudyDescription", q.studyDescription},
                                        {"includefield", kStudyFields}});
  return pagedSearch<StudyRecord>(
      path, q.limit, pageSize,
      [&](const std::string& p) {
        const net::HttpResponse r = get(p, "application/dicom+json", progress);
        checkStatus(r, p);
        return studiesFromDicomJson(r.body, node_.label());
      },
      progress);
}

std::vector<SeriesRecord> DicomWebClient::findSeries(const std::string& study,
                                                     ProgressSink& progress) {
  if (study.empty()) {
    throw Error(ErrorKind::InvalidInput, node_.label(), "listing series needs the study's UID");
  }
  const std::string path =
      "studies/" + percentEncode(study) + "/series" + query({{"includefield", kSeriesFields}});
  std::vector<SeriesRecord> series = pagedSearch<SeriesRecord>(
      path, 0, pageSize,
      [&](const std::string& p) {
        const net::HttpResponse r = get(p, "application/dicom+json", progress);
        checkStatus(r, p);
        return seriesFromDicomJson(r.body, node_.label());
      },
      progress);
  for (SeriesRecord& s : series) {
    s.studyInstanceUid = study;
  }
  return series;
}

std::vector<InstanceRecord> DicomWebClient::findInstances(const std::string& study,
                                                          const std::string& series,
                                                          ProgressSink& progress) {
  if (study.empty() || series.empty()) {
    throw Error(ErrorKind::InvalidInput, node_.label(),
                "listing instances needs the study's and the series' UIDs");
  }
  const std::string path =
      "studies/" + percentEncode(study) + "/series/" + percentEncode(series) + "/instances";
  std::vector<InstanceRecord> instances = pagedSearch<InstanceRecord>(
      path, 0, pageSize,
      [&](const std::string& p) {
        const net::HttpResponse r = get(p, "application/dicom+json", progress);
        checkStatus(r, p);
        return instancesFromDicomJson(r.body, node_.label());
      },
      progress);
  for (InstanceRecord& i : instances) {
    i.seriesInstanceUid = series;
  }
  return instances;
}

double DicomWebClient::verify(ProgressSink& progress) {
  const auto start = std::chrono::steady_clock::now();
  const std::string path = "studies?limit=1";
  const net::HttpResponse r = get(path, "application/dicom+json", progress);
  checkStatus(r, path);
  try {
    studiesFromDicomJson(r.body, node_.label());
  } catch (const Error&) {
    throw Error(ErrorKind::Network, node_.label(),
                "the server answered a study search with something that is not DICOM JSON: "
                "is " +
                    base_ + " the root of its DICOMweb routes?");
  }
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

net::HttpResponse DicomWebClient::getInstances(const std::string& path, bool storedSyntax,
                                               ProgressSink& progress) {
  const auto accept = [&](bool quoted, const char* syntax) {
    std::string a = quoted ? R"(multipart/related; type="application/dicom")"
                           : "multipart/related; type=application/dicom";
    if (syntax != nullptr) {
      a += std::string("; transfer-syntax=") + syntax;
    }
    return a;
  };
  const char* syntax = storedSyntax ? "*" : kExplicitLittle;
  net::HttpResponse r = get(path, accept(quoteType_, syntax), progress);
  if ((r.status == 400 || r.status == 406) && quoteType_) {
    // An older parser that takes the quotes as part of the type.
    net::HttpResponse unquoted = get(path, accept(false, syntax), progress);
    if (unquoted.ok()) {
      quoteType_ = false;
      return unquoted;
    }
  }
  if ((r.status == 400 || r.status == 406) && storedSyntax) {
    // A server that does not know "*": its default (explicit little endian by the standard).
    net::HttpResponse plain = get(path, accept(quoteType_, nullptr), progress);
    if (plain.ok()) {
      return plain;
    }
  }
  checkStatus(r, path);
  return r;
}

DicomWebClient::Written DicomWebClient::writeParts(const net::HttpResponse& r,
                                                   const std::string& path, const fs::path& folder,
                                                   const std::string& series) {
  std::vector<std::string_view> payloads;
  const std::string type = r.contentType();
  if (ai::mediaTypeIs(type, "application", "dicom")) {
    payloads.emplace_back(r.body);  // one instance, not wrapped in multipart
  } else if (ai::mediaTypeIs(type, "multipart", "related")) {
    try {
      for (const ai::MultipartPart& part : ai::parseMultipart(type, std::string_view(r.body))) {
        payloads.push_back(part.body);
      }
    } catch (const Error& e) {
      throw Error(ErrorKind::Network, node_.label(),
                  "the answer to " + path + " is cut or garbled: " + e.detail());
    }
  } else {
    throw Error(
        ErrorKind::Network, node_.label(),
        "the answer to " + path + " is \"" + type + "\", not DICOM instances (multipart/related)");
  }
  const fs::path seriesFolder = retrievedFile(folder, series, "x").parent_path();
  std::error_code ec;
  fs::create_directories(seriesFolder, ec);
  if (ec) {
    throw Error(ErrorKind::Io, seriesFolder.string(), "cannot create the folder: " + ec.message());
  }
  Written written;
  for (std::size_t i = 0; i < payloads.size(); ++i) {
    const fs::path partial = seriesFolder / ("incoming-" + std::to_string(i) + ".partial");
    {
      std::ofstream out(partial, std::ios::binary | std::ios::trunc);
      out.write(payloads[i].data(), std::streamsize(payloads[i].size()));
      if (!out.flush()) {
        fs::remove(partial, ec);
        throw Error(ErrorKind::Io, partial.string(), "cannot write the instance (disk full?)");
      }
    }
    const std::optional<Meta> meta = readMeta(partial);
    if (!meta) {
      fs::remove(partial, ec);
      throw Error(ErrorKind::Network, node_.label(),
                  "part " + std::to_string(i + 1) + " of the answer to " + path +
                      " is not a DICOM file with a meta header");
    }
    fs::rename(partial, retrievedFile(folder, series, meta->sopInstanceUid), ec);
    if (ec) {
      fs::remove(partial, ec);
      throw Error(ErrorKind::Io, seriesFolder.string(),
                  "cannot keep the instance: " + ec.message());
    }
    written.sops.push_back(meta->sopInstanceUid);
    if (!decodable(meta->transferSyntax)) {
      written.undecodable.push_back(meta->sopInstanceUid);
    }
  }
  return written;
}

RetrieveReport DicomWebClient::retrieve(const RetrieveRequest& request, const fs::path& folder,
                                        ProgressSink& progress) {
  if (request.studyInstanceUid.empty()) {
    throw Error(ErrorKind::InvalidInput, node_.label(), "a retrieve needs the study's UID");
  }
  ensureDicomCodecs();
  const std::string study = request.studyInstanceUid;
  SubProgress listing(progress, 0, 0.05);
  std::vector<std::string> seriesUids;
  if (!request.seriesInstanceUid.empty()) {
    seriesUids.push_back(request.seriesInstanceUid);
  } else {
    for (const SeriesRecord& s : findSeries(study, listing)) {
      seriesUids.push_back(s.seriesInstanceUid);
    }
  }
  // Per series: what the server holds, and what of it is not here yet.
  std::map<std::string, std::vector<InstanceRecord>> wanted;
  std::size_t lackingTotal = 0;
  RetrieveReport report;
  std::map<std::string, std::vector<std::string>> lacking;
  for (const std::string& series : seriesUids) {
    wanted[series] = findInstances(study, series, listing);
    for (const InstanceRecord& r : wanted[series]) {
      const fs::path file = retrievedFile(folder, series, r.sopInstanceUid);
      if (localInstanceIsWhole(file, r.sopInstanceUid)) {
        ++report.alreadyLocal;
      } else {
        std::error_code ec;
        fs::remove(file, ec);  // damaged or cut short: never counted as retrieved
        lacking[series].push_back(r.sopInstanceUid);
        ++lackingTotal;
      }
    }
  }
  std::size_t done = 0;
  const auto advance = [&](std::size_t n) {
    done += n;
    report.received += n;
    progress.report(0.05 + 0.95 * double(std::min(done, lackingTotal)) /
                               double(std::max<std::size_t>(lackingTotal, 1)),
                    std::to_string(std::min(done, lackingTotal)) + " of " +
                        std::to_string(lackingTotal) + " instances from " + node_.label());
  };
  for (const auto& [series, sops] : lacking) {
    const std::string seriesPath =
        "studies/" + percentEncode(study) + "/series/" + percentEncode(series);
    std::vector<std::string> undecodable;
    long long seriesBytes = 0;
    for (const InstanceRecord& r : wanted[series]) {
      seriesBytes += r.pixelBytes > 0 ? r.pixelBytes : kUnknownInstanceBytes;
    }
    // Nothing of it here and small enough to hold in memory: the series in one answer.
    if (sops.size() == wanted[series].size() && seriesBytes <= kSeriesAtOnceBytes) {
      const Written w =
          writeParts(getInstances(seriesPath, true, progress), seriesPath, folder, series);
      advance(w.sops.size());
      undecodable = w.undecodable;
    } else {  // what is missing, instance by instance: one instance in memory at a time
      for (const std::string& sop : sops) {
        const std::string path = seriesPath + "/instances/" + percentEncode(sop);
        const Written w = writeParts(getInstances(path, true, progress), path, folder, series);
        advance(w.sops.size());
        undecodable.insert(undecodable.end(), w.undecodable.begin(), w.undecodable.end());
      }
    }
    for (const std::string& sop : undecodable) {  // stored as JPEG 2000: ask for it decoded
      const std::string path = seriesPath + "/instances/" + percentEncode(sop);
      writeParts(getInstances(path, false, progress), path, folder, series);
    }
  }
  for (const auto& [series, records] : wanted) {
    noteRetrieved(report, folder, records);  // their seriesInstanceUid is `series`
  }
  progress.report(1, "retrieved");
  return report;
}

StoreReport DicomWebClient::store(const std::vector<fs::path>& files, ProgressSink& progress) {
  ensureDicomCodecs();
  StoreReport report;
  report.files.reserve(files.size());
  struct Pending {
    std::size_t index;
    std::string sop;
  };
  std::vector<Pending> batch;
  std::string body;
  std::string boundary = ai::MultipartEncoder::randomBoundary();
  std::size_t sent = 0;

  const auto flush = [&] {
    if (batch.empty()) {
      return;
    }
    body += "--" + boundary + "--\r\n";
    net::HttpRequest request;
    request.method = "POST";
    request.url = base_ + "/studies";
    request.contentType = R"(multipart/related; type="application/dicom"; boundary=)" + boundary;
    request.body = std::move(body);
    request.reuseConnection = false;  // a store is not to be sent twice by the library
    request.headers.emplace_back("Accept", "application/dicom+json");
    authorize(request, node_, secret_);
    progress.throwIfCancelled();
    const net::HttpResponse r = http_.send(request, progress);
    // 200, 202 (some failed), 400 (all failed) and 409 (study mismatch) say per instance.
    const bool perInstance = r.ok() || r.status == 400 || r.status == 409;
    if (!perInstance || (!r.ok() && r.body.empty())) {
      checkStatus(r, "studies");
    }
    std::vector<std::string> uids;
    for (const Pending& p : batch) {
      uids.push_back(p.sop);
    }
    const auto outcomes = stowOutcomes(r.status, r.body, uids);
    for (const Pending& p : batch) {
      const StowOutcome& o = outcomes.at(p.sop);
      StoredFile& f = report.files[p.index];
      f.stored = o.stored;
      f.status = o.failureReason;
      f.message = o.message;
    }
    sent += batch.size();
    progress.report(
        double(sent) / double(std::max<std::size_t>(files.size(), 1)),
        std::to_string(sent) + " of " + std::to_string(files.size()) + " sent to " + node_.label());
    batch.clear();
    body.clear();
    boundary = ai::MultipartEncoder::randomBoundary();
  };

  for (const fs::path& file : files) {
    progress.throwIfCancelled();
    StoredFile& f = report.files.emplace_back();
    f.file = file;
    const std::optional<Meta> meta = readMeta(file);
    if (!meta) {
      f.message = "not a DICOM file with a meta header (Part 10)";
      continue;
    }
    std::string bytes = readFile(file);
    if (bytes.empty()) {
      f.message = "cannot read the file";
      continue;
    }
    if (!body.empty() && body.size() + bytes.size() > batchBytes) {
      flush();
    }
    if (bytes.find("--" + boundary) != std::string::npos) {  // never in practice
      flush();
      while (bytes.find("--" + boundary) != std::string::npos) {
        boundary = ai::MultipartEncoder::randomBoundary();
      }
    }
    body += "--" + boundary + "\r\nContent-Type: application/dicom\r\n\r\n";
    body += bytes;
    body += "\r\n";
    batch.push_back({report.files.size() - 1, meta->sopInstanceUid});
  }
  flush();
  return report;
}

}  // namespace delineate::core::pacs
