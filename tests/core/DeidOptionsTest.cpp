// What each PS3.15 option keeps: dates moved by one per-patient shift, patient characteristics,
// device identity, descriptions cleaned of the file's own identifiers; and the options' JSON form.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "DeidTestSupport.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/deid/DateShift.h"
#include "core/deid/DeidOptions.h"
#include "core/deid/Deidentifier.h"
#include "core/deid/ReidentificationMap.h"

using namespace delineate::test::deid;
using namespace delineate::core::deid;
using delineate::test::TempDir;

namespace {

struct Fixture {
  TempDir tmp;
  Planted planted;
  Study study = makeStudyIdentities(planted);
  ReidentificationMap map{tmp / "map.json"};

  std::unique_ptr<DcmFileFormat> image() {
    auto file = makeImage(study.image, planted);
    DcmDataset& ds = *file->getDataset();
    put(ds, DCM_StudyDate, "20240102");
    put(ds, DCM_StudyTime, "093000");
    put(ds, DCM_AcquisitionDateTime, "20240102093512.25+0100");
    put(ds, DCM_PatientBirthDate, "19710203");
    put(ds, DCM_PatientSex, "F");
    put(ds, DCM_PatientAge, "052Y");
    put(ds, DCM_PatientWeight, "61.5");
    put(ds, DCM_DeviceSerialNumber, "SN-4471");
    put(ds, DCM_StationName, "CTROOM2");
    put(ds, DCM_StudyDescription, "CT chest ORIGFAMILY Origgiven, id ORIGPATIENTID");
    put(ds, DCM_SeriesDescription, "axial 1mm");
    return file;
  }
};

DatasetOutcome run(DcmItem& ds, const DeidOptions& options, ReidentificationMap& map) {
  return Deidentifier(options, map).apply(ds, "test.dcm");
}

}  // namespace

TEST(DeidOptions, BasicProfileRemovesDatesAndCharacteristics) {
  Fixture f;
  auto file = f.image();
  DcmDataset& ds = *file->getDataset();
  run(ds, DeidOptions{}, f.map);
  EXPECT_EQ(str(ds, DCM_StudyDate), "");  // Z
  EXPECT_EQ(str(ds, DCM_PatientBirthDate), "");
  EXPECT_FALSE(ds.tagExists(DCM_AcquisitionDateTime));
  EXPECT_EQ(str(ds, DCM_PatientSex), "");
  EXPECT_FALSE(ds.tagExists(DCM_PatientAge));
  EXPECT_FALSE(ds.tagExists(DCM_PatientWeight));
  EXPECT_EQ(str(ds, DCM_DeviceSerialNumber), "DEIDENTIFIED");
  EXPECT_FALSE(ds.tagExists(DCM_StationName));
  EXPECT_FALSE(ds.tagExists(DCM_StudyDescription));
  EXPECT_FALSE(ds.tagExists(DCM_SeriesDescription));
  EXPECT_EQ(str(ds, DCM_LongitudinalTemporalInformationModified), "REMOVED");
}

TEST(DeidOptions, RetainedDatesMoveByOneShiftPerPatient) {
  Fixture f;
  auto file = f.image();
  DcmDataset& ds = *file->getDataset();
  auto srFile = makeSr(f.study.image, f.study.sr, f.planted);
  DcmDataset& sr = *srFile->getDataset();
  put(sr, DCM_ContentDate, "20240105");
  put(sr, DCM_ContentTime, "120000");
  DeidOptions options;
  options.retainLongitudinalModifiedDates = true;
  const DatasetOutcome a = run(ds, options, f.map);
  const DatasetOutcome b = run(sr, options, f.map);
  ASSERT_EQ(a.patientPseudonym, b.patientPseudonym);
  const auto record = f.map.originalPatient(a.patientPseudonym);
  ASSERT_TRUE(record);
  const int shift = record->dateShiftDays;
  EXPECT_LE(shift, -365);
  EXPECT_GE(shift, -3650);
  EXPECT_EQ(str(ds, DCM_StudyDate), *shiftDicomDate("20240102", shift));
  EXPECT_EQ(str(sr, DCM_ContentDate), *shiftDicomDate("20240105", shift));
  EXPECT_EQ(str(ds, DCM_AcquisitionDateTime),
            *shiftDicomDate("20240102", shift) + "093512.25+0100");
  EXPECT_EQ(str(ds, DCM_StudyTime), "093000");  // times are kept
  EXPECT_EQ(str(sr, DCM_ContentTime), "120000");
  EXPECT_NE(str(ds, DCM_StudyDate), "20240102");
  EXPECT_EQ(str(ds, DCM_PatientBirthDate), "");  // never kept
  EXPECT_EQ(str(ds, DCM_LongitudinalTemporalInformationModified), "MODIFIED");

  // Another run with the same map file gives the same shift.
  f.map.save();
  ReidentificationMap again(f.tmp / "map.json");
  auto second = f.image();
  run(*second->getDataset(), options, again);
  EXPECT_EQ(str(*second->getDataset(), DCM_StudyDate), str(ds, DCM_StudyDate));
  EXPECT_EQ(str(*second->getDataset(), DCM_SOPInstanceUID), str(ds, DCM_SOPInstanceUID));
}

TEST(DeidOptions, PatientCharacteristicsKeptOnlyWithTheirOption) {
  Fixture f;
  auto file = f.image();
  DcmDataset& ds = *file->getDataset();
  DeidOptions options;
  options.retainPatientCharacteristics = true;
  run(ds, options, f.map);
  EXPECT_EQ(str(ds, DCM_PatientSex), "F");
  EXPECT_EQ(str(ds, DCM_PatientAge), "052Y");
  EXPECT_EQ(str(ds, DCM_PatientWeight), "61.5");
  EXPECT_EQ(str(ds, DCM_PatientBirthDate), "");
  EXPECT_EQ(str(ds, DCM_DeviceSerialNumber), "DEIDENTIFIED");
}

TEST(DeidOptions, DeviceIdentityKeptOnlyWithItsOption) {
  Fixture f;
  auto file = f.image();
  DcmDataset& ds = *file->getDataset();
  DeidOptions options;
  options.retainDeviceIdentity = true;
  run(ds, options, f.map);
  EXPECT_EQ(str(ds, DCM_DeviceSerialNumber), "SN-4471");
  EXPECT_EQ(str(ds, DCM_StationName), "CTROOM2");
  EXPECT_EQ(str(ds, DCM_PatientSex), "");
}

TEST(DeidOptions, CleanDescriptorsKeepsTextWithoutTheFilesIdentifiers) {
  Fixture f;
  auto file = f.image();
  DcmDataset& ds = *file->getDataset();
  DeidOptions options;
  options.cleanDescriptors = true;
  run(ds, options, f.map);
  EXPECT_EQ(str(ds, DCM_StudyDescription), "CT chest ***, id ***");
  EXPECT_EQ(str(ds, DCM_SeriesDescription), "axial 1mm");
}

TEST(DeidOptions, MethodCodesNameTheProfileAndEachOption) {
  Fixture f;
  auto file = f.image();
  DcmDataset& ds = *file->getDataset();
  DeidOptions options;
  options.retainLongitudinalModifiedDates = true;
  options.retainPatientCharacteristics = true;
  options.retainDeviceIdentity = true;
  options.cleanDescriptors = true;
  run(ds, options, f.map);
  std::vector<std::string> codes;
  DcmItem* item = nullptr;
  for (int i = 0; ds.findAndGetSequenceItem(DCM_DeidentificationMethodCodeSequence, item, i).good();
       ++i) {
    EXPECT_EQ(str(*item, DCM_CodingSchemeDesignator), "DCM");
    EXPECT_FALSE(str(*item, DCM_CodeMeaning).empty());
    codes.push_back(str(*item, DCM_CodeValue));
  }
  EXPECT_EQ(codes, (std::vector<std::string>{"113100", "113107", "113108", "113109", "113105"}));
  EXPECT_EQ(str(ds, DCM_PatientIdentityRemoved), "YES");
}

TEST(DeidOptions, JsonRoundTripAndTyposRejected) {
  DeidOptions options;
  options.retainDeviceIdentity = true;
  options.cleanDescriptors = true;
  EXPECT_EQ(deidOptionsFromJson(toJson(options), "settings"), options);
  EXPECT_EQ(deidOptionsFromJson(nlohmann::json::object(), "settings"), DeidOptions{});
  try {
    deidOptionsFromJson(nlohmann::json{{"retainDates", true}}, "server ai.example");
    FAIL() << "a misspelt option must not be ignored";
  } catch (const delineate::core::Error& e) {
    EXPECT_EQ(e.where(), "server ai.example");
    EXPECT_NE(std::string(e.what()).find("retainDates"), std::string::npos);
  }
  EXPECT_THROW(deidOptionsFromJson(nlohmann::json{{"cleanDescriptors", "yes"}}, "s"),
               delineate::core::Error);
}

TEST(DeidOptions, DateShiftHandlesCalendarAndRejectsPartialDates) {
  EXPECT_EQ(shiftDicomDate("20240301", -1), "20240229");
  EXPECT_EQ(shiftDicomDate("20230301", -1), "20230228");
  EXPECT_EQ(shiftDicomDate("20000101", -366), "19981231");
  EXPECT_EQ(shiftDicomDate("20240102\\20240105", -2), "20231231\\20240103");
  EXPECT_EQ(shiftDicomDateTime("20240102235959.5&+0100", 1), "20240103235959.5&+0100");
  EXPECT_FALSE(shiftDicomDate("202401", -1));
  EXPECT_FALSE(shiftDicomDate("20240230", -1));
  EXPECT_FALSE(shiftDicomDate("20240101-20240102", -1));
  EXPECT_FALSE(shiftDicomDateTime("2024", -1));
}
