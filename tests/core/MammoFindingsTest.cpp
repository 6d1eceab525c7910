// Mammography AI findings: the findings file written and read back unchanged, its errors named by
// file and line, and the marks and case probability read from MONAI Label model results.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>

#include "TempDir.h"
#include "core/Error.h"
#include "core/mammo/MammoFindings.h"

using namespace delineate::core;
using namespace delineate::core::mammo;
using nlohmann::json;

namespace {

const std::string kValid = R"({
  "format": "delineate-mammo-findings",
  "version": 1,
  "source": "MONAI Label http://localhost:8000 model mammo_det",
  "demonstration": false,
  "riskScore": 0.25,
  "images": [
    {"imageId": "1.2.3.4",
     "marks": [
       {"kind": "mass", "column": 10, "row": 20, "score": 0.75,
        "box": [5, 15, 15, 25]}
     ],
     "heatmap": {"columns": 2, "rows": 2, "step": 16,
                 "values": [0, 0.5, 1, 0.25]}}
  ]
})";

// kValid with `from` replaced by `to`.
std::string with(const std::string& from, const std::string& to) {
  std::string text = kValid;
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

// The "<where>: <detail>" of the error parsing `text` raises.
std::string findingsErrorOf(const std::string& text) {
  try {
    parseStudyFindings(text, "findings.json");
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
    return e.where() + ": " + e.detail();
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return {};
}

std::string inferError(const json& result) {
  try {
    findingsFromInferResult(result, "img-7");
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
    return e.detail();
  }
  ADD_FAILURE() << "no error for " << result.dump();
  return {};
}

StudyFindings example() {
  StudyFindings f;
  f.source = "Built-in demonstration detector (not a diagnosis)";
  f.demonstration = true;
  f.riskScore = 1.0 / 3;
  ImageFindings a;
  a.imageId = "1.2.826.0.1.3680043.8.498.1";
  a.marks.push_back({"mass", 512.25, 700.5, 480.125, 660, 544.375, 741, 0.8125});
  a.marks.push_back({"calcification", 0.1, 0.2, 0, 0, 0.3, 0.4, 1.0 / 7});
  a.marks.push_back({"Architectural distortion", 3, 4, 3, 4, 3, 4, 0});
  FindingHeatmap h;
  h.columns = 3;
  h.rows = 2;
  h.step = 16;
  h.values = {0.0f, 1.0f, 0.1f, 1.0f / 3, 0.999999f, 1e-7f};
  a.heatmap = h;
  ImageFindings b;
  b.imageId = "/data/R_MLO.dcm";
  f.images = {a, b};
  return f;
}

void expectEqual(const StudyFindings& x, const StudyFindings& y) {
  EXPECT_EQ(x.source, y.source);
  EXPECT_EQ(x.demonstration, y.demonstration);
  EXPECT_EQ(x.riskScore, y.riskScore);
  ASSERT_EQ(x.images.size(), y.images.size());
  for (std::size_t i = 0; i < x.images.size(); ++i) {
    const ImageFindings& a = x.images[i];
    const ImageFindings& b = y.images[i];
    EXPECT_EQ(a.imageId, b.imageId);
    ASSERT_EQ(a.marks.size(), b.marks.size());
    for (std::size_t k = 0; k < a.marks.size(); ++k) {
      const FindingMark& m = a.marks[k];
      const FindingMark& n = b.marks[k];
      EXPECT_EQ(m.kind, n.kind);
      EXPECT_EQ(m.column, n.column);
      EXPECT_EQ(m.row, n.row);
      EXPECT_EQ(m.x0, n.x0);
      EXPECT_EQ(m.y0, n.y0);
      EXPECT_EQ(m.x1, n.x1);
      EXPECT_EQ(m.y1, n.y1);
      EXPECT_EQ(m.score, n.score);
    }
    ASSERT_EQ(a.heatmap.has_value(), b.heatmap.has_value());
    if (a.heatmap) {
      EXPECT_EQ(a.heatmap->columns, b.heatmap->columns);
      EXPECT_EQ(a.heatmap->rows, b.heatmap->rows);
      EXPECT_EQ(a.heatmap->step, b.heatmap->step);
      EXPECT_EQ(a.heatmap->values, b.heatmap->values);
    }
  }
}

}  // namespace

TEST(MammoFindings, AWrittenFileReadsBackUnchanged) {
  delineate::test::TempDir dir;
  const StudyFindings f = example();
  writeStudyFindings(f, dir / "findings.json");
  expectEqual(readStudyFindings(dir / "findings.json"), f);

  // Without a risk score, marks or heatmaps.
  StudyFindings bare;
  bare.images.push_back({"x", {}, std::nullopt});
  writeStudyFindings(bare, dir / "bare.json");
  const StudyFindings back = readStudyFindings(dir / "bare.json");
  expectEqual(back, bare);
  EXPECT_FALSE(back.riskScore);

  // The heatmap is stored as base64 of float32, little-endian.
  const json j = toJson(f);
  EXPECT_EQ(j["format"], "delineate-mammo-findings");
  EXPECT_EQ(j["images"][0]["heatmap"]["encoding"], "base64-float32le");
  EXPECT_EQ(j["images"][0]["heatmap"]["values"].get<std::string>().size(), 32u);  // 24 bytes
}

TEST(MammoFindings, AHandWrittenFileWithAPlainHeatmapIsRead) {
  const StudyFindings f = parseStudyFindings(kValid, "findings.json");
  EXPECT_EQ(f.source, "MONAI Label http://localhost:8000 model mammo_det");
  EXPECT_FALSE(f.demonstration);
  EXPECT_EQ(f.riskScore, 0.25);
  ASSERT_EQ(f.images.size(), 1u);
  ASSERT_EQ(f.images[0].marks.size(), 1u);
  const FindingMark& m = f.images[0].marks[0];
  EXPECT_EQ(m.kind, "mass");
  EXPECT_EQ(m.column, 10);
  EXPECT_EQ(m.row, 20);
  EXPECT_EQ(m.x0, 5);
  EXPECT_EQ(m.y1, 25);
  EXPECT_EQ(m.score, 0.75);
  ASSERT_TRUE(f.images[0].heatmap);
  EXPECT_EQ(f.images[0].heatmap->step, 16);
  EXPECT_EQ(f.images[0].heatmap->values, (std::vector<float>{0, 0.5f, 1, 0.25f}));

  // Only "images" and, per image, "imageId" are required; a mark without a box is a point.
  const StudyFindings small = parseStudyFindings(
      R"({"images": [{"imageId": "a", "marks": [{"kind": "x", "column": 1, "row": 2,
          "score": 0}]}]})",
      "small.json");
  EXPECT_EQ(small.images[0].marks[0].x0, 1);
  EXPECT_EQ(small.images[0].marks[0].y1, 2);
  EXPECT_FALSE(small.riskScore);
  EXPECT_FALSE(small.images[0].heatmap);
}

TEST(MammoFindings, ErrorsNameTheFileAndLine) {
  EXPECT_EQ(findingsErrorOf(with("\"score\": 0.75", "\"score\": 1.5")),
            "findings.json:10: the score 1.5 is outside 0..1");
  EXPECT_EQ(findingsErrorOf(with("[0, 0.5, 1, 0.25]", "[0, 0.5, 1]")),
            "findings.json:14: the heatmap has 3 values for 2x2 (4)");
  EXPECT_EQ(findingsErrorOf(with("[0, 0.5, 1, 0.25]", "[0, 0.5, 2, 0.25]")),
            "findings.json:14: heatmap value 2 (2) is outside 0..1");
  EXPECT_EQ(findingsErrorOf(with("[0, 0.5, 1, 0.25]", "\"@@@@\"")),
            "findings.json:14: the heatmap's \"values\" are not base64");
  EXPECT_EQ(findingsErrorOf(with("\"columns\": 2", "\"columns\": 0")),
            "findings.json:13: the heatmap's \"columns\" must be a whole number from 1 to "
            "16777216");
  EXPECT_EQ(findingsErrorOf(with("\"step\": 16", "\"step\": -1")),
            "findings.json:13: \"step\" must be positive");
  EXPECT_EQ(findingsErrorOf(with("[5, 15, 15, 25]", "[15, 15, 5, 25]")),
            "findings.json:11: the box [15,15,5,25] has x0 > x1 or y0 > y1");
  EXPECT_EQ(findingsErrorOf(with("[5, 15, 15, 25]", "[5, 15, 15]")),
            "findings.json:11: \"box\" must be a list of 4 numbers [x0, y0, x1, y1]");
  EXPECT_EQ(findingsErrorOf(with("\"kind\": \"mass\"", "\"kind\": 3")),
            "findings.json:10: \"kind\" must be a string");
  EXPECT_EQ(findingsErrorOf(with("\"column\": 10, ", "")), "findings.json:10: missing \"column\"");
  EXPECT_EQ(findingsErrorOf(with("\"row\": 20", "\"row\": \"20\"")),
            "findings.json:10: \"row\" must be a number");
  EXPECT_EQ(findingsErrorOf(with("\"riskScore\": 0.25", "\"riskScore\": -0.1")),
            "findings.json:6: the risk score -0.1 is outside 0..1");
  EXPECT_EQ(findingsErrorOf(with("\"imageId\": \"1.2.3.4\",", "")),
            "findings.json:8: missing \"imageId\"");
  EXPECT_EQ(findingsErrorOf(with("\"version\": 1", "\"version\": 2")),
            "findings.json:3: unsupported version 2 (this reader knows 1)");
  EXPECT_EQ(findingsErrorOf(with("\"delineate-mammo-findings\"", "\"other\"")),
            "findings.json:2: unknown format \"other\" (expected \"delineate-mammo-findings\")");
  EXPECT_EQ(findingsErrorOf(with("\"demonstration\": false", "\"demonstration\": \"no\"")),
            "findings.json:5: \"demonstration\" must be true or false");
  EXPECT_EQ(findingsErrorOf(with("\"images\": [", "\"images\": {\"a\": 1}, \"x\": [")),
            "findings.json:7: \"images\" must be a list");
  EXPECT_EQ(findingsErrorOf("[1, 2]"),
            "findings.json:1: expected an object with an \"images\" list");
  EXPECT_EQ(findingsErrorOf("{\n\"source\": \"x\"\n}"), "findings.json:1: missing \"images\"");
  // Not JSON: the line of the unexpected token.
  const std::string notJson = findingsErrorOf(with("\"version\": 1,", "\"version\": 1"));
  EXPECT_EQ(notJson.rfind("findings.json:4: not JSON: ", 0), 0u) << notJson;

  // A base64 heatmap whose value count does not match its grid.
  json j = toJson(example());
  j["images"][0]["heatmap"]["columns"] = 4;
  const std::string text = j.dump(1);
  const std::string e = findingsErrorOf(text);
  EXPECT_NE(e.find(": the heatmap has 6 values for 4x2 (8)"), std::string::npos) << e;
  EXPECT_EQ(e.rfind("findings.json:", 0), 0u) << e;
  EXPECT_NE(e, "findings.json: the heatmap has 6 values for 4x2 (8)") << "a line is named";

  try {
    readStudyFindings("/nonexistent/findings.json");
    ADD_FAILURE();
  } catch (const Error& err) {
    EXPECT_EQ(err.kind(), ErrorKind::Io);
    EXPECT_EQ(err.where(), "/nonexistent/findings.json");
  }
}

TEST(MammoFindings, DetectionResultsOfAModelBecomeMarks) {
  const json result = {{"boxes", {{10, 20, 50, 60}, {200.5, 100, 180, 80}}},
                       {"scores", {0.4, 0.9}},
                       {"labels", {1, 2}},
                       {"label_names", {{"mass", 1}, {"calcification", 2}}},
                       {"probability", 0.7}};
  const StudyFindings f = findingsFromInferResult(result, "img-7");
  EXPECT_EQ(f.riskScore, 0.7);
  ASSERT_EQ(f.images.size(), 1u);
  EXPECT_EQ(f.images[0].imageId, "img-7");
  ASSERT_EQ(f.images[0].marks.size(), 2u);
  const FindingMark& best = f.images[0].marks[0];  // sorted by score
  EXPECT_EQ(best.kind, "calcification");
  EXPECT_EQ(best.score, 0.9);
  EXPECT_EQ(best.x0, 180);  // corners put in order
  EXPECT_EQ(best.x1, 200.5);
  EXPECT_EQ(best.y0, 80);
  EXPECT_EQ(best.column, 190.25);
  EXPECT_EQ(best.row, 90);
  EXPECT_EQ(f.images[0].marks[1].kind, "mass");

  // MONAI's detector keys, string labels, a list of label names.
  const StudyFindings monai = findingsFromInferResult(
      {{"box", {{1, 2, 3, 4}}}, {"label_scores", {0.5}}, {"label", {"asymmetry"}}}, "a");
  EXPECT_EQ(monai.images[0].marks[0].kind, "asymmetry");
  EXPECT_FALSE(monai.riskScore);
  const StudyFindings listed = findingsFromInferResult(
      {{"boxes", {{1, 2, 3, 4}}}, {"labels", {1}}, {"label_names", {"background", "mass"}}}, "a");
  EXPECT_EQ(listed.images[0].marks[0].kind, "mass");
  EXPECT_EQ(listed.images[0].marks[0].score, 1.0);  // no scores: certain
  const StudyFindings unnamed =
      findingsFromInferResult({{"boxes", {{1, 2, 3, 4}, {5, 6, 7, 8}}}, {"labels", {3, 1}}}, "a");
  EXPECT_EQ(unnamed.images[0].marks[0].kind, "label 3");
  EXPECT_EQ(findingsFromInferResult({{"boxes", json::array()}}, "a").images[0].marks.size(), 0u);
  // "score" holding the boxes' scores.
  const StudyFindings scored = findingsFromInferResult(
      {{"boxes", {{1, 2, 3, 4}, {5, 6, 7, 8}}}, {"score", {0.2, 0.6}}}, "a");
  EXPECT_EQ(scored.images[0].marks[0].score, 0.6);
  EXPECT_EQ(scored.images[0].marks[0].kind, "finding");
  EXPECT_FALSE(scored.riskScore);
}

TEST(MammoFindings, ClassificationResultsGiveTheRiskScore) {
  EXPECT_EQ(findingsFromInferResult({{"probability", 0.3}}, "a").riskScore, 0.3);
  EXPECT_EQ(findingsFromInferResult({{"score", {0.6}}}, "a").riskScore, 0.6);
  EXPECT_EQ(findingsFromInferResult({{"risk", {0.25, 0.75}}}, "a").riskScore, 0.75);
  EXPECT_EQ(findingsFromInferResult({{"probability", 1}}, "a").riskScore, 1.0);
  EXPECT_TRUE(findingsFromInferResult({{"probability", 0.3}}, "a").images[0].marks.empty());
}

TEST(MammoFindings, MalformedModelResultsAreNamedNotTrusted) {
  EXPECT_EQ(inferError(json::array({1, 2})), "the model's result is not a JSON object");
  EXPECT_EQ(inferError({{"label", "mass"}}),
            "the model's result has neither \"boxes\" nor a \"probability\", \"score\" or "
            "\"risk\"");
  EXPECT_EQ(inferError({{"boxes", 5}}), "\"boxes\" must be a list of [x0, y0, x1, y1]");
  EXPECT_EQ(inferError({{"boxes", {{1, 2, 3}}}}),
            "box 0 must be a list of 4 numbers [x0, y0, x1, y1]: [1,2,3]");
  EXPECT_EQ(inferError({{"boxes", {{1, 2, 3, "4"}}}}), "box 0 corner 3 is not a number: \"4\"");
  EXPECT_EQ(inferError({{"boxes", {{1, 2, 3, std::numeric_limits<double>::quiet_NaN()}}}}),
            "box 0 corner 3 is not a number: null");
  EXPECT_EQ(inferError({{"boxes", {{1, 2, 3, 4}}}, {"scores", {1.2}}}),
            "score 0 1.2 is outside 0..1");
  EXPECT_EQ(inferError({{"boxes", {{1, 2, 3, 4}}}, {"scores", {0.1, 0.2}}}),
            "\"scores\" has 2 entries for 1 boxes");
  EXPECT_EQ(inferError({{"boxes", {{1, 2, 3, 4}}}, {"labels", 1}}), "\"labels\" must be a list");
  EXPECT_EQ(inferError({{"boxes", {{1, 2, 3, 4}}}, {"labels", {1.5}}}),
            "label 0 (1.5) is not a whole number");
  EXPECT_EQ(inferError({{"boxes", {{1, 2, 3, 4}}}, {"labels", {""}}}), "label 0 is empty");
  EXPECT_EQ(inferError({{"boxes", {{1, 2, 3, 4}}}, {"label_names", 3}}),
            "\"label_names\" must be an object or a list");
  EXPECT_EQ(inferError({{"probability", "high"}}), "\"probability\" is not a number: \"high\"");
  EXPECT_EQ(inferError({{"probability", -0.5}}), "\"probability\" -0.5 is outside 0..1");
  EXPECT_EQ(inferError({{"risk", {0.5, 0.7}}}),
            "\"risk\" [0.5,0.7] are not two class probabilities summing to 1");
  EXPECT_EQ(inferError({{"score", {0.1, 0.2, 0.7}}}),
            "\"score\" must be a number or a list of one or two numbers");
  try {
    findingsFromInferResult(json("x"), "img-7");
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), "AI result for img-7");
  }
}
