#pragma once
// Any DICOM structured report read into a plain tree for read-only display: the document's title,
// SOP class, completion and verification, observer, and every content item with its relationship,
// value type, concept name and value as text. `kind` says whether it is a report this program
// writes (TID 1500 measurement report, mammography report) or a foreign one; for foreign ones
// `notShown` lists what is only shown as text ("2 items of value type SCOORD shown as text").
// No DCMTK type appears here.
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/model/Segment.h"

namespace delineate::core::report {

struct SrNode {
  std::string relationship;  // "CONTAINS", "HAS PROPERTIES", ...; "" for the root
  std::string valueType;     // "CONTAINER", "TEXT", "CODE", "NUM", "IMAGE", "SCOORD", ...
  CodedConcept name;         // the concept name (empty for an unnamed item)
  // The value as text: TEXT/UIDREF/PNAME as is, a CODE's meaning, "12.5 mm", a date
  // "2024-05-02", a time "09:30:00", "MG Image Storage 1.2.3", "POLYLINE (4 points)", ...
  std::string value;
  std::optional<CodedConcept> code;      // CODE: the coded value
  std::optional<double> number;          // NUM: the value
  CodedConcept unit;                     // NUM: the unit
  std::string referencedSopInstanceUid;  // IMAGE, COMPOSITE, WAVEFORM
  std::vector<SrNode> children;
};

enum class SrKind {
  OurMeasurementReport,  // TID 1500 Imaging Measurement Report written by Delineate
  OurMammographyReport,  // Breast Imaging Report written by Delineate
  Foreign,               // any other SR
};

const char* toString(SrKind kind);  // "measurement report", "mammography report", "foreign"

struct SrDocument {
  SrKind kind = SrKind::Foreign;
  std::string title;  // the root's concept name meaning
  CodedConcept titleCode;
  std::string sopClassUid;
  std::string sopClassName;  // "Comprehensive SR Storage"
  std::string sopInstanceUid;
  std::string manufacturer;
  std::string patientName;
  std::string studyInstanceUid;
  bool complete = false;  // Completion Flag COMPLETE
  bool verified = false;  // Verification Flag VERIFIED
  // The verifying observer when verified, else the person observer, else the device observer
  // named in the root's observation context ("" when none).
  std::string observer;
  std::string verificationDateTime;  // DICOM DT, when verified
  SrNode root;
  std::size_t itemCount = 0;  // content items in the tree
  // What the display only shows as text, one line per kind of thing: "2 items of value type
  // SCOORD shown as text", "1 by-reference relationship shown as a reference". Empty for the
  // reports this program writes.
  std::vector<std::string> notShown;
};

// Reads any DICOM SR file (Basic Text, Enhanced, Comprehensive, Comprehensive 3D, Mammography CAD,
// Key Object Selection, ...). Throws Error(InvalidInput) naming the file when it is not a DICOM
// file, is truncated or damaged, or is not a structured report; Error(Io) when unreadable.
SrDocument readSrDocument(const std::filesystem::path& path);

}  // namespace delineate::core::report
