#pragma once
// A real PACS for the tests: Debian's Orthanc started as its own process with a configuration of
// the test's own (storage in a temporary folder, free ports). Its HTTP API listens on 127.0.0.1
// only; its DICOM port (Orthanc has no listen address setting) accepts associations only from
// the calling AE titles registered here at 127.0.0.1 (DicomCheckModalityHost). Skips the test
// when Orthanc is not installed.
#include <sys/types.h>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/pacs/DicomNode.h"

namespace delineate::test {

struct OrthancOptions {
  // The calling AE titles Orthanc accepts (from 127.0.0.1).
  std::vector<std::string> allowedCallers = {"DELINEATE"};
  // Where Orthanc sends C-MOVE sub-operations for those callers (their Storage SCP port).
  int callerPort = 104;
  // Find and move allowed to any caller (a move to an unregistered AE then fails A801).
  bool anyCallerMayQuery = false;
  // Loads Debian's DICOMweb plugin (orthanc-dicomweb) under /dicom-web/.
  bool dicomWeb = false;
  // HTTP Basic users (name, password); none: no authentication.
  std::vector<std::pair<std::string, std::string>> users{};
  // Nagle's algorithm off in Orthanc (TCP_NODELAY=1 in its environment): each instance stored or
  // sent costs ~50 ms less. Off (false) it runs as Debian's service does.
  bool tcpNoDelay = true;
};

class OrthancServer {
 public:
  static constexpr const char* kAeTitle = "TESTPACS";
  static constexpr const char* kBinary = "/usr/sbin/Orthanc";
  static bool installed();

  static constexpr const char* kDicomWebPlugin = "/usr/share/orthanc/plugins/libOrthancDicomWeb.so";
  static bool dicomWebInstalled();

  // `allowedCallers`: the calling AE titles Orthanc accepts (from 127.0.0.1).
  OrthancServer(const std::filesystem::path& folder,
                std::vector<std::string> allowedCallers = {"DELINEATE"});
  OrthancServer(const std::filesystem::path& folder, OrthancOptions options);
  ~OrthancServer();
  OrthancServer(const OrthancServer&) = delete;
  OrthancServer& operator=(const OrthancServer&) = delete;

  bool running() const { return ready_; }
  core::pacs::DicomNode node() const;
  // The DICOMweb node (base URL http://127.0.0.1:PORT/dicom-web, Basic auth with the first user
  // when there are users).
  core::pacs::DicomNode webNode() const;
  std::string httpBase() const { return "http://127.0.0.1:" + std::to_string(httpPort_); }
  int dicomPort() const { return dicomPort_; }
  // GET on the REST API (e.g. "/instances"), parsed.
  nlohmann::json get(const std::string& path) const;

 private:
  pid_t pid_ = -1;
  int httpPort_ = 0;
  int dicomPort_ = 0;
  bool ready_ = false;
  OrthancOptions options_;
  std::filesystem::path scratch_;  // its database in /dev/shm, removed at the end
};

}  // namespace delineate::test
