#pragma once
// The measurement report as a DICOM Comprehensive SR following TID 1500 "Measurement Report"
// (the recipe dcmqi and 3D Slicer use), written and read with DCMTK's dcmsr:
//
//   CONTAINER (126000, DCM, "Imaging Measurement Report")                         TID 1500
//     HAS CONCEPT MOD  CODE (121049, DCM, "Language of Content Item and Descendants")
//     HAS OBS CONTEXT  TID 1002: the signer as person observer when signed, else this program
//                      as device observer
//     HAS CONCEPT MOD  CODE (121058, DCM, "Procedure reported")
//     CONTAINS CONTAINER (111028, DCM, "Image Library") > (126200, DCM, "Image Library Group")
//                      > one IMAGE per source instance (VolumeInfo::sourceFiles)
//     CONTAINS CONTAINER (126010, DCM, "Imaging Measurements")
//       CONTAINS CONTAINER (125007, DCM, "Measurement Group"), one per row         TID 1411
//         tracking identifier / UID, finding category and finding (the segment's codes), the
//         referenced segment of a DICOM SEG (else the source images: "Source of Measurement"),
//         NUM volume (mL), mean and SD of the intensity (with a Derivation modifier) and the
//         largest diameter (mm): TID 1419.
//     CONTAINS CONTAINER (C0034375, UMLS, "Qualitative Evaluations")
//       TEXT impression, recommendation, one comment per addendum
//
// Signed reports are COMPLETE and VERIFIED (the signer is the verifying observer, the signing
// time the verification time); unsigned ones PARTIAL and UNVERIFIED. Values are written both as
// DS text and as the exact double (Floating Point Value), so they read back identical.
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/model/Segment.h"
#include "core/model/Volume.h"
#include "core/report/MeasurementReport.h"

namespace delineate::core::report {

// The DICOM SEG the measured segments are stored in (written by writeDicomSeg from the same label
// map on the same source series).
struct SegReference {
  std::string sopInstanceUid;
  std::string seriesInstanceUid;
  std::string sopClassUid = "1.2.840.10008.5.1.4.1.1.66.4";  // Segmentation Storage
  // Label value -> Segment Number in the SEG. Rows whose label is missing refer to the source
  // images instead.
  std::map<std::uint16_t, std::uint16_t> segmentNumbers;
};

struct MeasurementSrOptions {
  // The label map's segment table: finding category and type of each row, by label value.
  // Rows without a segment here (or with empty codes) get (85756007, SCT, "Tissue").
  std::vector<Segment> segments;
  std::string seriesDescription = "Measurement Report";
  int seriesNumber = 400;
  // Verifying Organization (required by DICOM when the report is verified).
  std::string organization = "Unknown";
};

// One measurement as read back.
struct SrValue {
  double value = 0;
  std::string unit;  // UCUM code: "ml", "mm", "[hnsf'U]", "1"
  bool operator==(const SrValue&) const = default;
};

struct SrMeasurementGroup {
  std::string trackingId;  // the row's name
  std::string trackingUid;
  CodedConcept findingCategory;
  CodedConcept finding;
  // The SEG's SOP Instance UID and segment number, when the row refers to a segment.
  std::string segSopInstanceUid;
  std::optional<std::uint16_t> segmentNumber;
  std::optional<SrValue> volume, mean, sd, largestDiameter;
  bool operator==(const SrMeasurementGroup&) const = default;
};

// What a viewer needs from a TID 1500 SR.
struct MeasurementReportSrContent {
  std::string sopInstanceUid;
  std::string studyInstanceUid;
  std::string personObserver;  // empty when written by a device observer
  bool complete = false;       // Completion Flag COMPLETE (else PARTIAL)
  bool verified = false;       // Verification Flag VERIFIED (else UNVERIFIED)
  std::string verifyingObserver;
  std::string verificationDateTime;           // DICOM DT
  std::vector<std::string> referencedImages;  // SOP Instance UIDs of the image library
  std::vector<SrMeasurementGroup> groups;
  std::string impression;
  std::string recommendations;
  std::vector<std::string> comments;  // addenda: "Addendum by <name> at <time>: <text>"
};

// Writes `report` as a TID 1500 Comprehensive SR in the study of `image`, which must have been
// read from DICOM (its VolumeInfo::sourceFiles give the image library and the patient / study);
// `seg` adds the referenced segments. Saved atomically. Throws Error naming `out` when the image
// was not read from DICOM or a DCMTK call fails, naming a source file when it cannot be read.
void writeMeasurementReportSr(const MeasurementReport& report, const Volume& image,
                              const std::optional<SegReference>& seg,
                              const std::filesystem::path& out,
                              const MeasurementSrOptions& options = {});

// Reads an SR written by writeMeasurementReportSr (or any TID 1500 SR with the same items).
// Throws Error naming `path` when it cannot be read or is not an Imaging Measurement Report.
MeasurementReportSrContent readMeasurementReportSr(const std::filesystem::path& path);

}  // namespace delineate::core::report
