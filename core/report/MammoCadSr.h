#pragma once
// AI findings as a DICOM Mammography CAD SR (SOP class 1.2.840.10008.5.1.4.1.1.88.50, template
// TID 4000 "Mammography CAD Document Root"), read and written with DCMTK's dcmsr. The tree, the
// codes and what is read from which item are in docs/cad-sr.md; in short:
//
//   CONTAINER (111036, DCM, "Mammography CAD Report")           template DCMR 4000
//     HAS CONCEPT MOD Language; CONTAINS CONTAINER Image Library: one IMAGE per view (TID 4020)
//     CONTAINS CODE (111017, "CAD Processing and Findings Summary") = CID 6047
//       INFERRED FROM CONTAINER (111034, "Individual Impression/Recommendation"), per mark:
//         HAS CONCEPT MOD Rendering Intent (CID 6034)
//         CONTAINS CODE (111059, "Single Image Finding") = the kind (CID 6014)
//           HAS CONCEPT MOD Rendering Intent; HAS PROPERTIES Algorithm Name / Version (TID 4019),
//           Certainty of Finding (%), Probability of cancer (%), SCOORD Center (POINT) and Outline
//           (POLYLINE, or ELLIPSE for a box), each R-SELECTED FROM its Image Library entry
//     CONTAINS CODE (111064, "Summary of Detections") and (111065, "Summary of Analyses")
//
// Reading also takes what other CAD writers put there: composite features (TID 4004, whose kind
// and certainty their single-image findings take), findings by reference, legacy SNOMED-RT codes,
// CIRCLE and ELLIPSE outlines, the effective rendering intent of nested items (the most
// restrictive on the way down, as PS3.4 has displays do), and failed detections and analyses.
// Kinds: a single-view "Mammography breast density" is the CAD term for a mass candidate and
// reads as "mass"; the findings' "mass" is written as it. A kind with no code is written as a
// "Selected region" whose description is the kind.
#include <filesystem>
#include <string>
#include <vector>

#include "core/mammo/MammoFindings.h"

namespace delineate::core::report {

inline constexpr const char* kMammographyCadSrClass = "1.2.840.10008.5.1.4.1.1.88.50";

struct CadSrOptions {
  std::string algorithmVersion = "1";  // TID 4019 Algorithm Version (the name is the source)
  // Kinds the algorithm looked for (Summary of Detections); empty: the kinds of the marks.
  std::vector<std::string> detectionsPerformed;
  std::string seriesDescription = "Mammography CAD";
  int seriesNumber = 402;
};

// Writes `findings` as a Mammography CAD SR in the study of `viewFiles` (the DICOM files of the
// views; every image a mark is on must be one of them, named by SOP Instance UID or path),
// saved atomically. The case score has no place in TID 4000 and is not written. Throws
// Error(InvalidInput) naming `out` and the image when a mark's image is not among the views,
// naming a view file that cannot be read, and Error naming `out` when a DCMTK call fails.
void writeMammographyCadSr(const mammo::StudyFindings& findings,
                           const std::vector<std::filesystem::path>& viewFiles,
                           const std::filesystem::path& out, const CadSrOptions& options = {});

struct CadSrContent {
  mammo::StudyFindings findings;      // images named by SOP Instance UID
  std::string studyInstanceUid;       // of the SR
  std::vector<std::string> warnings;  // items read past (a finding on no image, ...)
};

// Reads a Mammography CAD SR. Throws Error(InvalidInput) naming `path` when it is not DICOM, is
// damaged, or is another kind of object or report; Error(Io) when it cannot be read.
CadSrContent readMammographyCadSr(const std::filesystem::path& path);

// True when `path` is a DICOM file of the Mammography CAD SR class (reads the header only).
bool isMammographyCadSr(const std::filesystem::path& path);

// The findings of several CAD SRs of one study as one: images joined by id (marks appended),
// sources, summaries and failures joined, demonstration when any is.
mammo::StudyFindings mergeCadFindings(const std::vector<mammo::StudyFindings>& parts);

}  // namespace delineate::core::report
