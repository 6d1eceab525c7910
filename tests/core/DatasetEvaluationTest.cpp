// Dataset evaluation: pairing by case name, label matching by name or value, the per-case
// reports of bad input (missing pair, grid difference, unreadable file, empty label), the
// summary statistics checked by hand, the CSV / JSON files and the delineate-cli eval command.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "RunCommand.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/io/LabelMapFileIO.h"
#include "core/metrics/DatasetEvaluation.h"
#include "core/metrics/DatasetPairing.h"
#include "core/metrics/EvaluationMerge.h"
#include "core/metrics/EvaluationReport.h"
#include "core/metrics/LabelMatching.h"
#include "core/metrics/SummaryStatistics.h"

using namespace delineate::core;
using delineate::test::TempDir;
namespace fs = std::filesystem;

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

ImageGeometry grid(std::size_t nz = 20) {
  ImageGeometry g;
  g.size = {20, 20, nz};
  return g;
}

Segment segment(std::uint16_t value, const std::string& name) {
  Segment s = defaultSegment(value);
  s.name = name;
  return s;
}

// Fills the box [lo, hi) with `value`.
void fill(LabelMap& map, Size3 lo, Size3 hi, std::uint16_t value) {
  for (std::size_t k = lo[2]; k < hi[2]; ++k) {
    for (std::size_t j = lo[1]; j < hi[1]; ++j) {
      for (std::size_t i = lo[0]; i < hi[0]; ++i) {
        map.mutableData()[map.index(i, j, k)] = value;
      }
    }
  }
}

const CaseEvaluation& findCase(const DatasetEvaluation& e, const std::string& name) {
  for (const CaseEvaluation& c : e.cases) {
    if (c.name == name) {
      return c;
    }
  }
  throw std::runtime_error("no case " + name);
}

const LabelEvaluation& findLabel(const CaseEvaluation& c, const std::string& name) {
  for (const LabelEvaluation& l : c.labels) {
    if (l.name == name) {
      return l;
    }
  }
  throw std::runtime_error("no label " + name + " in case " + c.name);
}

const LabelSummary& findSummary(const DatasetEvaluation& e, const std::string& name) {
  for (const LabelSummary& s : e.summary) {
    if (s.name == name) {
      return s;
    }
  }
  throw std::runtime_error("no summary for " + name);
}

// The dataset (20^3 voxels of 1 mm):
//   a: liver = 10^3 cube, test shifted by one voxel (Dice 0.9); spleen 4^3 in the reference,
//      in the test's table but without voxels (empty in the test).
//   b: test numbers liver 2 and spleen 1 (reference: 1 and 2), matched by name; the test's
//      liver is 10x10x8 inside the reference's (Dice 1600/1800); spleen identical (Dice 1).
//   c: no test file.   e: no reference file.   f: both files unreadable.
//   d: test on a 20x20x21 grid with the reference's cube (Dice 1 once resampled).
void writeDataset(const fs::path& ref, const fs::path& test) {
  fs::create_directories(ref);
  fs::create_directories(test);
  const std::vector<Segment> scheme{segment(1, "liver"), segment(2, "spleen")};
  LabelMap reference("ref", grid(), scheme);
  fill(reference, {2, 2, 2}, {12, 12, 12}, 1);
  fill(reference, {14, 14, 14}, {18, 18, 18}, 2);
  for (const char* name : {"a", "b", "c", "d"}) {
    writeLabelMapFiles(reference, ref / (std::string(name) + ".nii.gz"));
  }

  LabelMap a("a", grid(), scheme);
  fill(a, {3, 2, 2}, {13, 12, 12}, 1);
  writeLabelMapFiles(a, test / "a.nii.gz");

  LabelMap b("b", grid(), {segment(1, "spleen"), segment(2, "liver")});
  fill(b, {2, 2, 2}, {12, 12, 10}, 2);
  fill(b, {14, 14, 14}, {18, 18, 18}, 1);
  writeLabelMapFiles(b, test / "b.nrrd");

  LabelMap d("d", grid(21), scheme);
  fill(d, {2, 2, 2}, {12, 12, 12}, 1);
  fill(d, {14, 14, 14}, {18, 18, 18}, 2);
  writeLabelMapFiles(d, test / "d.nii.gz");
  writeLabelMapFiles(a, test / "e.nii.gz");
  for (const fs::path& folder : {ref, test}) {
    std::ofstream(folder / "f.nii.gz") << "not a NIfTI file";
  }
  std::ofstream(ref / "notes.txt") << "ignored";
}

}  // namespace

TEST(SummaryStatistics, FiniteValuesWithLinearQuartiles) {
  const SummaryStatistics s = summarize({4, 1, kInfinity, 3, kNaN, 2});
  EXPECT_EQ(s.n, 4u);
  EXPECT_EQ(s.infinite, 1u);
  EXPECT_EQ(s.undefined, 1u);
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_DOUBLE_EQ(s.sd, std::sqrt(5.0 / 3.0));
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.q1, 1.75);  // numpy.percentile([1, 2, 3, 4], 25)
  EXPECT_DOUBLE_EQ(s.q3, 3.25);
  EXPECT_DOUBLE_EQ(s.iqr(), 1.5);
  const SummaryStatistics one = summarize({7});
  EXPECT_DOUBLE_EQ(one.median, 7);
  EXPECT_TRUE(std::isnan(one.sd));
  EXPECT_TRUE(std::isnan(summarize({kInfinity}).mean));
}

TEST(DatasetPairing, CaseNamesAreExactStems) {
  EXPECT_EQ(caseNameOf("x/liver_01.nii.gz"), "liver_01");
  EXPECT_EQ(caseNameOf("x/liver_01_seg.NRRD"), "liver_01_seg");
  EXPECT_EQ(caseNameOf("x/s.dcm"), "s");
  EXPECT_EQ(caseNameOf("x/s.mha"), "s");
  EXPECT_EQ(caseNameOf("x/s.json"), "");
  EXPECT_EQ(caseNameOf("x/.s.partial-1-0.nii.gz"), "");
  EXPECT_THROW(pairCases("/nonexistent/ref", "/nonexistent/test"), Error);
}

TEST(DatasetPairing, FindsTheCaseImageInDecathlonAndNnUnetLayouts) {
  TempDir dir;
  auto touch = [](const fs::path& p) {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << "x";
  };
  touch(dir / "labelsTr/liver_01.nii.gz");
  touch(dir / "imagesTr/liver_02_0000.nii.gz");
  touch(dir / "labelsTr/liver_02.nii.gz");
  touch(dir / "imagesTr/liver_01.nii.gz");
  touch(dir / "imagesTr/liver_01_0000.nii.gz");  // the exact name comes first
  EXPECT_EQ(findCaseImage(dir / "labelsTr/liver_01.nii.gz"), dir / "imagesTr/liver_01.nii.gz");
  EXPECT_EQ(findCaseImage(dir / "labelsTr/liver_02.nii.gz"), dir / "imagesTr/liver_02_0000.nii.gz");
  touch(dir / "labelsTs/liver_03.nrrd");
  touch(dir / "images/liver_03.nrrd");
  EXPECT_EQ(findCaseImage(dir / "labelsTs/liver_03.nrrd"), dir / "images/liver_03.nrrd");
  EXPECT_EQ(findCaseImage(dir / "labelsTr/liver_04.nii.gz"), std::nullopt);
  EXPECT_EQ(findCaseImage(dir / "labelsTr/notes.txt"), std::nullopt);
}

TEST(LabelMatching, ByNameAcrossDifferentSchemes) {
  const LabelMap reference("r", grid(), {segment(1, "liver"), segment(2, "spleen")});
  const LabelMap test("t", grid(), {segment(1, "spleen"), segment(2, "kidney")});
  const LabelMatching m = matchLabels(reference, true, test, true, {});
  ASSERT_TRUE(m.byName);
  ASSERT_EQ(m.labels.size(), 3u);
  EXPECT_EQ(m.labels[0].name, "liver");
  EXPECT_EQ(m.labels[0].testValue, 0);
  EXPECT_EQ(m.labels[1].name, "spleen");
  EXPECT_EQ(m.labels[1].referenceValue, 2);
  EXPECT_EQ(m.labels[1].testValue, 1);
  EXPECT_EQ(m.labels[1].value, 2);
  EXPECT_EQ(m.labels[2].name, "kidney");
  EXPECT_EQ(m.labels[2].value, 3);  // a value the reference does not use
  ASSERT_EQ(m.notes.size(), 2u);
  EXPECT_EQ(m.notes[0],
            "label schemes differ: only in the reference: liver; only in the test: kidney");
  EXPECT_EQ(m.notes[1], "label values differ, matched by name (test -> reference): spleen 1 -> 2");
  // Without a table on one side: by value.
  const LabelMatching v = matchLabels(reference, true, test, false, {"spleen", "pancreas"});
  EXPECT_FALSE(v.byName);
  ASSERT_EQ(v.labels.size(), 2u);
  EXPECT_EQ(v.labels[0].value, 2);
  EXPECT_EQ(v.labels[1].value, 0);  // in neither
}

TEST(DatasetEvaluation, ReportsEveryCaseAndSummarises) {
  TempDir dir;
  writeDataset(dir / "ref", dir / "test");
  NullProgress progress;
  const DatasetEvaluation e = evaluateDataset(dir / "ref", dir / "test", {}, progress);
  ASSERT_EQ(e.cases.size(), 6u);  // a b c d e f
  EXPECT_EQ(e.evaluatedCases(), 2u);

  const CaseEvaluation& a = findCase(e, "a");
  EXPECT_EQ(a.status, CaseStatus::Ok);
  EXPECT_TRUE(a.matchedByName);
  EXPECT_DOUBLE_EQ(findLabel(a, "liver").metric(Metric::Dice), 0.9);
  EXPECT_DOUBLE_EQ(findLabel(a, "liver").metric(Metric::HausdorffMm), 1.0);  // HD: one voxel
  const LabelEvaluation& emptySpleen = findLabel(a, "spleen");
  EXPECT_EQ(emptySpleen.note, "empty in the test");
  EXPECT_DOUBLE_EQ(emptySpleen.metric(Metric::Dice), 0.0);
  EXPECT_EQ(emptySpleen.metric(Metric::HausdorffMm), kInfinity);

  const CaseEvaluation& b = findCase(e, "b");
  EXPECT_EQ(b.status, CaseStatus::Ok);
  EXPECT_DOUBLE_EQ(findLabel(b, "liver").metric(Metric::Dice), 1600.0 / 1800.0);
  EXPECT_EQ(findLabel(b, "liver").testValue, 2);
  EXPECT_DOUBLE_EQ(findLabel(b, "spleen").metric(Metric::Dice), 1.0);
  ASSERT_EQ(b.notes.size(), 1u);
  EXPECT_NE(b.notes[0].find("liver 2 -> 1"), std::string::npos) << b.notes[0];

  EXPECT_EQ(findCase(e, "c").statusText(), "missing test: no test file for c.nii.gz");
  EXPECT_EQ(findCase(e, "e").statusText(), "missing reference: no reference file for e.nii.gz");
  EXPECT_EQ(findCase(e, "d").statusText(),
            "grid differs: test vs reference: size 20x20x21 vs 20x20x20");
  EXPECT_EQ(findCase(e, "f").status, CaseStatus::Unreadable);
  EXPECT_NE(findCase(e, "f").detail.find("f.nii.gz"), std::string::npos) << findCase(e, "f").detail;

  const LabelSummary& liver = findSummary(e, "liver");
  EXPECT_EQ(liver.cases, 2u);
  const SummaryStatistics& dice = liver.metric(Metric::Dice);
  const double lo = 1600.0 / 1800.0;
  EXPECT_EQ(dice.n, 2u);
  EXPECT_DOUBLE_EQ(dice.mean, (0.9 + lo) / 2);
  EXPECT_NEAR(dice.sd, (0.9 - lo) / std::sqrt(2.0), 1e-12);
  EXPECT_DOUBLE_EQ(dice.median, (0.9 + lo) / 2);
  EXPECT_DOUBLE_EQ(dice.q1, lo + 0.25 * (0.9 - lo));
  EXPECT_DOUBLE_EQ(dice.q3, lo + 0.75 * (0.9 - lo));
  const LabelSummary& spleen = findSummary(e, "spleen");
  EXPECT_EQ(spleen.metric(Metric::Dice).n, 2u);
  EXPECT_DOUBLE_EQ(spleen.metric(Metric::Dice).mean, 0.5);
  EXPECT_EQ(spleen.metric(Metric::HausdorffMm).n, 1u);  // HD: the empty test's +inf apart
  EXPECT_EQ(spleen.metric(Metric::HausdorffMm).infinite, 1u);
  EXPECT_EQ(spleen.metric(Metric::Precision).undefined, 1u);  // precision of an empty test: NaN
}

TEST(DatasetEvaluation, ResamplesOtherGridsWhenAsked) {
  TempDir dir;
  writeDataset(dir / "ref", dir / "test");
  DatasetEvaluationOptions options;
  options.resample = true;
  options.labels = {"liver"};
  NullProgress progress;
  const DatasetEvaluation e = evaluateDataset(dir / "ref", dir / "test", options, progress);
  EXPECT_EQ(e.evaluatedCases(), 3u);
  const CaseEvaluation& d = findCase(e, "d");
  ASSERT_EQ(d.status, CaseStatus::Ok);
  EXPECT_TRUE(d.resampled);
  ASSERT_EQ(d.labels.size(), 1u);
  EXPECT_DOUBLE_EQ(d.labels[0].metric(Metric::Dice), 1.0);
  EXPECT_NE(d.notes.at(0).find("size 20x20x21 vs 20x20x20"), std::string::npos);
  ASSERT_EQ(e.summary.size(), 1u);
  const SummaryStatistics& dice = e.summary[0].metric(Metric::Dice);
  const double lo = 1600.0 / 1800.0;  // values: lo, 0.9, 1
  EXPECT_EQ(dice.n, 3u);
  EXPECT_DOUBLE_EQ(dice.mean, (lo + 0.9 + 1.0) / 3);
  EXPECT_DOUBLE_EQ(dice.median, 0.9);
  EXPECT_DOUBLE_EQ(dice.q1, (lo + 0.9) / 2);
  EXPECT_DOUBLE_EQ(dice.q3, 0.95);
}

TEST(DatasetEvaluation, CancelsBetweenCases) {
  TempDir dir;
  writeDataset(dir / "ref", dir / "test");
  CancelToken token;
  token.cancel();
  NullProgress cancelled(token);
  EXPECT_THROW(evaluateDataset(dir / "ref", dir / "test", {}, cancelled), CancelledError);
}

TEST(DatasetEvaluation, CsvAndJsonFiles) {
  TempDir dir;
  writeDataset(dir / "ref", dir / "test");
  NullProgress progress;
  const DatasetEvaluation e = evaluateDataset(dir / "ref", dir / "test", {}, progress);
  const std::string csv = evaluationCsv(e);
  std::istringstream lines(csv);
  std::string header;
  std::getline(lines, header);
  EXPECT_EQ(header,
            "case,label,status,dice,jaccard,sensitivity,precision,volume_ref_ml,volume_test_ml,"
            "volume_diff_ml,volume_diff_pct,hd_mm,hd95_mm,assd_mm,surface_dice,note");
  EXPECT_NE(csv.find("\na,spleen,ok,0,0,0,nan,0.064,0,-0.064,-100,inf,inf,inf,0,empty in the test"),
            std::string::npos)
      << csv;
  EXPECT_NE(csv.find("\nc,,missing test: no test file for c.nii.gz,,,,,,,,,,,,,\n"),
            std::string::npos)
      << csv;
  const auto json = nlohmann::json::parse(evaluationJson(e));
  EXPECT_EQ(json["summary"]["evaluated"], 2);
  EXPECT_EQ(json["summary"]["by_status"]["missing test"], 1);
  EXPECT_EQ(json["cases"][0]["labels"][1]["hd_mm"], "inf");
  EXPECT_EQ(json["summary"]["labels"][0]["label"], "liver");
  EXPECT_DOUBLE_EQ(json["summary"]["labels"][0]["metrics"]["dice"]["mean"].get<double>(),
                   (0.9 + 1600.0 / 1800.0) / 2);
  EXPECT_EQ(json["options"]["resample"], false);
}

#ifdef DELINEATE_CLI
using delineate::test::runCommand;

TEST(DatasetEvaluation, CliWritesTheReports) {
  TempDir dir;
  writeDataset(dir / "ref", dir / "test");
  const std::string cli = DELINEATE_CLI;
  const std::string folders =
      " eval --ref '" + (dir / "ref").string() + "' --test '" + (dir / "test").string() + "'";
  std::string out;
  ASSERT_EQ(
      runCommand(cli + folders + " --resample --tolerance 1.5 --csv '" +
                     (dir / "out.csv").string() + "' --json '" + (dir / "out.json").string() + "'",
                 &out),
      0)
      << out;
  EXPECT_NE(out.find("6 cases, 3 evaluated"), std::string::npos) << out;
  EXPECT_NE(out.find("c: missing test"), std::string::npos) << out;
  std::ifstream csv(dir / "out.csv");
  std::string header, row;
  std::getline(csv, header);
  EXPECT_EQ(header.substr(0, 20), "case,label,status,di");
  std::getline(csv, row);
  EXPECT_EQ(row.substr(0, 15), "a,liver,ok,0.9,") << row;
  std::ifstream jsonFile(dir / "out.json");
  const auto json = nlohmann::json::parse(jsonFile);
  EXPECT_EQ(json["summary"]["evaluated"], 3);
  EXPECT_DOUBLE_EQ(json["options"]["tolerance_mm"].get<double>(), 1.5);
  EXPECT_EQ(json["options"]["resample"], true);

  // Nothing to evaluate: 1. Usage errors: 2.
  fs::create_directories(dir / "empty");
  EXPECT_EQ(runCommand(cli + " eval --ref '" + (dir / "empty").string() + "' --test '" +
                           (dir / "empty").string() + "'",
                       &out),
            1)
      << out;
  EXPECT_EQ(runCommand(cli + " eval --ref '" + (dir / "ref").string() + "'", &out), 2) << out;
  EXPECT_EQ(runCommand(cli + folders + " --tolerance abc", &out), 2) << out;
}

std::string fileText(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// Past one machine: the dataset in 4 shards, run as 4 processes at once, merged, gives the very
// bytes of one process's reports; a missing or doubled shard is refused by name.
TEST(DatasetEvaluation, FourShardsMergeIntoTheOneProcessReport) {
  TempDir dir;
  writeDataset(dir / "ref", dir / "test");
  const std::string cli = DELINEATE_CLI;
  const std::string folders = " eval --ref '" + (dir / "ref").string() + "' --test '" +
                              (dir / "test").string() + "' --resample --tolerance 1.5";
  const auto part = [&](int k) { return (dir / ("part-" + std::to_string(k) + ".json")).string(); };
  std::string out;
  ASSERT_EQ(runCommand(cli + folders + " --json '" + (dir / "whole.json").string() + "' --csv '" +
                           (dir / "whole.csv").string() + "'",
                       &out),
            0)
      << out;
  std::string shards;
  for (int k = 1; k <= 4; ++k) {
    shards += cli + folders + " --shard " + std::to_string(k) + "/4 --json '" + part(k) + "' & ";
  }
  ASSERT_EQ(runCommand("( " + shards + "wait )", &out), 0) << out;
  for (int k = 1; k <= 4; ++k) {
    ASSERT_TRUE(fs::exists(part(k))) << out;
  }
  EXPECT_EQ(readEvaluationJson(part(3)).cases.size(), 1u) << "6 cases: shard 3 holds case c";
  EXPECT_EQ(readEvaluationJson(part(1)).cases.size(), 2u) << "shard 1 holds a and e";
  ASSERT_EQ(runCommand(cli + " eval --merge '" + part(4) + "' '" + part(2) + "' '" + part(1) +
                           "' '" + part(3) + "' --json '" + (dir / "merged.json").string() +
                           "' --csv '" + (dir / "merged.csv").string() + "'",
                       &out),
            0)
      << out;
  EXPECT_NE(out.find("6 cases, 3 evaluated"), std::string::npos) << out;
  EXPECT_EQ(fileText(dir / "merged.json"), fileText(dir / "whole.json"));
  EXPECT_EQ(fileText(dir / "merged.csv"), fileText(dir / "whole.csv"));

  EXPECT_EQ(
      runCommand(cli + " eval --merge '" + part(1) + "' '" + part(2) + "' '" + part(4) + "'", &out),
      1);
  EXPECT_NE(out.find("shards missing: 3/4"), std::string::npos) << out;
  EXPECT_EQ(runCommand(cli + " eval --merge '" + part(1) + "' '" + part(1) + "' '" + part(2) +
                           "' '" + part(3) + "'",
                       &out),
            1);
  EXPECT_NE(out.find("given twice"), std::string::npos) << out;
  EXPECT_EQ(runCommand(cli + folders + " --shard 5/4 --json x.json", &out), 2) << out;
  std::ofstream(dir / "other.json") << R"({"cases": [{"case": "a"}], "options": {}})";
  EXPECT_EQ(runCommand(cli + " eval --merge '" + (dir / "other.json").string() + "'", &out), 1);
  EXPECT_NE(out.find("other.json"), std::string::npos) << out;
  EXPECT_NE(out.find("not an evaluation report"), std::string::npos) << out;
}
#endif
