#include "core/io/SegmentTableJson.h"

#include <gtest/gtest.h>

#include "TempDir.h"
#include "core/Error.h"

using namespace delineate::core;

TEST(SegmentTableJson, RoundTripKeepsEveryField) {
  Segment liver{1,
                "Liver",
                "whole liver",
                {221, 130, 101},
                {"91723000", "SCT", "Anatomical Structure"},
                {"10200004", "SCT", "Liver"},
                {},
                "MANUAL",
                true,
                false};
  Segment kidney{4,
                 "Left kidney",
                 "",
                 {185, 102, 83},
                 {"91723000", "SCT", "Anatomical Structure"},
                 {"64033007", "SCT", "Kidney"},
                 {"7771000", "SCT", "Left"},
                 "SEMIAUTOMATIC",
                 false,
                 true};
  delineate::test::TempDir dir;
  writeSegmentTable({liver, kidney}, dir / "seg.json");
  const auto back = readSegmentTable(dir / "seg.json");
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[0].name, liver.name);
  EXPECT_EQ(back[0].description, liver.description);
  EXPECT_EQ(back[0], liver);
  EXPECT_EQ(back[1].description, "Left kidney");  // dcmqi requires a description; we fill it
  Segment k2 = back[1];
  k2.description.clear();
  EXPECT_EQ(k2, kidney);
}

TEST(SegmentTableJson, ReadsDcmqiFilesWithoutOurExtensions) {
  const std::string dcmqi =
      R"({"segmentAttributes": [[{"labelID": 3, "SegmentDescription": "Spleen",
    "SegmentedPropertyTypeCodeSequence": {"CodeValue": "78961009", "CodingSchemeDesignator": "SCT",
    "CodeMeaning": "Spleen"}, "recommendedDisplayRGBValue": [157, 108, 162]}]]})";
  const auto s = segmentTableFromJson(dcmqi);
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].label, 3);
  EXPECT_EQ(s[0].name, "Spleen");
  EXPECT_EQ(s[0].type.meaning, "Spleen");
  EXPECT_EQ(s[0].color[0], 157);
  EXPECT_TRUE(s[0].visible);
}

TEST(SegmentTableJson, BadInputNamesTheSource) {
  try {
    segmentTableFromJson("{not json", "labels.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "labels.json");
  }
  EXPECT_THROW(segmentTableFromJson(R"({"segmentAttributes": [[{"labelID": 0}]]})"), Error);
  EXPECT_THROW(segmentTableFromJson(R"({"segments": []})"), Error);
}
