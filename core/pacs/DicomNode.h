#pragma once
// A DICOM node (a PACS, a workstation, a research archive) this workstation talks to: its name
// for people and whether what is sent to it must be de-identified, then either DIMSE (its
// Application Entity title, host and port) or DICOMweb (the service's base URL, how it
// authenticates us, a CA to trust for its TLS certificate). Checked before use, with a message
// saying which field is wrong; kept as JSON in the settings. The DICOMweb secret (password or
// token) is never in here: the app keeps it in the system keychain.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace delineate::core::pacs {

enum class WebAuth { None, Basic, Bearer };

struct DicomNode {
  std::string name;     // "Reading room PACS"
  std::string aeTitle;  // the called AE title, 1-16 characters of the default repertoire
  std::string host;
  int port = 104;
  // A research archive rather than the hospital's PACS: what is sent to it is de-identified
  // first (the options of Edit > Preferences > De-identification).
  bool deidentify = false;
  // DIMSE: retrieve by C-MOVE to this workstation's Storage SCP instead of C-GET (for a PACS
  // that does not offer C-GET).
  bool retrieveByMove = false;
  // DICOMweb: the base URL of the studies/series/instances routes, e.g.
  // https://pacs.example.org/dicom-web. Empty for a DIMSE node.
  std::string dicomWebUrl{};
  WebAuth auth = WebAuth::None;
  std::string user{};    // Basic: the user name
  std::string caFile{};  // PEM bundle trusted besides the system's; empty: the system's only

  bool isDicomWeb() const { return !dicomWebUrl.empty(); }

  // "Reading room PACS (ORTHANC@pacs.local:4242)" or "Archive (https://host/dicom-web)".
  std::string label() const;
  // What is wrong with it (the first problem found), nullopt when it can be used.
  std::optional<std::string> problem() const;

  nlohmann::json toJson() const;
  // Missing fields stay empty or default; problem() then says so.
  static DicomNode fromJson(const nlohmann::json& j);
  bool operator==(const DicomNode&) const = default;
};

// An AE title as DICOM allows it (PS3.5 AE VR): 1-16 characters, no backslash, no control
// characters, not only spaces. Returns the problem, or nullopt.
std::optional<std::string> aeTitleProblem(const std::string& aeTitle);

// "none", "basic", "bearer"; fromString gives None for anything else.
std::string toString(WebAuth auth);
WebAuth webAuthFromString(const std::string& text);

}  // namespace delineate::core::pacs
