#pragma once
// De-identifies one DICOM dataset in memory by PS3.15's Basic Application Level Confidentiality
// Profile and the chosen options (see DeidProfile.h for the table): every listed attribute gets
// its action, inside sequences too; private attributes, curves and overlays go; every UID that
// identifies an instance, series, study or frame of reference gets its consistent pseudonym from
// the re-identification map, so that a study and the SEG and SR that refer to it still match.
#include <optional>
#include <string>

#include "core/deid/DeidOptions.h"

class DcmItem;

namespace delineate::core::deid {

class ReidentificationMap;

struct DatasetOutcome {
  // Set when the dataset must not leave the workstation (see HoldBackPolicy.h); it is then left
  // unchanged.
  std::optional<std::string> heldBackReason;
  std::string patientPseudonym;
  std::string studyInstanceUid;  // the new ones, for naming the output
  std::string seriesInstanceUid;
  std::string sopInstanceUid;
};

class Deidentifier {
 public:
  Deidentifier(const DeidOptions& options, ReidentificationMap& map);

  // De-identifies `dataset` (the data set of a file, not its meta header) in place and marks it:
  // Patient Identity Removed YES, De-identification Method and its code sequence (CID 7050),
  // Longitudinal Temporal Information Modified. `where` names the file for errors. Throws
  // Error(InvalidInput) when the dataset has no SOP Instance UID.
  DatasetOutcome apply(DcmItem& dataset, const std::string& where) const;

 private:
  DeidOptions options_;
  ReidentificationMap& map_;
};

}  // namespace delineate::core::deid
