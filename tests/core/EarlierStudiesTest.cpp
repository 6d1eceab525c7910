// A patient's earlier studies from what a PACS answers: the search sent, and the answer checked
// again, since a PACS may match loosely.
#include <gtest/gtest.h>

#include "core/pacs/EarlierStudies.h"

using namespace delineate::core::pacs;

namespace {

StudyRecord study(const std::string& uid, const std::string& patientId, const std::string& date,
                  std::vector<std::string> modalities = {"MG"}) {
  StudyRecord s;
  s.studyInstanceUid = uid;
  s.patientId = patientId;
  s.studyDate = date;
  s.modalities = std::move(modalities);
  return s;
}

}  // namespace

TEST(EarlierStudies, TheSearchNamesThePatientTheModalityAndTheWindow) {
  const StudyRecord now = study("1.2.3", "P-7", "20260531");
  const auto q = earlierStudiesQuery(now, "MG", "20230531-20250831");
  ASSERT_TRUE(q.has_value());
  EXPECT_EQ(q->patientId, "P-7");
  EXPECT_EQ(q->modality, "MG");
  EXPECT_EQ(q->studyDate, "20230531-20250831");
  EXPECT_TRUE(q->patientName.empty());
  EXPECT_FALSE(q->problem().has_value());
  EXPECT_EQ(earlierStudiesQuery(now, "CT")->studyDate, "-20260531");
  EXPECT_FALSE(earlierStudiesQuery(study("1.2.3", "", "20260531"), "MG").has_value())
      << "no patient ID, no search";
}

TEST(EarlierStudies, WhatTheNodeAnsweredIsCheckedAgainLatestFirst) {
  const StudyRecord now = study("now", "P-7", "20260531");
  const StudyQuery q = *earlierStudiesQuery(now, "MG", "-20260530");
  const std::vector<StudyRecord> answered = {
      study("y2", "P-7", "20240505"),
      study("now", "P-7", "20260531"),             // the study itself
      study("other-patient", "P-77", "20250101"),  // a loose match on the ID
      study("same-day", "P-7", "20260531"),        // no prior
      study("ct", "P-7", "20250601", {"CT"}),      // a node that ignored the modality
      study("unlisted", "P-7", "20250201", {}),    // no modalities said: taken at its word
      study("undated", "P-7", ""),                 // cannot be placed in time
      study("y1", "P-7", "20250510", {"MG", "SR"}),
      study("y1", "P-7", "20250510", {"MG", "SR"})};  // listed twice (paging)
  const auto found = earlierStudies(now, q, answered);
  std::vector<std::string> uids;
  for (const auto& s : found) {
    uids.push_back(s.studyInstanceUid);
  }
  EXPECT_EQ(uids, (std::vector<std::string>{"y1", "unlisted", "y2"}));
}

TEST(EarlierStudies, AMammographyStudyIsOneWithAnMgSeries) {
  SeriesRecord mg, sr;
  mg.modality = "MG";
  sr.modality = "SR";
  EXPECT_TRUE(isMammographyStudy(study("a", "p", "20260101", {"SR"}), {sr, mg}));
  EXPECT_FALSE(isMammographyStudy(study("a", "p", "20260101", {"MG"}), {sr}))
      << "the series say better than the study's list";
  EXPECT_TRUE(isMammographyStudy(study("a", "p", "20260101", {"MG", "SR"}), {}));
  EXPECT_FALSE(isMammographyStudy(study("a", "p", "20260101", {"CT"}), {}));
}
