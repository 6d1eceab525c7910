#pragma once
// The workstation's record of who a pseudonym stands for: patient pseudonyms with their date
// shift, replaced UIDs and renamed files, plus the secret every pseudonym is derived from, so that
// later runs give the same pseudonyms. It stays on the workstation, readable by its owner only
// (file 0600, a folder it creates 0700), and is never written next to de-identified output.
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>

namespace delineate::core::deid {

struct PatientPseudonym {
  std::string pseudonym;  // "DLN-" + 12 hex digits: Patient ID and Patient's Name of the output
  int dateShiftDays = 0;  // added to every date of the patient's files; between -3650 and -365
};

struct PatientRecord {
  std::string patientId;
  std::string patientName;
  int dateShiftDays = 0;
};

class ReidentificationMap {
 public:
  // Opens the map at `path`, or starts a new one with a fresh random secret when no file is
  // there (nothing is written before save()). Throws Error naming the file when it exists but
  // cannot be read or is not a map: an unreadable map must never be silently replaced, or every
  // pseudonym would change. Tightens the file's permissions to 0600 when they were wider.
  explicit ReidentificationMap(std::filesystem::path path);

  ReidentificationMap(const ReidentificationMap&) = delete;
  ReidentificationMap& operator=(const ReidentificationMap&) = delete;

  // $XDG_DATA_HOME/delineate/reid/reid-map.json, or ~/.local/share/delineate/reid/reid-map.json.
  // Throws Error(Io) when neither XDG_DATA_HOME nor HOME is set.
  static std::filesystem::path defaultPath();

  const std::filesystem::path& path() const { return path_; }

  // The pseudonym and date shift of the patient identified by `key` (the same key gives the same
  // answer in every run with this map); records the original identity for re-identification.
  PatientPseudonym patient(const std::string& key, const std::string& originalId,
                           const std::string& originalName);
  // The replacement of `originalUid`: "2.25.<128-bit decimal>", the same in every run.
  std::string uid(const std::string& originalUid);
  // A file name carrying no identifier for the file known as `originalKey` (its path):
  // "DLN-<16 hex digits>" + extension.
  std::string fileName(const std::string& originalKey, const std::string& extension);

  // Re-identification, for use on the workstation only.
  std::optional<std::string> originalUid(const std::string& pseudonymUid) const;
  std::optional<PatientRecord> originalPatient(const std::string& pseudonym) const;
  std::optional<std::string> originalFile(const std::string& pseudonymName) const;

  // Writes the map atomically with mode 0600 when anything was added since it was opened or last
  // saved; creates missing folders with mode 0700. Throws Error(Io) naming the file.
  void save();

 private:
  std::string keyedHash(const std::string& purpose, const std::string& value) const;
  void load();

  std::filesystem::path path_;
  std::string secret_;
  mutable std::mutex mutex_;
  bool dirty_ = false;
  std::map<std::string, PatientRecord> patients_;       // pseudonym -> original
  std::map<std::string, std::string> uidsByOriginal_;   // original -> pseudonym
  std::map<std::string, std::string> uidsByPseudonym_;  // pseudonym -> original
  std::map<std::string, std::string> files_;            // pseudonym name -> original path
};

}  // namespace delineate::core::deid
