// QIDO-RS answers in the DICOM JSON model as servers really write them (Orthanc, dcm4chee and
// cloud services differ in small ways), and STOW-RS answers judged instance by instance: an
// answer of 200 that lists nothing stores nothing.
#include <gtest/gtest.h>

#include "core/Error.h"
#include "core/pacs/DicomJson.h"
#include "core/pacs/StowAnswer.h"

using namespace delineate;
namespace pacs = core::pacs;

TEST(DicomJson, ReadsAStudyAsOrthancAnswersIt) {
  const char* body = R"([{
    "00080020": {"vr": "DA", "Value": ["20250310"]},
    "00080050": {"vr": "SH", "Value": ["ACC2"]},
    "00080061": {"vr": "CS", "Value": ["CT", "SEG"]},
    "00081030": {"vr": "LO", "Value": ["Ball phantom"]},
    "00081190": {"vr": "UR", "Value": ["http://localhost:8042/dicom-web/studies/1.2.3"]},
    "00100010": {"vr": "PN", "Value": [{"Alphabetic": "DOE^JOHN"}]},
    "00100020": {"vr": "LO", "Value": ["P2"]},
    "00100040": {"vr": "CS"},
    "0020000D": {"vr": "UI", "Value": ["1.2.3"]},
    "00201206": {"vr": "IS", "Value": [2]},
    "00201208": {"vr": "IS", "Value": ["42"]}
  }])";
  const auto studies = pacs::studiesFromDicomJson(body, "test");
  ASSERT_EQ(studies.size(), 1u);
  const pacs::StudyRecord& s = studies[0];
  EXPECT_EQ(s.studyInstanceUid, "1.2.3");
  EXPECT_EQ(s.patientName, "DOE^JOHN");
  EXPECT_EQ(s.patientId, "P2");
  EXPECT_EQ(s.patientSex, "") << "an element without Value is empty";
  EXPECT_EQ(s.studyDate, "20250310");
  EXPECT_EQ(s.accessionNumber, "ACC2");
  EXPECT_EQ(s.studyDescription, "Ball phantom");
  EXPECT_EQ(s.modalities, (std::vector<std::string>{"CT", "SEG"}));
  EXPECT_EQ(s.seriesCount, 2) << "IS as a JSON number";
  EXPECT_EQ(s.instanceCount, 42) << "IS as a string";
}

TEST(DicomJson, ForgivesLowercaseTagsAndLeavesOutResultsWithoutTheirKey) {
  const char* body = R"([
    {"0020000e": {"vr": "UI", "Value": ["1.2.3.4"]}, "00080060": {"vr": "CS", "Value": ["MR"]},
     "00200011": {"vr": "IS", "Value": ["not a number"]}},
    {"00080060": {"vr": "CS", "Value": ["CT"]}}
  ])";
  const auto series = pacs::seriesFromDicomJson(body, "test");
  ASSERT_EQ(series.size(), 1u);
  EXPECT_EQ(series[0].seriesInstanceUid, "1.2.3.4");
  EXPECT_EQ(series[0].modality, "MR");
  EXPECT_EQ(series[0].seriesNumber, -1);
}

TEST(DicomJson, AnEmptyAnswerIsNoResultsAndGarbageIsNamed) {
  EXPECT_TRUE(pacs::studiesFromDicomJson("", "test").empty()) << "204 No Content";
  EXPECT_TRUE(pacs::studiesFromDicomJson("[]", "test").empty());
  for (const char* bad : {"<html>Login</html>", R"({"0020000D": {}})", "[1, 2]", "[{"}) {
    try {
      pacs::studiesFromDicomJson(bad, "https://pacs.example/dicom-web");
      ADD_FAILURE() << "accepted " << bad;
    } catch (const core::Error& e) {
      EXPECT_EQ(e.kind(), core::ErrorKind::InvalidInput);
      EXPECT_EQ(e.where(), "https://pacs.example/dicom-web");
    }
  }
}

TEST(DicomJson, ReadsInstances) {
  const char* body = R"([{"00080016": {"vr": "UI", "Value": ["1.2.840.10008.5.1.4.1.1.2"]},
                           "00080018": {"vr": "UI", "Value": ["9.8.7"]},
                           "00200013": {"vr": "IS", "Value": [5]},
                           "00280010": {"vr": "US", "Value": [512]},
                           "00280011": {"vr": "US", "Value": [512]},
                           "00280100": {"vr": "US", "Value": [16]}},
                          {"00080018": {"vr": "UI", "Value": ["9.8.8"]}}])";
  const auto instances = pacs::instancesFromDicomJson(body, "test");
  ASSERT_EQ(instances.size(), 2u);
  EXPECT_EQ(instances[0].sopInstanceUid, "9.8.7");
  EXPECT_EQ(instances[0].pixelBytes, 512 * 512 * 2) << "sized from Rows, Columns, Bits Allocated";
  EXPECT_EQ(instances[1].pixelBytes, -1) << "a node that did not say";
  EXPECT_EQ(instances[0].sopClassUid, "1.2.840.10008.5.1.4.1.1.2");
  EXPECT_EQ(instances[0].instanceNumber, 5);
}

TEST(StowAnswer, OnlyInstancesListedAsReferencedCountAsStored) {
  const char* body = R"({
    "00081199": {"vr": "SQ", "Value": [
      {"00081150": {"vr": "UI", "Value": ["1.2.840.10008.5.1.4.1.1.2"]},
       "00081155": {"vr": "UI", "Value": ["1.1"]}}]},
    "00081198": {"vr": "SQ", "Value": [
      {"00081155": {"vr": "UI", "Value": ["1.2"]}, "00081197": {"vr": "US", "Value": [42752]}}]}
  })";
  const auto o = pacs::stowOutcomes(202, body, {"1.1", "1.2", "1.3"});
  EXPECT_TRUE(o.at("1.1").stored);
  EXPECT_FALSE(o.at("1.2").stored);
  EXPECT_EQ(o.at("1.2").failureReason, 0xA700);
  EXPECT_NE(o.at("1.2").message.find("storage full"), std::string::npos) << o.at("1.2").message;
  EXPECT_FALSE(o.at("1.3").stored) << "not in the answer";
  EXPECT_NE(o.at("1.3").message.find("does not list"), std::string::npos) << o.at("1.3").message;
}

TEST(StowAnswer, TwoHundredWithNothingListedStoresNothing) {
  // What Orthanc answers when it found no parts in the body: both sequences empty, status 200.
  const auto o =
      pacs::stowOutcomes(200, R"({"00081190": {"vr": "UR", "Value": ["x"]}})", {"1.1", "1.2"});
  EXPECT_FALSE(o.at("1.1").stored);
  EXPECT_FALSE(o.at("1.2").stored);
  const auto html = pacs::stowOutcomes(200, "<html>ok</html>", {"1.1"});
  EXPECT_FALSE(html.at("1.1").stored);
}

TEST(StowAnswer, AFailedItemWinsOverAReferencedOne) {
  const char* body = R"({
    "00081199": {"vr": "SQ", "Value": [{"00081155": {"vr": "UI", "Value": ["1.1"]}}]},
    "00081198": {"vr": "SQ", "Value": [{"00081155": {"vr": "UI", "Value": ["1.1"]},
                                        "00081197": {"vr": "US", "Value": [272]}}]}})";
  const auto o = pacs::stowOutcomes(409, body, {"1.1"});
  EXPECT_FALSE(o.at("1.1").stored);
  EXPECT_EQ(o.at("1.1").failureReason, 0x0110);
}
