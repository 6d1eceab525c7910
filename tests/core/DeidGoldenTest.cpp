// The de-identification golden test: an image filling every attribute of the PS3.15 profile
// table (inside nested sequences too) with recognisable values, private blocks, curves, overlays,
// an identifying preamble and meta header, and a SEG and an SR referring to it. After the batch
// runs, no planted value is found in the bytes of any output, log or temporary file, and the SEG
// and SR still refer to the image.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "DeidTestSupport.h"
#include "RunCommand.h"
#include "TempDir.h"
#include "core/deid/DeidBatch.h"
#include "core/deid/Deidentifier.h"
#include "core/deid/ReidentificationMap.h"

using namespace delineate::test::deid;
using namespace delineate::core::deid;
using delineate::test::TempDir;

namespace {

// Writes image.dcm (every table attribute planted), seg.dcm and sr.dcm into `folder`.
Study writeGoldenStudy(const fs::path& folder, Planted& planted) {
  fs::create_directories(folder);
  Study study = makeStudyIdentities(planted);
  auto image = makeImage(study.image, planted);
  plantProfileTable(*image->getDataset(), planted);
  // The planted table overwrote the identity; put it back so that SEG and SR refer to it.
  putIdentity(*image->getDataset(), study.image, planted);
  saveWithIdentifyingPreamble(*image, folder / "image.dcm", planted);
  auto seg = makeSeg(study.image, study.seg, planted);
  saveWithIdentifyingPreamble(*seg, folder / "seg.dcm", planted);
  auto sr = makeSr(study.image, study.sr, planted);
  saveWithIdentifyingPreamble(*sr, folder / "sr.dcm", planted);
  return study;
}

mode_t goldenModeOf(const fs::path& p) {
  struct stat st {};
  EXPECT_EQ(::stat(p.c_str(), &st), 0) << p;
  return st.st_mode & 0777;
}

}  // namespace

TEST(DeidGolden, EveryTableAttributeGetsItsAction) {
  Planted planted;
  Study study = makeStudyIdentities(planted);
  auto image = makeImage(study.image, planted);
  DcmDataset& ds = *image->getDataset();
  plantProfileTable(ds, planted);
  putIdentity(ds, study.image, planted);
  TempDir tmp;
  ReidentificationMap map(tmp / "map.json");
  const DeidOptions options;
  const DatasetOutcome outcome = Deidentifier(options, map).apply(ds, "image.dcm");
  ASSERT_FALSE(outcome.heldBackReason) << *outcome.heldBackReason;

  int checked = 0;
  for (const auto& row : profileTable()) {
    if (!isPlantable(row) || row.groupMask != 0xFFFF) {
      continue;
    }
    const DcmTagKey key(row.group, row.element);
    DcmElement* element = nullptr;
    const bool present = ds.findAndGetElement(key, element).good();
    const std::string what = std::string(row.name) + " " + DcmTag(key).toString().c_str();
    if (key == DCM_PatientID || key == DCM_PatientName) {
      EXPECT_EQ(str(ds, key), outcome.patientPseudonym) << what;
      continue;
    }
    const bool dateOrTime = present && (element->ident() == EVR_DA || element->ident() == EVR_DT ||
                                        element->ident() == EVR_TM);
    switch (resolveAction(row, options, dateOrTime)) {
      case DeidAction::Remove:
        EXPECT_FALSE(present) << what;
        break;
      case DeidAction::Empty:
        ASSERT_TRUE(present) << what;
        EXPECT_EQ(element->ident() == EVR_SQ ? static_cast<DcmSequenceOfItems*>(element)->card()
                                             : element->getLength(),
                  0u)
            << what;
        break;
      case DeidAction::Dummy:
        ASSERT_TRUE(present) << what;
        if (element->ident() != EVR_SQ) {
          OFString value;
          element->getOFStringArray(value);
          EXPECT_NE(std::string(value.c_str()).find("ORIG"), 0u) << what;
          EXPECT_EQ(planted.strings.count(value.c_str()), 0u) << what;
        }
        break;
      case DeidAction::ReplaceUid: {
        ASSERT_TRUE(present) << what;
        OFString value;
        element->getOFStringArray(value);
        EXPECT_EQ(std::string(value.c_str()).rfind("2.25.", 0), 0u) << what << " " << value;
        break;
      }
      default:
        EXPECT_TRUE(present) << what;
        break;
    }
    ++checked;
  }
  EXPECT_GT(checked, 550);
  // Private blocks, curves and overlays are gone; the marking is there.
  for (unsigned long i = 0; i < ds.card(); ++i) {
    const DcmTagKey key = ds.getElement(i)->getTag().getXTag();
    EXPECT_EQ(key.getGroup() % 2, 0) << key.toString();
    EXPECT_NE(key.getGroup() & 0xFF00, 0x5000) << key.toString();
    EXPECT_NE(key.getGroup() & 0xFF00, 0x6000) << key.toString();
  }
  EXPECT_EQ(str(ds, DCM_PatientIdentityRemoved), "YES");
  EXPECT_EQ(str(ds, DCM_LongitudinalTemporalInformationModified), "REMOVED");
  DcmItem* code = nullptr;
  ASSERT_TRUE(ds.findAndGetSequenceItem(DCM_DeidentificationMethodCodeSequence, code, 0).good());
  EXPECT_EQ(str(*code, DCM_CodeValue), "113100");
  EXPECT_EQ(str(*code, DCM_CodingSchemeDesignator), "DCM");
  EXPECT_FALSE(str(ds, DCM_DeidentificationMethod).empty());
}

TEST(DeidGolden, NoPlantedIdentifierInAnyOutputOfTheLibrary) {
  TempDir tmp;
  Planted planted;
  writeGoldenStudy(tmp / "in", planted);
  ReidentificationMap map(tmp / "private" / "map.json");
  delineate::core::NullProgress progress;
  const DeidSummary summary =
      deidentifyBatch(tmp / "in", tmp / "out", DeidOptions{}, map, progress);
  EXPECT_EQ(summary.count(DeidResult::Status::Written), 3u) << summary.toJson().dump(1);
  const std::string summaryText = summary.toJson().dump();
  std::vector<fs::path> files = allFilesUnder(tmp / "out");
  EXPECT_EQ(files.size(), 4u);  // the three images and the run's record; no temporary left behind
  const auto hits = findPlanted(files, planted.strings);
  EXPECT_TRUE(hits.empty()) << hits.size() << " hits, first: " << hits.front();
  for (const auto& value : planted.strings) {
    EXPECT_FALSE(holdsPlanted(summaryText, value)) << value;
  }
  // The preamble of every output is zero; nothing from the original meta header survives.
  for (const auto& f : files) {
    if (f.filename() == "deidentification.json") {
      continue;  // scanned for the planted identifiers above, with the images
    }
    const std::string bytes = readBytes(f);
    ASSERT_GT(bytes.size(), 132u);
    EXPECT_EQ(bytes.substr(0, 128), std::string(128, '\0')) << f;
    EXPECT_EQ(bytes.substr(128, 4), "DICM") << f;
  }
}

TEST(DeidGolden, SegAndSrStillReferToTheImage) {
  TempDir tmp;
  Planted planted;
  writeGoldenStudy(tmp / "in", planted);
  ReidentificationMap map(tmp / "private" / "map.json");
  delineate::core::NullProgress progress;
  deidentifyBatch(tmp / "in", tmp / "out", DeidOptions{}, map, progress);

  std::unique_ptr<DcmFileFormat> image, seg, sr;
  for (const auto& f : dicomFilesUnder(tmp / "out")) {
    auto file = load(f);
    const std::string sopClass = str(*file->getDataset(), DCM_SOPClassUID);
    (sopClass == kSegStorage ? seg : sopClass == kComprehensiveSr ? sr : image) = std::move(file);
  }
  ASSERT_TRUE(image && seg && sr);
  DcmDataset& im = *image->getDataset();
  DcmDataset& sg = *seg->getDataset();
  DcmDataset& s = *sr->getDataset();
  const std::string sop = str(im, DCM_SOPInstanceUID);
  const std::string series = str(im, DCM_SeriesInstanceUID);
  const std::string study = str(im, DCM_StudyInstanceUID);
  EXPECT_EQ(sop.rfind("2.25.", 0), 0u);
  // The file is named by its new SOP Instance UID under its new study and series.
  EXPECT_EQ(str(*image->getMetaInfo(), DCM_MediaStorageSOPInstanceUID), sop);

  // SEG: same study, patient, frame of reference; references reach the image's new UIDs.
  EXPECT_EQ(str(sg, DCM_StudyInstanceUID), study);
  EXPECT_EQ(str(sg, DCM_PatientID), str(im, DCM_PatientID));
  EXPECT_EQ(str(sg, DCM_FrameOfReferenceUID), str(im, DCM_FrameOfReferenceUID));
  EXPECT_NE(str(sg, DCM_SeriesInstanceUID), series);
  DcmItem* refSeries = nullptr;
  ASSERT_TRUE(sg.findAndGetSequenceItem(DCM_ReferencedSeriesSequence, refSeries, 0).good());
  EXPECT_EQ(str(*refSeries, DCM_SeriesInstanceUID), series);
  DcmItem* refInstance = nullptr;
  ASSERT_TRUE(
      refSeries->findAndGetSequenceItem(DCM_ReferencedInstanceSequence, refInstance, 0).good());
  EXPECT_EQ(str(*refInstance, DCM_ReferencedSOPInstanceUID), sop);
  EXPECT_EQ(str(*refInstance, DCM_ReferencedSOPClassUID), kCtImageStorage);
  DcmItem* shared = nullptr;
  DcmItem* derivation = nullptr;
  DcmItem* source = nullptr;
  ASSERT_TRUE(sg.findAndGetSequenceItem(DCM_SharedFunctionalGroupsSequence, shared, 0).good());
  ASSERT_TRUE(shared->findAndGetSequenceItem(DCM_DerivationImageSequence, derivation, 0).good());
  ASSERT_TRUE(derivation->findAndGetSequenceItem(DCM_SourceImageSequence, source, 0).good());
  EXPECT_EQ(str(*source, DCM_ReferencedSOPInstanceUID), sop);

  // SR: evidence and the IMAGE content item point at the image; free text is gone, codes stay.
  EXPECT_EQ(str(s, DCM_StudyInstanceUID), study);
  DcmItem* evidence = nullptr;
  DcmItem* evSeries = nullptr;
  DcmItem* evSop = nullptr;
  ASSERT_TRUE(
      s.findAndGetSequenceItem(DCM_CurrentRequestedProcedureEvidenceSequence, evidence, 0).good());
  EXPECT_EQ(str(*evidence, DCM_StudyInstanceUID), study);
  ASSERT_TRUE(evidence->findAndGetSequenceItem(DCM_ReferencedSeriesSequence, evSeries, 0).good());
  EXPECT_EQ(str(*evSeries, DCM_SeriesInstanceUID), series);
  ASSERT_TRUE(evSeries->findAndGetSequenceItem(DCM_ReferencedSOPSequence, evSop, 0).good());
  EXPECT_EQ(str(*evSop, DCM_ReferencedSOPInstanceUID), sop);
  DcmItem* text = nullptr;
  DcmItem* imageItem = nullptr;
  DcmItem* ref = nullptr;
  DcmItem* conceptName = nullptr;
  ASSERT_TRUE(s.findAndGetSequenceItem(DCM_ContentSequence, text, 0).good());
  EXPECT_EQ(str(*text, DCM_TextValue), "DEIDENTIFIED");
  ASSERT_TRUE(text->findAndGetSequenceItem(DCM_ConceptNameCodeSequence, conceptName, 0).good());
  EXPECT_EQ(str(*conceptName, DCM_CodeMeaning), "Finding");
  ASSERT_TRUE(s.findAndGetSequenceItem(DCM_ContentSequence, imageItem, 1).good());
  ASSERT_TRUE(imageItem->findAndGetSequenceItem(DCM_ReferencedSOPSequence, ref, 0).good());
  EXPECT_EQ(str(*ref, DCM_ReferencedSOPInstanceUID), sop);

  // The map re-identifies the new UID on the workstation.
  EXPECT_TRUE(map.originalUid(sop).has_value());
}

#ifdef DELINEATE_CLI

TEST(DeidGolden, NoPlantedIdentifierInOutputLogOrTemporaryFilesOfTheCli) {
  TempDir tmp;
  Planted planted;
  writeGoldenStudy(tmp / "in", planted);
  fs::create_directories(tmp / "tmp");
  const fs::path map = tmp / "home" / "reid" / "map.json";
  const fs::path out = tmp / "out";
  const std::string command = "( TMPDIR='" + (tmp / "tmp").string() + "' " DELINEATE_CLI " deid '" +
                              (tmp / "in").string() + "' '" + out.string() + "' --map '" +
                              map.string() + "' > '" + (tmp / "stdout.json").string() + "' 2> '" +
                              (tmp / "log.txt").string() + "' )";
  std::string console;
  ASSERT_EQ(delineate::test::runCommand(command, &console), 0)
      << console << readBytes(tmp / "log.txt");

  std::vector<fs::path> searched = allFilesUnder(out);
  EXPECT_EQ(searched.size(), 4u);  // the three images and the run's record, searched too
  for (const auto& f : allFilesUnder(tmp / "tmp")) {
    searched.push_back(f);
  }
  searched.push_back(tmp / "stdout.json");
  searched.push_back(tmp / "log.txt");
  const auto hits = findPlanted(searched, planted.strings);
  EXPECT_TRUE(hits.empty()) << hits.size() << " hits, first: " << hits.front();
  for (const auto& value : planted.strings) {
    EXPECT_FALSE(holdsPlanted(console, value)) << value;
  }
  EXPECT_NE(readBytes(tmp / "stdout.json").find("\"written\""), std::string::npos);

  // The map holds the originals (that is its purpose), stays out of OUT, owner-only.
  ASSERT_TRUE(fs::exists(map));
  EXPECT_FALSE(findPlanted({map}, {"ORIGPATIENTID"}).empty());
  EXPECT_EQ(goldenModeOf(map), 0600u);
  EXPECT_EQ(goldenModeOf(map.parent_path()), 0700u);
  EXPECT_EQ(goldenModeOf(map.parent_path().parent_path()), 0700u);
}

#endif

// The search the tests above rely on: a planted date or time is found where a file holds it
// (as a DICOM value, or with its fraction), never inside a longer number such as a new UID.
TEST(DeidGolden, APlantedNumberIsFoundOnItsOwnAndNotInsideALongerNumber) {
  const std::string element(
      "\x08\x00"
      "101112.5 ",
      11);
  EXPECT_TRUE(holdsPlanted(element, "101112"));
  EXPECT_TRUE(holdsPlanted(std::string("\x06\x00"
                                       "101112",
                                       8),
                           "101112"));
  EXPECT_TRUE(holdsPlanted("PatientID ORIGPATIENTID", "ORIGPATIENTID"));
  EXPECT_FALSE(holdsPlanted("2.25.246363101112285222182672", "101112"));
  EXPECT_TRUE(holdsPlanted("2.25.1 101112", "101112"));
}
