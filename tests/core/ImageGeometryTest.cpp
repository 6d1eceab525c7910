#include "core/model/ImageGeometry.h"

#include <gtest/gtest.h>

#include "core/Error.h"

using namespace delineate::core;

TEST(ImageGeometry, IndexToWorldAppliesSpacingDirectionAndOrigin) {
  ImageGeometry g;
  g.size = {10, 20, 30};
  g.spacing = {0.5, 2.0, 3.0};
  g.origin = {-10, 5, 100};
  // A coronal stack: i -> +x (L), j -> -z (I), k -> +y (P).
  g.direction = {1, 0, 0, 0, 0, 1, 0, -1, 0};
  const Vec3 p = g.indexToWorld({2, 3, 4});
  EXPECT_DOUBLE_EQ(p[0], -10 + 1.0);
  EXPECT_DOUBLE_EQ(p[1], 5 + 4 * 3.0);
  EXPECT_DOUBLE_EQ(p[2], 100 - 3 * 2.0);
  const Vec3 back = g.worldToIndex(p);
  EXPECT_NEAR(back[0], 2, 1e-12);
  EXPECT_NEAR(back[1], 3, 1e-12);
  EXPECT_NEAR(back[2], 4, 1e-12);
  EXPECT_EQ(g.orientationCode(), "LIP");
}

TEST(ImageGeometry, OrientationLettersFollowLps) {
  EXPECT_EQ(patientDirectionLetter({1, 0, 0}), 'L');
  EXPECT_EQ(patientDirectionLetter({-1, 0, 0}), 'R');
  EXPECT_EQ(patientDirectionLetter({0, 1, 0}), 'P');
  EXPECT_EQ(patientDirectionLetter({0, -1, 0}), 'A');
  EXPECT_EQ(patientDirectionLetter({0, 0.2, 0.9}), 'S');
  EXPECT_EQ(patientDirectionLetter({0, 0.2, -0.9}), 'I');
  ImageGeometry axial;
  EXPECT_EQ(axial.orientationCode(), "LPS");
}

TEST(ImageGeometry, VoxelCountDetectsOverflow) {
  ImageGeometry g;
  g.size = {65535, 65535, std::size_t(1) << 31};
  EXPECT_NO_THROW(g.voxelCount());  // 2^63-ish still fits in 64 bits
  g.size = {std::size_t(1) << 40, std::size_t(1) << 30, 1 << 2};
  EXPECT_THROW(g.voxelCount(), Error);
}

TEST(ImageGeometry, DifferenceNamesTheFirstMismatch) {
  ImageGeometry a;
  a.size = {10, 10, 5};
  ImageGeometry b = a;
  EXPECT_TRUE(a.sameGrid(b));
  b.size[2] = 6;
  EXPECT_EQ(a.differenceFrom(b), "size 10x10x5 vs 10x10x6");
  b = a;
  b.spacing[1] = 1.5;
  EXPECT_NE(a.differenceFrom(b).find("spacing"), std::string::npos);
  b = a;
  b.origin[0] = 3;
  EXPECT_NE(a.differenceFrom(b).find("origin"), std::string::npos);
}

TEST(ImageGeometry, WorldBoundsCoverAllCorners) {
  ImageGeometry g;
  g.size = {3, 3, 3};
  g.direction = {-1, 0, 0, 0, -1, 0, 0, 0, 1};
  const auto b = g.worldBounds();
  EXPECT_DOUBLE_EQ(b[0][0], -2);
  EXPECT_DOUBLE_EQ(b[1][0], 0);
  EXPECT_DOUBLE_EQ(b[0][2], 0);
  EXPECT_DOUBLE_EQ(b[1][2], 2);
}
