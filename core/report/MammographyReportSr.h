#pragma once
// The BI-RADS mammography report as a DICOM Comprehensive SR in the spirit of TID 4200 "Breast
// Imaging Report" (no template conformance is claimed), written and read with DCMTK's dcmsr.
// BI-RADS values are CODE items with the DICOM codes of MammoSrCodes.h:
//
//   CONTAINER (111400, DCM, "Breast Imaging Report")
//     HAS CONCEPT MOD  CODE (121049, DCM, "Language of Content Item and Descendants")
//     HAS OBS CONTEXT  the signer as person observer when signed, else this program as device
//     HAS CONCEPT MOD  CODE (121058, DCM, "Procedure reported") = (46342-2, LN, "breast ffd
//                      mammogram")
//     CONTAINS CONTAINER (111028, DCM, "Image Library"): one IMAGE per view file given
//     CONTAINS CONTAINER (111412, DCM, "Narrative Summary")
//       TEXT (121073, DCM, "Impression"), TEXT (121075, DCM, "Recommendation") = management,
//       TEXT (121106, DCM, "Comment") per addendum: its text, the signer as HAS OBS CONTEXT
//       PNAME (121008, DCM, "Person Observer Name"), the time as the item's Observation DateTime
//     CONTAINS CONTAINER (111414, DCM, "Supplementary Data")
//       CODE (129715009, SCT, "Breast composition") = CID 6001
//       CONTAINER (121071, DCM, "Finding"), one per finding:
//         HAS OBS CONTEXT TEXT (112039, DCM, "Tracking Identifier") = "F<id>"
//         HAS CONCEPT MOD CODE (272741003, SCT, "Laterality") = CID 244
//         CODE (121071, DCM, "Finding") = the kind (CID 6017 / 6054 / 6015); kind "other" has no
//              code: TEXT (121071, DCM, "Finding") = "Other finding"
//         TEXT (121106, DCM, "Comment") = the description
//         CODE (111014, DCM, "Clockface or region") = CID 6019, CODE (111020, DCM, "Depth") = CID
//              6025
//         NUM (81827009, SCT, "Diameter") in mm with Derivation (56851009, SCT, "Maximum")
//         CODE (300842002, SCT, "Shape") = CID 6005, (111037, DCM, "Margins") = CID 6007,
//              (111035, DCM, "Lesion Density") = CID 6009, (111009, DCM, "Calcification Type") =
//              CID 6011, (111008, DCM, "Calcification Distribution") = CID 6013
//         NUM (111012, DCM, "Certainty of Finding"): the CAD mark's AI score (0..1, unit "1")
//         IMAGE: the view the CAD mark is on (when that view is among the files given)
//     CONTAINS CONTAINER (111413, DCM, "Overall Assessment")
//       CODE (111005, DCM, "Assessment Category") = CID 6027, overall; the same per breast
//            with HAS CONCEPT MOD (272741003, SCT, "Laterality")
//     CONTAINS CONTAINER (111411, DCM, "Mammography CAD"), when the report started from an AI
//       draft: TEXT (111001, DCM, "Algorithm Name") = the AI's source, TEXT (121106, DCM,
//       "Comment") = "DEMONSTRATION FINDINGS, NOT A DIAGNOSIS" for the demonstration detector,
//       NUM (111047, DCM, "Probability of cancer") = the AI's case score (a score 0..1, unit "1",
//       not a calibrated probability: DICOM has no concept for a CAD case score)
//
// No standard code exists for the finding kind "other", the description and the demonstration
// flag: those are TEXT. Provenance per field (AI-proposed, accepted, edited) stays out of the SR.
// Signed reports are COMPLETE and VERIFIED (the signer is the verifying observer, the signing
// time the verification time); unsigned ones PARTIAL and UNVERIFIED. Numbers are written as DS
// text and as the exact double, so they read back identical.
#include <filesystem>
#include <string>
#include <vector>

#include "core/report/MammographyReport.h"
#include "core/report/MammographySrContent.h"

namespace delineate::core::report {

struct MammoSrSource {
  // The DICOM files of the study's views (may be empty): the image library, the evidence, and
  // the images of the findings' CAD marks (ReportLink::imageId is matched against their SOP
  // Instance UIDs and their paths). Patient sex and study date and description come from the
  // first; patient name, id, birth date, study and accession number from the report's subject,
  // else from the first file.
  std::vector<std::filesystem::path> viewFiles;
};

struct MammoSrOptions {
  std::string seriesDescription = "Mammography Report";
  int seriesNumber = 401;
  // Verifying Organization (required by DICOM when the report is verified).
  std::string organization = "Unknown";
};

// Writes `report` as a Comprehensive SR (saved atomically). Throws Error(InvalidInput) naming
// `out` when neither the subject nor a view file names a study, naming a view file that cannot
// be read or has no SOP Instance UID, and Error naming `out` when a DCMTK call fails.
void writeMammographyReportSr(const MammographyReport& report, const MammoSrSource& source,
                              const std::filesystem::path& out, const MammoSrOptions& options = {});

// Reads an SR written by writeMammographyReportSr. Throws Error naming `path` when it cannot be
// read or is not a Breast Imaging Report.
MammographySrContent readMammographyReportSr(const std::filesystem::path& path);

}  // namespace delineate::core::report
