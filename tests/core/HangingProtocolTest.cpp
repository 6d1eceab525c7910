// Hanging protocols as data: the built-in set, a site's JSON with its errors named by file and
// line, and which image goes into which viewport whatever order the images come in.
#include <gtest/gtest.h>

#include <tuple>

#include <fstream>
#include <nlohmann/json.hpp>

#include "DicomTestSupport.h"
#include "RunCommand.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/mammo/HangingAssignment.h"
#include "core/mammo/HangingProtocol.h"
#include "core/mammo/MammoViewDicom.h"

using namespace delineate::core;
using namespace delineate::core::mammo;

namespace {

// The "<where>: <detail>" of the error `text` raises.
std::string errorOf(const std::string& text) {
  try {
    parseHangingProtocols(text, "site.json");
  } catch (const Error& e) {
    return e.where() + ": " + e.detail();
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return {};
}

MammoView view(const std::string& id, Laterality l, ViewCode v, const std::string& study,
               const std::string& date, const std::string& time = "100000") {
  MammoView m;
  m.id = id;
  m.laterality = l;
  m.view = v;
  m.studyUid = study;
  m.studyDate = date;
  m.acquisitionTime = time;
  return m;
}

const std::string kValid = R"({
  "protocols": [
    {"id": "site-2x1", "name": "CCs stacked", "rows": 2, "columns": 1,
     "viewports": [{"laterality": "R", "view": "CC"},
                   {"laterality": "L", "view": "CC", "chestWall": "right"}]}
  ],
  "sequence": ["site-2x1", "mammo-4up"]
})";

}  // namespace

TEST(HangingProtocols, TheBuiltInSetHasTheScreeningLayoutsMirrored) {
  const HangingProtocolSet& set = builtinHangingProtocols();
  const HangingProtocol* four = set.find("mammo-4up");
  ASSERT_NE(four, nullptr);
  EXPECT_EQ(four->rows, 2);
  EXPECT_EQ(four->columns, 2);
  ASSERT_EQ(four->viewports.size(), 4u);
  EXPECT_EQ(four->viewports[0].laterality, Laterality::Right);
  EXPECT_EQ(four->viewports[0].view, ViewCode::CC);
  EXPECT_EQ(four->viewports[0].chestWall, ChestWall::Right) << "R faces L across the middle";
  EXPECT_EQ(four->viewports[1].laterality, Laterality::Left);
  EXPECT_EQ(four->viewports[1].chestWall, ChestWall::Left);
  EXPECT_EQ(four->viewports[3].view, ViewCode::MLO);
  const HangingProtocol* eight = set.find("mammo-8up");
  ASSERT_NE(eight, nullptr);
  EXPECT_EQ(eight->viewports[4].study, StudyChoice::Prior);
  EXPECT_EQ(set.sequence.front(), "mammo-4up");
  for (const std::string& id : set.sequence) {
    EXPECT_NE(set.find(id), nullptr) << id;
  }
}

TEST(HangingProtocols, ASiteFileAddsProtocolsAndItsSequence) {
  const HangingProtocolSet site = parseHangingProtocols(kValid, "site.json");
  ASSERT_EQ(site.protocols.size(), 1u);
  EXPECT_EQ(site.protocols[0].viewports[1].chestWall, ChestWall::Right);
  EXPECT_EQ(site.protocols[0].viewports[0].chestWall, ChestWall::Right) << "default: R right";
  HangingProtocolSet all = builtinHangingProtocols();
  const std::size_t before = all.protocols.size();
  all.merge(site);
  EXPECT_EQ(all.protocols.size(), before + 1);
  EXPECT_EQ(all.sequence, (std::vector<std::string>{"site-2x1", "mammo-4up"}));

  delineate::test::TempDir dir;
  std::ofstream(dir / "site.json") << kValid;
  EXPECT_EQ(readHangingProtocols(dir / "site.json").protocols[0].id, "site-2x1");
  try {
    readHangingProtocols(dir / "absent.json");
    FAIL();
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), (dir / "absent.json").string());
  }
}

TEST(HangingProtocols, AViewportMayAskForTheStack) {
  const HangingProtocolSet set = parseHangingProtocols(R"({"protocols": [
    {"id": "t", "rows": 1, "columns": 2, "viewports": [
      {"laterality": "R", "view": "CC", "image": "2d"},
      {"laterality": "R", "view": "CC", "image": "stack"}]}]})",
                                                       "tomo.json");
  EXPECT_EQ(set.protocols[0].viewports[0].image, ImageChoice::Picture);
  EXPECT_EQ(set.protocols[0].viewports[1].image, ImageChoice::Stack);
  EXPECT_THROW(parseHangingProtocols(R"({"protocols": [
    {"id": "t", "rows": 1, "columns": 1, "viewports": [
      {"laterality": "R", "view": "CC", "image": "volume"}]}]})",
                                     "bad.json"),
               delineate::core::Error);
}

TEST(HangingProtocols, ErrorsNameTheFileAndLine) {
  EXPECT_EQ(errorOf("{\n  \"protocols\": [\n    {\"id\": \"x\",, }\n  ]\n}")
                .rfind("site.json:3: not JSON", 0),
            0u);
  std::string bad = kValid;
  bad.replace(bad.find("\"view\": \"CC\", \"chestWall\""), 12, "\"view\": \"CCX\"");
  EXPECT_EQ(errorOf(bad).rfind("site.json:5: unknown view \"CCX\"", 0), 0u) << errorOf(bad);
  bad = kValid;
  bad.replace(bad.find("\"rows\": 2"), 9, "\"rows\": 3");
  EXPECT_EQ(errorOf(bad), "site.json:3: protocol \"site-2x1\" has 2 viewports for a 3x1 grid");
  bad = kValid;
  bad.replace(bad.find("\"laterality\": \"R\""), 17, "\"laterality\": \"B\"");
  EXPECT_EQ(errorOf(bad).rfind("site.json:4: unknown laterality \"B\"", 0), 0u) << errorOf(bad);
  bad = kValid;
  bad.replace(bad.find("\"mammo-4up\""), 11, "\"mammo-5up\"");
  EXPECT_EQ(errorOf(bad), "site.json:7: the sequence names \"mammo-5up\", which is no protocol");
  const std::string twice = R"({"protocols": [
    {"id": "a", "rows": 1, "columns": 1, "viewports": [{"laterality": "R", "view": "CC"}]},
    {"id": "a", "rows": 1, "columns": 1, "viewports": [{"laterality": "L", "view": "CC"}]}]})";
  EXPECT_EQ(errorOf(twice), "site.json:3: the id \"a\" is used twice");
  const std::string noViewports =
      "{\"protocols\": [\n{\"id\": \"b\", \"rows\": 1, \"columns\": 1}]}";
  EXPECT_EQ(errorOf(noViewports), "site.json:2: missing \"viewports\" (a list)");
  EXPECT_EQ(errorOf("[1, 2]"), "site.json:1: expected an object with a \"protocols\" list");
  // A number too large for a double is "not JSON", not a crash (found by fuzzing).
  EXPECT_EQ(errorOf("9999999999999999999999999e99990000").rfind("site.json: not JSON", 0), 0u);
}

TEST(HangingAssignment, ImagesGoToTheirViewportsWhateverTheOrder) {
  const std::vector<MammoView> views = {
      view("lmlo", Laterality::Left, ViewCode::MLO, "s2", "20261101"),
      view("rcc", Laterality::Right, ViewCode::CC, "s2", "20261101"),
      view("old-rcc", Laterality::Right, ViewCode::CC, "s1", "20241030"),
      view("rmlo", Laterality::Right, ViewCode::MLO, "s2", "20261101"),
      view("lcc", Laterality::Left, ViewCode::CC, "s2", "20261101")};
  const Hanging h = hang(*builtinHangingProtocols().find("mammo-4up"), views);
  EXPECT_EQ(h.currentStudy, "s2") << "the latest study is the current one";
  EXPECT_EQ(h.priorStudy, "s1");
  ASSERT_EQ(h.viewports.size(), 4u);
  const char* expected[] = {"rcc", "lcc", "rmlo", "lmlo"};
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(h.viewports[std::size_t(i)].image.has_value()) << i;
    EXPECT_EQ(views[*h.viewports[std::size_t(i)].image].id, expected[i]);
  }
  EXPECT_TRUE(h.notes.empty()) << h.notes.front();
}

// A tomosynthesis study: per view a synthetic 2-D image, a stack and (for R CC) an ordinary
// mammogram taken later. The 4-up shows the synthetic views; the tomosynthesis pairs put the 2-D
// views over the stacks; a study without stacks skips those pairs.
TEST(HangingAssignment, FourUpPrefersTheSynthetic2DViewAndThePairsOfferTheStack) {
  std::vector<MammoView> views;
  for (const auto& [name, side, v] : {std::tuple{"rcc", Laterality::Right, ViewCode::CC},
                                      std::tuple{"lcc", Laterality::Left, ViewCode::CC},
                                      std::tuple{"rmlo", Laterality::Right, ViewCode::MLO},
                                      std::tuple{"lmlo", Laterality::Left, ViewCode::MLO}}) {
    MammoView stack = view(std::string(name) + "-stack", side, v, "s1", "20261101", "100000");
    stack.kind = MammoView::Kind::Stack;
    MammoView synthetic = view(std::string(name) + "-2d", side, v, "s1", "20261101", "100100");
    synthetic.kind = MammoView::Kind::Synthetic2D;
    views.push_back(stack);
    views.push_back(synthetic);
  }
  views.push_back(view("rcc-ffdm", Laterality::Right, ViewCode::CC, "s1", "20261101", "110000"));
  const Hanging four = hang(*builtinHangingProtocols().find("mammo-4up"), views);
  const char* expected[] = {"rcc-2d", "lcc-2d", "rmlo-2d", "lmlo-2d"};
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(four.viewports[std::size_t(i)].image.has_value()) << i;
    EXPECT_EQ(views[*four.viewports[std::size_t(i)].image].id, expected[i]);
  }
  EXPECT_TRUE(four.notes.empty()) << four.notes.front();
  const HangingProtocol& pair = *builtinHangingProtocols().find("mammo-tomo-cc");
  const Hanging cc = hang(pair, views);
  const char* pairExpected[] = {"rcc-2d", "lcc-2d", "rcc-stack", "lcc-stack"};
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(cc.viewports[std::size_t(i)].image.has_value()) << i;
    EXPECT_EQ(views[*cc.viewports[std::size_t(i)].image].id, pairExpected[i]);
  }
  EXPECT_TRUE(usableFor(pair, views));
  // Without its synthetic view, R CC shows the ordinary mammogram before the stack; with only a
  // stack, the stack.
  std::vector<MammoView> noSynthetic;
  for (const MammoView& v : views) {
    if (v.kind != MammoView::Kind::Synthetic2D) {
      noSynthetic.push_back(v);
    }
  }
  const Hanging plain = hang(*builtinHangingProtocols().find("mammo-4up"), noSynthetic);
  EXPECT_EQ(noSynthetic[*plain.viewports[0].image].id, "rcc-ffdm");
  EXPECT_EQ(noSynthetic[*plain.viewports[1].image].id, "lcc-stack");
  // A study of 2-D images only cannot use the tomosynthesis pairs.
  EXPECT_FALSE(usableFor(pair, {view("rcc", Laterality::Right, ViewCode::CC, "s1", "20261101")}));
  EXPECT_TRUE(usableFor(*builtinHangingProtocols().find("mammo-4up"), {}));
}

// Image Type as a tomosynthesis system writes it marks its computed 2-D view; a multi-frame
// object is a stack.
TEST(HangingAssignment, TheKindOfAnImageComesFromItsHeader) {
  delineate::test::TempDir dir;
  ImageGeometry g;
  g.size = {8, 8, 1};
  const auto image =
      delineate::test::makeVolume(ScalarType::UInt16, g, delineate::test::fixedInfo("MG"),
                                  [](std::size_t, std::size_t, std::size_t) { return 7.0; });
  const auto written = delineate::test::writeSeries(
      *image, dir.path() / "c-view", DicomTransferSyntax::ExplicitLittleEndian,
      {{"ImageType", "DERIVED\\PRIMARY\\TOMOSYNTHESIS\\GENERATED_2D"},
       {"ImageLaterality", "R"},
       {"ViewPosition", "CC"}});
  ASSERT_EQ(written.size(), 1u);
  const DicomFileHeader h = readDicomHeader(written.front().string());
  EXPECT_EQ(mammoViewOf(h, "x").kind, MammoView::Kind::Synthetic2D);
  DicomFileHeader plain = h;
  plain.imageType = "ORIGINAL\\PRIMARY";
  EXPECT_EQ(imageKindOf(plain), MammoView::Kind::Mammogram);
  plain.frames = 40;
  EXPECT_EQ(imageKindOf(plain), MammoView::Kind::Stack);
}

TEST(HangingAssignment, PriorsDuplicatesProcessingAndMissingViewsAreSaid) {
  std::vector<MammoView> views = {
      view("rcc-early", Laterality::Right, ViewCode::CC, "s3", "20261101", "090000"),
      view("rcc-retake", Laterality::Right, ViewCode::CC, "s3", "20261101", "091500"),
      view("lcc", Laterality::Left, ViewCode::CC, "s3", "20261101"),
      view("rmlo-raw", Laterality::Right, ViewCode::MLO, "s3", "20261101"),
      view("unknown", Laterality::Unknown, ViewCode::CC, "s3", "20261101"),
      view("prior-rcc", Laterality::Right, ViewCode::CC, "s2", "20251101"),
      view("older-rcc", Laterality::Right, ViewCode::CC, "s1", "20241101"),
      view("spot", Laterality::Left, ViewCode::CC, "s3", "20261101", "120000")};
  views[3].forProcessing = true;
  views[7].spot = true;
  const Hanging h = hang(*builtinHangingProtocols().find("mammo-8up"), views);
  EXPECT_EQ(h.priorStudy, "s2") << "the most recent earlier study";
  const auto shown = [&](std::size_t viewport) {
    return h.viewports[viewport].image ? views[*h.viewports[viewport].image].id : std::string();
  };
  EXPECT_EQ(shown(0), "rcc-retake") << "the latest acquisition of duplicates";
  EXPECT_EQ(shown(1), "lcc") << "not the spot compression view";
  EXPECT_EQ(shown(2), "rmlo-raw") << "processing-only is shown when it is all there is";
  EXPECT_EQ(shown(4), "prior-rcc");
  // The L MLO is missing: its viewport shows the image without laterality instead.
  EXPECT_EQ(shown(3), "unknown");
  EXPECT_FALSE(h.viewports[3].asked);
  const std::vector<std::string> expected = {
      "2 images for R CC (current): the latest is shown",
      "R MLO (current) exists only for processing (raw detector data): shown as it is",
      "L MLO (current) is missing",
      "L CC (prior) is missing",
      "R MLO (prior) is missing",
      "L MLO (prior) is missing",
      "an image without laterality (unknown) could not be placed by the protocol"};
  EXPECT_EQ(h.notes, expected);

  // Presentation images win over processing ones of the same view.
  views.push_back(view("rmlo", Laterality::Right, ViewCode::MLO, "s3", "20261101", "080000"));
  const Hanging again = hang(*builtinHangingProtocols().find("mammo-4up"), views);
  EXPECT_EQ(views[*again.viewports[2].image].id, "rmlo");

  // A chosen current study; no earlier one means an empty prior row, said once per view.
  const Hanging first = hang(*builtinHangingProtocols().find("mammo-8up"), views, "s1");
  EXPECT_EQ(first.currentStudy, "s1");
  EXPECT_TRUE(first.priorStudy.empty());
  EXPECT_EQ(std::count_if(first.notes.begin(), first.notes.end(),
                          [](const std::string& n) { return n.rfind("no prior study", 0) == 0; }),
            4);
}

TEST(HangingAssignment, ASecondStudyOfTheSameDayIsNoPrior) {
  const std::vector<MammoView> views = {
      view("rcc", Laterality::Right, ViewCode::CC, "s2b", "20261101"),
      view("rcc-copy", Laterality::Right, ViewCode::CC, "s2a", "20261101"),
      view("rcc-2024", Laterality::Right, ViewCode::CC, "s1", "20241101")};
  const Hanging h = hang(*builtinHangingProtocols().find("mammo-2up-rcc-prior"), views, "s2b");
  EXPECT_EQ(h.priorStudy, "s1");
  EXPECT_EQ(views[*h.viewports[1].image].id, "rcc-2024");
}

// The command line on the built-in sample: the 4-view screening study and its prior, read from
// DICOM in whatever order the folder lists them.
TEST(HangingCli, TheSampleStudyHangsInTheScreeningLayout) {
  delineate::test::TempDir dir;
  ASSERT_EQ(delineate::test::runCommand(std::string(DELINEATE_CLI) + " sample " +
                                        dir.path().string() + " > /dev/null 2>&1"),
            0);
  std::string out;
  ASSERT_EQ(
      delineate::test::runCommand("(" + std::string(DELINEATE_CLI) + " hang --layout mammo-8up " +
                                      (dir / "mammo/screening-2026").string() + " " +
                                      (dir / "mammo/screening-2024").string() + " 2>/dev/null)",
                                  &out),
      0)
      << out;
  const nlohmann::json j = nlohmann::json::parse(out);
  EXPECT_EQ(j["protocol"], "mammo-8up");
  EXPECT_TRUE(j["notes"].empty()) << j["notes"].dump();
  const char* expected[] = {"R_CC", "L_CC", "R_MLO", "L_MLO"};
  for (int i = 0; i < 8; ++i) {
    const std::string file = j["viewports"][std::size_t(i)]["file"].get<std::string>();
    EXPECT_NE(file.find(std::string(i < 4 ? "screening-2026" : "screening-2024") + "/dicom/" +
                        expected[i % 4]),
              std::string::npos)
        << i << ": " << file;
  }
  EXPECT_EQ(j["viewports"][0]["chest_wall"], "right");
  EXPECT_EQ(j["viewports"][1]["chest_wall"], "left");

  // A site's broken protocol file is named with its line; an unknown layout is a usage error.
  std::ofstream(dir / "site.json") << "{\"protocols\": [\n  {\"id\": \"x\", \"rows\": 1}\n]}";
  ASSERT_EQ(delineate::test::runCommand(std::string(DELINEATE_CLI) + " hang --protocols " +
                                            (dir / "site.json").string() + " " +
                                            dir.path().string() + " 2>&1",
                                        &out),
            1)
      << out;
  EXPECT_NE(out.find((dir / "site.json").string() + ":2"), std::string::npos) << out;
  EXPECT_EQ(delineate::test::runCommand(std::string(DELINEATE_CLI) + " hang --layout nope " +
                                        dir.path().string() + " > /dev/null 2>&1"),
            2);
}

// The prior rule: a window of months before the current study, as a search range and as the
// hanging's choice; the latest study outside the window only when none is inside, said.
TEST(PriorRules, TheWindowIsASearchRangeAndChoosesThePrior) {
  PriorRule any;
  EXPECT_EQ(any.dateRange("20260301"), "-20260228") << "any earlier day, not the day itself";
  EXPECT_EQ(any.dateRange("2026"), "");
  PriorRule site{"MG", 9, 36, 2};
  EXPECT_EQ(site.dateRange("20260531"), "20230531-20250831");
  EXPECT_EQ(PriorRule({"MG", 3, 0, 1}).dateRange("20260531"), "-20260228")
      << "the 31st becomes the last day of a shorter month";
  EXPECT_TRUE(site.admits("20260531", "20250831"));
  EXPECT_FALSE(site.admits("20260531", "20250901")) << "less than 9 months earlier";
  EXPECT_FALSE(site.admits("20260531", "20230530")) << "more than 36 months earlier";
  EXPECT_FALSE(site.admits("20260531", "")) << "an undated study";
  EXPECT_EQ(site.describe(), "9 to 36 months earlier");
  EXPECT_EQ(choosePriors(site, "now", "20260531",
                         {{"now", "20260531"},
                          {"diagnostic", "20260110"},
                          {"y1", "20250510"},
                          {"y2", "20240505"},
                          {"old", "20200101"}}),
            (std::vector<std::string>{"y1", "y2"}));

  const std::vector<MammoView> views = {
      view("rcc", Laterality::Right, ViewCode::CC, "now", "20260531"),
      view("rcc-diag", Laterality::Right, ViewCode::CC, "diagnostic", "20260110"),
      view("rcc-y1", Laterality::Right, ViewCode::CC, "y1", "20250510")};
  const HangingProtocol& twoUp = *builtinHangingProtocols().find("mammo-2up-rcc-prior");
  EXPECT_EQ(hang(twoUp, views).priorStudy, "diagnostic") << "the default: any earlier day";
  const Hanging h = hang(twoUp, views, {}, site);
  EXPECT_EQ(h.priorStudy, "y1") << "the rule skips the diagnostic study of January";
  EXPECT_EQ(views[*h.viewports[1].image].id, "rcc-y1");
  EXPECT_TRUE(h.notes.empty());
  const Hanging outside = hang(twoUp, {views[0], views[1]}, {}, site);
  EXPECT_EQ(outside.priorStudy, "diagnostic");
  EXPECT_EQ(outside.notes, std::vector<std::string>{"no earlier study 9 to 36 months earlier: "
                                                    "the prior shown is of 20260110"});
}

TEST(PriorRules, ASiteFileStatesItsRuleAndItsErrorsAreNamed) {
  HangingProtocolSet set = builtinHangingProtocols();
  EXPECT_FALSE(set.prior.has_value());
  EXPECT_EQ(set.priorRule().minMonthsEarlier, 0);
  set.merge(parseHangingProtocols(R"({"protocols": [],
  "prior": {"minMonthsEarlier": 9, "fetch": 2}})",
                                  "site.json"));
  EXPECT_EQ(set.priorRule().minMonthsEarlier, 9);
  EXPECT_EQ(set.priorRule().maxMonthsEarlier, 0);
  EXPECT_EQ(set.priorRule().fetch, 2);
  EXPECT_EQ(set.priorRule().modality, "MG");
  EXPECT_EQ(set.find("mammo-8up") != nullptr, true) << "the built-in protocols stay";
  EXPECT_EQ(errorOf("{\"protocols\": [],\n \"prior\": {\"minMonthsEarlier\": -1}}"),
            "site.json:2: \"minMonthsEarlier\" must be a whole number from 0 to 1200");
  EXPECT_EQ(errorOf("{\"protocols\": [],\n\n \"prior\": {\"months\": 12}}"),
            "site.json:3: unknown prior field \"months\" (expected modality, minMonthsEarlier, "
            "maxMonthsEarlier or fetch)");
  EXPECT_EQ(errorOf("{\"protocols\": [], \"prior\": {\"minMonthsEarlier\": 12, "
                    "\"maxMonthsEarlier\": 6}}"),
            "site.json:1: \"maxMonthsEarlier\" is less than \"minMonthsEarlier\"");
}
