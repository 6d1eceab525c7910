// The clicks delineate-server reads from a request's params: hostile or malformed entries are
// left out rather than turned into indices (or undefined conversions).
#include <gtest/gtest.h>

#include "app/server/ClickParams.h"

using delineate::core::ai::VoxelIndex;
using delineate::server::clicksOf;
using nlohmann::json;

TEST(ClickParams, ThreeNumbersPerClickAndNothingElse) {
  const json params = json::parse(R"({"foreground": [[1, 2, 3], [4.4, 5.6, -6.5], [1, 2],
      "x", [1, "2", 3], [1e300, 0, 0], [7, 8, 9, 10]], "background": 5})");
  EXPECT_EQ(clicksOf(params, "foreground"),
            (std::vector<VoxelIndex>{{1, 2, 3}, {4, 6, -7}, {7, 8, 9}}));
  EXPECT_TRUE(clicksOf(params, "background").empty());
  EXPECT_TRUE(clicksOf(params, "points").empty());
  EXPECT_TRUE(clicksOf(json::array(), "foreground").empty());
}
