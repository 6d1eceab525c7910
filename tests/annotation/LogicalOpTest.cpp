#include "annotation/ops/LogicalOp.h"

#include <gtest/gtest.h>

#include "OpsTestSupport.h"

using namespace delineate;
using namespace delineate::annotation;
using namespace delineate::annotation::testing;

namespace {

bool inA(long i, long j, long k) {
  return i >= 2 && i < 8 && j >= 2 && j < 8 && k >= 2 && k < 8;
}
bool inB(long i, long j, long k) {
  return i >= 5 && i < 12 && j >= 4 && j < 6 && k >= 3 && k < 5;
}

}  // namespace

TEST(LogicalOp, EachOperatorOverTheUnionBox) {
  const BoxMask a = maskOf({{2, 2, 2}, {8, 8, 8}}, inA);
  const BoxMask b = maskOf({{5, 4, 3}, {12, 6, 5}}, inB);
  const core::VoxelBox all{{0, 0, 0}, {14, 14, 14}};
  const core::VoxelBox unionBox{{2, 2, 2}, {12, 8, 8}};
  struct Case {
    LogicalOp op;
    bool (*expected)(bool, bool);
  };
  const Case cases[] = {{LogicalOp::Union, [](bool x, bool y) { return x || y; }},
                        {LogicalOp::Intersect, [](bool x, bool y) { return x && y; }},
                        {LogicalOp::Subtract, [](bool x, bool y) { return x && !y; }},
                        {LogicalOp::Xor, [](bool x, bool y) { return x != y; }}};
  for (const Case& c : cases) {
    const BoxMask r = logicalOp(a, b, c.op);
    EXPECT_EQ(r.box, unionBox);
    EXPECT_EQ(
        mismatches(r, all,
                   [&](long i, long j, long k) { return c.expected(inA(i, j, k), inB(i, j, k)); }),
        0u);
  }
  // Overlap: x 5..7, y 4..5, z 3..4 = 3 * 2 * 2.
  EXPECT_EQ(logicalOp(a, b, LogicalOp::Intersect).count(), 12u);
  EXPECT_EQ(logicalOp(a, b, LogicalOp::Union).count(), 216u + 28 - 12);
}

TEST(LogicalOp, EmptyOperands) {
  const BoxMask a = maskOf({{2, 2, 2}, {8, 8, 8}}, inA);
  const BoxMask none;
  EXPECT_EQ(logicalOp(a, none, LogicalOp::Union).count(), 216u);
  EXPECT_EQ(logicalOp(none, a, LogicalOp::Subtract).count(), 0u);
  EXPECT_EQ(logicalOp(none, none, LogicalOp::Xor).count(), 0u);
}

TEST(LogicalOp, InvertWithinIsTheComplementInsideTheBox) {
  const BoxMask a = maskOf({{2, 2, 2}, {8, 8, 8}}, inA);
  const core::VoxelBox within{{0, 0, 0}, {10, 10, 3}};
  const BoxMask inv = invertWithin(a, within);
  EXPECT_EQ(inv.box, within);
  EXPECT_EQ(
      mismatches(inv, {{0, 0, 0}, {12, 12, 12}},
                 [](long i, long j, long k) { return i < 10 && j < 10 && k < 3 && !inA(i, j, k); }),
      0u);
}
