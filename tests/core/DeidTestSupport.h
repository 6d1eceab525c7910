#pragma once
// Synthetic DICOM files for the de-identification tests: an image whose header fills every
// attribute of the PS3.15 profile table with a recognisable value, and a SEG and an SR that refer
// to it, plus helpers to look for those values in the bytes of files.
#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcdict.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcitem.h>
#include <dcmtk/dcmdata/dcmetinf.h>
#include <dcmtk/dcmdata/dcsequen.h>
#include <dcmtk/dcmdata/dcvrobow.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/deid/DeidProfile.h"

namespace delineate::test::deid {

namespace fs = std::filesystem;

constexpr const char* kCtImageStorage = "1.2.840.10008.5.1.4.1.1.2";
constexpr const char* kSegStorage = "1.2.840.10008.5.1.4.1.1.66.4";
constexpr const char* kComprehensiveSr = "1.2.840.10008.5.1.4.1.1.88.33";

// The identifying values planted in a test file: none may reach any output.
struct Planted {
  std::set<std::string> strings;
  int nextUid = 1;

  std::string uid() {
    std::string u = "1.2.826.0.1.3680043.10.999." + std::to_string(nextUid++);
    strings.insert(u);
    return u;
  }
};

inline std::string hex4(std::uint16_t v) {
  char s[5];
  std::snprintf(s, sizeof s, "%04X", v);
  return s;
}

inline std::string marker(std::uint16_t g, std::uint16_t e) {
  return "ORIG" + hex4(g) + hex4(e);
}

inline void put(DcmItem& item, const DcmTagKey& tag, const std::string& value) {
  ASSERT_TRUE(item.putAndInsertString(tag, value.c_str()).good()) << DcmTag(tag).toString();
}

inline void putPixels(DcmItem& item) {
  put(item, DCM_Rows, "4");
  put(item, DCM_Columns, "4");
  put(item, DCM_BitsAllocated, "16");
  put(item, DCM_BitsStored, "12");
  put(item, DCM_HighBit, "11");
  put(item, DCM_PixelRepresentation, "0");
  put(item, DCM_SamplesPerPixel, "1");
  put(item, DCM_PhotometricInterpretation, "MONOCHROME2");
  const Uint16 pixels[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  ASSERT_TRUE(item.putAndInsertUint16Array(DCM_PixelData, pixels, 16).good());
}

// An item holding identifiers the way nested sequences do: names, an ID, a private block and a
// deeper sequence with a reference UID, each planted.
inline void fillNestedItem(DcmItem& item, const std::string& tagMarker, Planted& planted,
                           int depth) {
  const std::string name = tagMarker + "NAME^SEQ";
  put(item, DCM_ReferringPhysicianName, name);
  planted.strings.insert(tagMarker + "NAME");
  put(item, DCM_ReferencedSOPInstanceUID, planted.uid());
  put(item, DCM_ReferencedSOPClassUID, kCtImageStorage);
  // A private block: creator and value both carry identifiers.
  put(item, DcmTagKey(0x0029, 0x0010), tagMarker + "PRIVCREATOR");
  planted.strings.insert(tagMarker + "PRIVCREATOR");
  DcmTag privateTag(0x0029, 0x1001, EVR_LO);
  privateTag.setPrivateCreator((tagMarker + "PRIVCREATOR").c_str());
  ASSERT_TRUE(item.putAndInsertString(privateTag, (tagMarker + "PRIVVALUE").c_str()).good());
  planted.strings.insert(tagMarker + "PRIVVALUE");
  if (depth > 0) {
    DcmItem* deeper = nullptr;
    ASSERT_TRUE(item.findOrCreateSequenceItem(DCM_ReferencedSOPSequence, deeper, 0).good());
    fillNestedItem(*deeper, tagMarker + "D", planted, depth - 1);
  }
}

// Puts a planted value into `item` for the attribute (g, e), by its dictionary VR.
inline void plantAttribute(DcmItem& item, std::uint16_t g, std::uint16_t e, Planted& planted) {
  DcmTag tag(g, e);
  DcmEVR vr = tag.getEVR();
  const std::string m = marker(g, e);
  switch (vr) {
    case EVR_xs:
      vr = EVR_US;
      break;
    case EVR_ox:
    case EVR_px:
      vr = EVR_OB;
      break;
    case EVR_lt:
      vr = EVR_OW;
      break;
    case EVR_UNKNOWN:
    case EVR_UNKNOWN2B:
      vr = EVR_UN;  // newer than the toolkit's dictionary
      break;
    default:
      break;
  }
  tag.setVR(DcmVR(vr));
  switch (vr) {
    case EVR_SQ: {
      DcmItem* child = nullptr;
      ASSERT_TRUE(item.findOrCreateSequenceItem(tag, child, 0).good()) << m;
      fillNestedItem(*child, m, planted, 2);
      return;
    }
    case EVR_DA:
      ASSERT_TRUE(item.putAndInsertString(tag, "19710203").good()) << m;
      planted.strings.insert("19710203");
      return;
    case EVR_DT:
      ASSERT_TRUE(item.putAndInsertString(tag, "19710203101112").good()) << m;
      planted.strings.insert("19710203");
      planted.strings.insert("19710203101112");  // digits run on: found only whole
      return;
    case EVR_TM:
      ASSERT_TRUE(item.putAndInsertString(tag, "101112.5").good()) << m;
      planted.strings.insert("101112");
      return;
    case EVR_UI:
      ASSERT_TRUE(item.putAndInsertString(tag, planted.uid().c_str()).good()) << m;
      return;
    case EVR_AS:
      ASSERT_TRUE(item.putAndInsertString(tag, "047Y").good()) << m;
      planted.strings.insert("047Y");
      return;
    case EVR_DS:
    case EVR_IS:
      ASSERT_TRUE(item.putAndInsertString(tag, "31415926").good()) << m;
      planted.strings.insert("31415926");
      return;
    case EVR_UR:
      ASSERT_TRUE(item.putAndInsertString(tag, ("http://" + m + ".example").c_str()).good()) << m;
      planted.strings.insert(m);
      return;
    case EVR_AE:
    case EVR_CS:
    case EVR_LO:
    case EVR_LT:
    case EVR_PN:
    case EVR_SH:
    case EVR_ST:
    case EVR_UC:
    case EVR_UT:
      ASSERT_TRUE(item.putAndInsertString(tag, m.c_str()).good()) << m;
      planted.strings.insert(m);
      return;
    case EVR_OB:
    case EVR_OW:
    case EVR_UN: {
      tag.setVR(DcmVR(vr == EVR_OW ? EVR_OW : EVR_OB));
      const std::string bytes = m + "BYTES!";  // even length
      ASSERT_TRUE(item.putAndInsertUint8Array(tag, reinterpret_cast<const Uint8*>(bytes.data()),
                                              bytes.size())
                      .good())
          << m;
      planted.strings.insert(m);
      return;
    }
    default:
      // Binary numbers (US, FL, ...) hold no searchable text; one is still planted so that the
      // action runs on it.
      ASSERT_TRUE(item.putAndInsertString(tag, "7").good()) << m;
      return;
  }
}

// Rows of the table a data set can hold: not the command group 0000 nor the meta group 0002,
// and not Encapsulated Document, whose presence holds the whole file back.
inline bool isPlantable(const core::deid::ProfileRow& row) {
  return row.group != 0x0000 && row.group != 0x0002 &&
         !(row.group == 0x0042 && row.element == 0x0011);
}

// Every attribute of the profile table that a data set can hold, with curve and overlay groups
// and a private block.
inline void plantProfileTable(DcmItem& item, Planted& planted) {
  for (const auto& row : core::deid::profileTable()) {
    if (!isPlantable(row)) {
      continue;
    }
    plantAttribute(item, row.group, row.element, planted);
  }
  // Curves and overlays: the planted data and comments above, plus the rest of the groups.
  put(item, DcmTagKey(0x5000, 0x2500), "ORIGCURVELABEL");
  put(item, DcmTagKey(0x6000, 0x0022), "ORIGOVERLAYDESC");
  put(item, DcmTagKey(0x6000, 0x1500), "ORIGOVERLAYLABEL");
  put(item, DcmTagKey(0x6002, 0x4000), "ORIGOVERLAY2COMMENT");
  planted.strings.insert(
      {"ORIGCURVELABEL", "ORIGOVERLAYDESC", "ORIGOVERLAYLABEL", "ORIGOVERLAY2COMMENT"});
  // Free text the profile does not list, inside the SR-like content of an image: dummied.
  put(item, DCM_ImageType, "ORIGINAL\\PRIMARY\\AXIAL");
  fillNestedItem(item, "ORIGTOP", planted, 1);
}

// The top-level identity of the test patient.
struct Identity {
  std::string patientId = "ORIGPATIENTID";
  std::string patientName = "ORIGFAMILY^ORIGGIVEN";
  std::string studyUid, seriesUid, sopUid, frameUid;
};

inline void putIdentity(DcmItem& item, const Identity& id, Planted& planted) {
  put(item, DCM_PatientID, id.patientId);
  put(item, DCM_PatientName, id.patientName);
  put(item, DCM_StudyInstanceUID, id.studyUid);
  put(item, DCM_SeriesInstanceUID, id.seriesUid);
  put(item, DCM_SOPInstanceUID, id.sopUid);
  put(item, DCM_FrameOfReferenceUID, id.frameUid);
  planted.strings.insert(
      {id.patientId, "ORIGFAMILY", "ORIGGIVEN", id.studyUid, id.seriesUid, id.sopUid, id.frameUid});
}

// Saves `dataset` as a file whose meta header and preamble also carry identifiers.
// A small CT image of the patient `id`.
inline std::unique_ptr<DcmFileFormat> makeImage(const Identity& id, Planted& planted,
                                                const std::string& modality = "CT") {
  auto file = std::make_unique<DcmFileFormat>();
  DcmDataset& ds = *file->getDataset();
  put(ds, DCM_SOPClassUID, kCtImageStorage);
  put(ds, DCM_Modality, modality);
  put(ds, DCM_BurnedInAnnotation, "NO");
  putIdentity(ds, id, planted);
  putPixels(ds);
  return file;
}

// A SEG-like object referring to `image`: its series, instance and frame of reference.
inline std::unique_ptr<DcmFileFormat> makeSeg(const Identity& image, Identity seg,
                                              Planted& planted) {
  auto file = std::make_unique<DcmFileFormat>();
  DcmDataset& ds = *file->getDataset();
  put(ds, DCM_SOPClassUID, kSegStorage);
  put(ds, DCM_Modality, "SEG");
  seg.frameUid = image.frameUid;
  putIdentity(ds, seg, planted);
  DcmItem* series = nullptr;
  ds.findOrCreateSequenceItem(DCM_ReferencedSeriesSequence, series, 0);
  put(*series, DCM_SeriesInstanceUID, image.seriesUid);
  DcmItem* instance = nullptr;
  series->findOrCreateSequenceItem(DCM_ReferencedInstanceSequence, instance, 0);
  put(*instance, DCM_ReferencedSOPClassUID, kCtImageStorage);
  put(*instance, DCM_ReferencedSOPInstanceUID, image.sopUid);
  DcmItem* shared = nullptr;
  ds.findOrCreateSequenceItem(DCM_SharedFunctionalGroupsSequence, shared, 0);
  DcmItem* derivation = nullptr;
  shared->findOrCreateSequenceItem(DCM_DerivationImageSequence, derivation, 0);
  DcmItem* source = nullptr;
  derivation->findOrCreateSequenceItem(DCM_SourceImageSequence, source, 0);
  put(*source, DCM_ReferencedSOPClassUID, kCtImageStorage);
  put(*source, DCM_ReferencedSOPInstanceUID, image.sopUid);
  putPixels(ds);
  return file;
}

// An SR-like object referring to `image` from its evidence and its content tree, with free text.
inline std::unique_ptr<DcmFileFormat> makeSr(const Identity& image, Identity sr, Planted& planted) {
  auto file = std::make_unique<DcmFileFormat>();
  DcmDataset& ds = *file->getDataset();
  put(ds, DCM_SOPClassUID, kComprehensiveSr);
  put(ds, DCM_Modality, "SR");
  putIdentity(ds, sr, planted);
  put(ds, DCM_ValueType, "CONTAINER");
  DcmItem* evidence = nullptr;
  ds.findOrCreateSequenceItem(DCM_CurrentRequestedProcedureEvidenceSequence, evidence, 0);
  put(*evidence, DCM_StudyInstanceUID, image.studyUid);
  DcmItem* series = nullptr;
  evidence->findOrCreateSequenceItem(DCM_ReferencedSeriesSequence, series, 0);
  put(*series, DCM_SeriesInstanceUID, image.seriesUid);
  DcmItem* sop = nullptr;
  series->findOrCreateSequenceItem(DCM_ReferencedSOPSequence, sop, 0);
  put(*sop, DCM_ReferencedSOPClassUID, kCtImageStorage);
  put(*sop, DCM_ReferencedSOPInstanceUID, image.sopUid);
  DcmItem* text = nullptr;
  ds.findOrCreateSequenceItem(DCM_ContentSequence, text, -2);
  put(*text, DCM_RelationshipType, "CONTAINS");
  put(*text, DCM_ValueType, "TEXT");
  DcmItem* conceptName = nullptr;
  text->findOrCreateSequenceItem(DCM_ConceptNameCodeSequence, conceptName, 0);
  put(*conceptName, DCM_CodeValue, "121071");
  put(*conceptName, DCM_CodingSchemeDesignator, "DCM");
  put(*conceptName, DCM_CodeMeaning, "Finding");
  put(*text, DCM_TextValue, "ORIGSRTEXT seen by ORIGFAMILY");
  planted.strings.insert("ORIGSRTEXT");
  DcmItem* imageItem = nullptr;
  ds.findOrCreateSequenceItem(DCM_ContentSequence, imageItem, -2);
  put(*imageItem, DCM_RelationshipType, "CONTAINS");
  put(*imageItem, DCM_ValueType, "IMAGE");
  DcmItem* ref = nullptr;
  imageItem->findOrCreateSequenceItem(DCM_ReferencedSOPSequence, ref, 0);
  put(*ref, DCM_ReferencedSOPClassUID, kCtImageStorage);
  put(*ref, DCM_ReferencedSOPInstanceUID, image.sopUid);
  return file;
}

// A study of one image with a SEG and an SR referring to it, all of one patient.
struct Study {
  Identity image, seg, sr;
};

inline Study makeStudyIdentities(Planted& planted) {
  Study s;
  s.image.studyUid = planted.uid();
  s.image.seriesUid = planted.uid();
  s.image.sopUid = planted.uid();
  s.image.frameUid = planted.uid();
  s.seg = s.image;
  s.seg.seriesUid = planted.uid();
  s.seg.sopUid = planted.uid();
  s.sr = s.image;
  s.sr.seriesUid = planted.uid();
  s.sr.sopUid = planted.uid();
  return s;
}

inline void saveWithIdentifyingPreamble(DcmFileFormat& file, const fs::path& path,
                                        Planted& planted) {
  file.getMetaInfo()->putAndInsertString(DCM_SourceApplicationEntityTitle, "ORIGSOURCEAE");
  planted.strings.insert("ORIGSOURCEAE");
  ASSERT_TRUE(file.saveFile(path.c_str(), EXS_LittleEndianExplicit).good()) << path;
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  const std::string preamble = "ORIGPREAMBLE: identifying text in the first 128 bytes";
  f.write(preamble.data(), std::streamsize(preamble.size()));
  planted.strings.insert("ORIGPREAMBLE");
}

inline std::string readBytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// "<file>: <value>" for each planted value found in the bytes of `files`.
// Whether `bytes` hold `value`. A value of digits only (a date, a time, a number) counts only
// where no digit stands next to it: the new random UIDs (2.25.<39 digits>) of every output hold
// any six given digits somewhere about once in a thousand runs, and a date or time leaked into
// a file stands on its own ("101112", "101112.5").
inline bool holdsPlanted(const std::string& bytes, const std::string& value) {
  const bool digits = value.find_first_not_of("0123456789") == std::string::npos;
  const auto isDigit = [](char c) { return c >= '0' && c <= '9'; };
  for (std::size_t at = bytes.find(value); at != std::string::npos;
       at = bytes.find(value, at + 1)) {
    const std::size_t end = at + value.size();
    if (!digits ||
        ((at == 0 || !isDigit(bytes[at - 1])) && (end == bytes.size() || !isDigit(bytes[end])))) {
      return true;
    }
  }
  return false;
}

inline std::vector<std::string> findPlanted(const std::vector<fs::path>& files,
                                            const std::set<std::string>& planted) {
  std::vector<std::string> hits;
  for (const auto& file : files) {
    const std::string bytes = readBytes(file);
    for (const auto& value : planted) {
      if (holdsPlanted(bytes, value)) {
        hits.push_back(file.string() + ": " + value);
      }
    }
  }
  return hits;
}

inline std::vector<fs::path> allFilesUnder(const fs::path& folder) {
  std::vector<fs::path> files;
  if (!fs::exists(folder)) {
    return files;
  }
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    if (entry.is_regular_file()) {
      files.push_back(entry.path());
    }
  }
  return files;
}

inline std::vector<fs::path> dicomFilesUnder(const fs::path& folder) {
  std::vector<fs::path> files;
  for (const auto& f : allFilesUnder(folder)) {
    if (f.extension() == ".dcm") {
      files.push_back(f);
    }
  }
  return files;
}

inline std::string str(DcmItem& item, const DcmTagKey& tag) {
  OFString v;
  item.findAndGetOFStringArray(tag, v);
  return v.c_str();
}

// A file's data set, loaded for checks.
inline std::unique_ptr<DcmFileFormat> load(const fs::path& path) {
  auto file = std::make_unique<DcmFileFormat>();
  EXPECT_TRUE(file->loadFile(path.c_str()).good()) << path;
  return file;
}

}  // namespace delineate::test::deid
