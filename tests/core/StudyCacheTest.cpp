// The local study cache: what it holds listed like a PACS's answer (read from the files), a
// search judged as a PACS would, and the least recently used studies removed to keep it under
// its limit, never the one in use.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "DicomTestSupport.h"
#include "TempDir.h"
#include "core/io/DicomSeriesWriter.h"
#include "core/pacs/StudyCache.h"

using namespace delineate;
using namespace delineate::core;
namespace fs = std::filesystem;

namespace {

// A study as the retrieves leave it: ROOT/<study>/<series>/<sop>.dcm.
void cacheStudy(const fs::path& root, const std::string& study, const std::string& patient,
                const std::string& date, std::size_t slices) {
  const std::string series = study + ".1";
  DicomWriteOptions options;
  options.instanceKey = study;
  options.attributes = {{"PatientName", patient},
                        {"StudyDate", date},
                        {"StudyInstanceUID", study},
                        {"SeriesInstanceUID", series},
                        {"StudyDescription", "Chest " + patient}};
  NullProgress quiet;
  writeDicomSeries(*test::makeCt(test::axialGeometry(16, 16, slices)), root / study / series,
                   options, quiet);
}

}  // namespace

TEST(StudyCache, ListsWhatItHoldsAndSearchesItAsAPacsWould) {
  test::TempDir dir;
  cacheStudy(dir.path(), "1.2.3.1", "DOE^JANE", "20240105", 3);
  cacheStudy(dir.path(), "1.2.3.2", "ROE^RICHARD", "20250601", 4);
  const pacs::StudyCache cache(dir.path());
  NullProgress quiet;
  const std::vector<pacs::StudyRecord> all = cache.records(quiet);
  ASSERT_EQ(all.size(), 2u);
  const auto jane = std::find_if(all.begin(), all.end(),
                                 [](const auto& s) { return s.studyInstanceUid == "1.2.3.1"; });
  ASSERT_NE(jane, all.end());
  EXPECT_EQ(jane->patientName, "DOE^JANE");
  EXPECT_EQ(jane->studyDate, "20240105");
  EXPECT_EQ(jane->studyDescription, "Chest DOE^JANE");
  EXPECT_EQ(jane->modalities, std::vector<std::string>{"CT"});
  EXPECT_EQ(jane->seriesCount, 1);
  EXPECT_EQ(jane->instanceCount, 3);
  const auto series = cache.seriesOf("1.2.3.2");
  ASSERT_EQ(series.size(), 1u);
  EXPECT_EQ(series[0].instanceCount, 4);
  EXPECT_EQ(series[0].modality, "CT");

  pacs::StudyQuery q;
  q.patientName = "doe*";
  EXPECT_TRUE(q.matches(*jane));
  q.patientName = "D?E^JAN*";
  EXPECT_TRUE(q.matches(*jane));
  q.patientName = "ROE*";
  EXPECT_FALSE(q.matches(*jane));
  q = {};
  q.studyDate = "20250101-";
  EXPECT_FALSE(q.matches(*jane));
  q.studyDate = "-20240105";
  EXPECT_TRUE(q.matches(*jane)) << "the range is inclusive";
  q = {};
  q.modality = "MR";
  EXPECT_FALSE(q.matches(*jane));
}

TEST(StudyCache, KeepsUnderItsLimitByRemovingTheLeastRecentlyUsedButNeverTheOneInUse) {
  test::TempDir dir;
  const pacs::StudyCache cache(dir.path());
  for (const char* study : {"1.2.4.1", "1.2.4.2", "1.2.4.3"}) {
    cacheStudy(dir.path(), study, "P^" + std::string(study), "20250101", 4);
    cache.touch(study);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // distinct times
  }
  cache.touch("1.2.4.1");  // opened again: now the most recent
  const std::vector<pacs::CachedStudy> before = cache.studies();
  ASSERT_EQ(before.size(), 3u);
  EXPECT_EQ(before.front().studyInstanceUid, "1.2.4.1");
  EXPECT_EQ(before.back().studyInstanceUid, "1.2.4.2");
  const std::uintmax_t one = before.front().bytes;
  ASSERT_GT(one, 0u);

  // Room for two: the one used longest ago goes.
  EXPECT_EQ(cache.evict(2 * one + one / 2, {}), std::vector<std::string>{"1.2.4.2"});
  EXPECT_FALSE(fs::exists(dir.path() / "1.2.4.2"));
  // Room for none, but 1.2.4.3 is open: only 1.2.4.1 goes.
  EXPECT_EQ(cache.evict(0, {"1.2.4.3"}), std::vector<std::string>{"1.2.4.1"});
  EXPECT_TRUE(fs::exists(dir.path() / "1.2.4.3"));
  EXPECT_EQ(cache.totalBytes(), one);
}
