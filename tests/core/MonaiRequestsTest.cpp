#include "core/ai/MonaiInfo.h"
#include "core/ai/MonaiRequests.h"

#include <gtest/gtest.h>

#include <string>

#include "core/Error.h"

using namespace delineate::core;
using namespace delineate::core::ai;
using nlohmann::json;

TEST(MonaiRequests, DeepgrowSendsClicksLabelAndOurResultKeys) {
  DeepgrowClicks clicks;
  clicks.label = "spleen";
  clicks.foreground = {{10, 20, 30}, {11, 21, 31}};
  clicks.background = {{1, 2, 3}};
  RequestOptions options;
  options.clientId = "tester";
  const json params = deepgrowParams(clicks, options);
  EXPECT_EQ(params, json::parse(R"({
      "foreground": [[10, 20, 30], [11, 21, 31]], "background": [[1, 2, 3]], "label": "spleen",
      "result_extension": ".nii.gz", "result_dtype": "uint8", "client_id": "tester"})"));
  // Empty click lists are lists, not null.
  EXPECT_TRUE(deepgrowParams(DeepgrowClicks{})["background"].is_array());
  EXPECT_EQ(deepgrowParams(DeepgrowClicks{})["client_id"], "delineate");
}

TEST(MonaiRequests, DeepgrowTwoDimensionalKeepsTheSliceClicksOnly) {
  DeepgrowClicks clicks;
  clicks.label = "liver";
  clicks.foreground = {{5, 6, 12}, {7, 8, 13}, {9, 9, 12}};
  clicks.background = {{1, 1, 11}};
  clicks.slice = 12;
  clicks.resetState = true;
  const json params = deepgrowParams(clicks);
  EXPECT_EQ(params["foreground"], json::parse("[[5, 6, 12], [9, 9, 12]]"));
  EXPECT_EQ(params["background"], json::array());
  EXPECT_EQ(params["slice"], 12);
  EXPECT_EQ(params["reset_state"], true);
}

TEST(MonaiRequests, DeepeditSendsAListPerLabelAndBackground) {
  DeepeditClicks clicks;
  clicks.label = "spleen";
  clicks.perLabel = {{"spleen", {{1, 2, 3}}}, {"liver", {{4, 5, 6}, {7, 8, 9}}}, {"kidney", {}}};
  clicks.background = {{0, 0, 0}};
  const json params = deepeditParams(clicks);
  EXPECT_EQ(params, json::parse(R"({
      "spleen": [[1, 2, 3]], "liver": [[4, 5, 6], [7, 8, 9]], "kidney": [],
      "background": [[0, 0, 0]], "label": "spleen",
      "result_extension": ".nii.gz", "result_dtype": "uint8", "client_id": "delineate"})"));
  // Clicks listed under a label named "background" join the background list.
  clicks.perLabel.push_back({"background", {{9, 9, 9}}});
  EXPECT_EQ(deepeditParams(clicks)["background"], json::parse("[[0, 0, 0], [9, 9, 9]]"));
  clicks.perLabel.push_back({"client_id", {}});
  EXPECT_THROW(deepeditParams(clicks), Error);
}

TEST(MonaiRequests, AutomaticUsesConfigDefaultsButOurResultKeysWin) {
  const ServerInfo info = parseMonaiInfo(R"({"models": {"seg": {"type": "segmentation",
      "config": {"device": ["cuda", "cpu"], "largest_cc": true, "result_extension": ".nrrd",
                 "sw_overlap": 0.25}}}})");
  RequestOptions options;
  options.base = configDefaults(info.findModel("seg")->config);
  options.base["device"] = "cpu";  // the user's choice
  const json params = automaticParams(options);
  EXPECT_EQ(params, json::parse(R"({"device": "cpu", "largest_cc": true, "sw_overlap": 0.25,
      "result_extension": ".nii.gz", "result_dtype": "uint8", "client_id": "delineate"})"));
  RequestOptions bad;
  bad.base = json::array();
  EXPECT_THROW(automaticParams(bad), Error);
}

TEST(MonaiRequests, ParamsTextNeverThrowsOnBadUtf8) {
  DeepgrowClicks clicks;
  clicks.label = "bad \xff name";
  const std::string text = paramsText(deepgrowParams(clicks));
  EXPECT_NE(text.find("\"label\":\"bad \xEF\xBF\xBD name\""), std::string::npos) << text;
}

TEST(MonaiRequests, JoinUrlGivesExactlyOneSlashAndCollectionSlashes) {
  EXPECT_EQ(joinUrl("http://host:8000", "/info/"), "http://host:8000/info/");
  EXPECT_EQ(joinUrl("http://host:8000/", "/info/"), "http://host:8000/info/");  // issue #1599
  EXPECT_EQ(joinUrl("http://host:8000//", "info"), "http://host:8000/info/");
  EXPECT_EQ(joinUrl("http://host:8000", "/info"), "http://host:8000/info/");
  EXPECT_EQ(joinUrl("http://host:8000/", "//datastore?output=stats"),
            "http://host:8000/datastore/?output=stats");
  EXPECT_EQ(joinUrl("http://host:8000", "/train/segmentation_spleen"),
            "http://host:8000/train/segmentation_spleen");
  EXPECT_EQ(joinUrl("http://host:8000", "/train/?check_if_running=true"),
            "http://host:8000/train/?check_if_running=true");
  EXPECT_EQ(joinUrl("http://host:8000", "/session/abc-123"), "http://host:8000/session/abc-123");
  EXPECT_EQ(joinUrl("http://host:8000", "session"), "http://host:8000/session/");
  EXPECT_EQ(joinUrl("http://host:8000", "/datastore/image?image=a//b"),
            "http://host:8000/datastore/image?image=a//b");
  EXPECT_EQ(joinUrl("https://h/monai/", "/infer/seg?image=vol1"),
            "https://h/monai/infer/seg?image=vol1");
  EXPECT_EQ(joinUrl("http://host:8000/", ""), "http://host:8000/");
  EXPECT_EQ(joinUrl("http://host:8000", "/auth/token"), "http://host:8000/auth/token");
  EXPECT_EQ(joinUrl("http://host:8000", "/auth"), "http://host:8000/auth/");
}

TEST(MonaiRequests, InferPathEncodesModelAndIds) {
  EXPECT_EQ(inferPath("segmentation_spleen", "vol1"), "/infer/segmentation_spleen?image=vol1");
  EXPECT_EQ(inferPath("deepedit", {}, "9b3c-11ee"), "/infer/deepedit?session_id=9b3c-11ee");
  EXPECT_EQ(inferPath("Histogram+GraphCut", "a b/c", "s"),
            "/infer/Histogram%2BGraphCut?image=a%20b%2Fc&session_id=s");
  EXPECT_EQ(inferPath("m"), "/infer/m");
  EXPECT_EQ(percentEncode("1.2.840~x_y-z"), "1.2.840~x_y-z");
  EXPECT_EQ(percentEncode("\xC3\xA9"), "%C3%A9");
}
