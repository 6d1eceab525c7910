#pragma once
// A DICOM node (a PACS, a workstation, a research archive) this workstation talks DIMSE to: its
// name for people, its Application Entity title, host and port, and whether what is sent to it
// must be de-identified. Checked before use, with a
// message saying which field is wrong; kept as JSON in the settings.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace delineate::core::pacs {

struct DicomNode {
  std::string name;     // "Reading room PACS"
  std::string aeTitle;  // the called AE title, 1-16 characters of the default repertoire
  std::string host;
  int port = 104;
  // A research archive rather than the hospital's PACS: what is sent to it is de-identified
  // first (the options of Edit > Preferences > De-identification).
  bool deidentify = false;

  // "Reading room PACS (ORTHANC@pacs.local:4242)", for messages.
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

}  // namespace delineate::core::pacs
