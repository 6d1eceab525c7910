#include "core/io/LabelMapFileIO.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <numbers>

#include "TempDir.h"
#include "core/Error.h"
#include "core/io/VolumeFileIO.h"

using namespace delineate::core;
using delineate::test::TempDir;

namespace {

ImageGeometry obliqueGrid(Size3 size, Vec3 spacing) {
  ImageGeometry g;
  g.size = size;
  g.spacing = spacing;
  g.origin = {-30.5, 12.25, 80};
  const double c = std::cos(std::numbers::pi / 9), s = std::sin(std::numbers::pi / 9);
  g.direction = {c, 0, s, 0, 1, 0, -s, 0, c};
  return g;
}

LabelMap blobs(const ImageGeometry& g) {
  LabelMap m("blobs", g,
             {Segment{1,
                      "Liver",
                      "whole liver",
                      {221, 130, 101},
                      {"91723000", "SCT", "Anatomical Structure"},
                      {"10200004", "SCT", "Liver"},
                      {},
                      "MANUAL",
                      true,
                      false},
              Segment{4,
                      "Left kidney",
                      "",
                      {185, 102, 83},
                      {"91723000", "SCT", "Anatomical Structure"},
                      {"64033007", "SCT", "Kidney"},
                      {"7771000", "SCT", "Left"},
                      "SEMIAUTOMATIC",
                      false,
                      true}});
  for (std::size_t k = 0; k < g.size[2]; ++k) {
    for (std::size_t j = 0; j < g.size[1]; ++j) {
      for (std::size_t i = 0; i < g.size[0]; ++i) {
        std::uint16_t v = 0;
        if ((i + j + k) % 7 == 0) {
          v = 1;
        } else if (i > g.size[0] / 2 && j < g.size[1] / 3) {
          v = 4;
        } else if (i == 1 && j == 1) {
          v = 9;  // no entry in the table
        }
        m.mutableData()[m.index(i, j, k)] = v;
      }
    }
  }
  return m;
}

}  // namespace

TEST(LabelMapFileIO, RoundTripKeepsVoxelsAndSegments) {
  TempDir dir;
  const LabelMap original = blobs(obliqueGrid({20, 16, 9}, {0.9, 1.1, 2.5}));
  for (const char* name : {"case.01.nii.gz", "case.nrrd"}) {
    const auto path = dir / name;
    writeLabelMapFiles(original, path);
    EXPECT_TRUE(std::filesystem::exists(segmentTablePathFor(path)));
    const LabelMap back = readLabelMapFiles(path, &original.geometry());
    EXPECT_EQ(back.geometry().differenceFrom(original.geometry()), "");
    EXPECT_EQ(0, std::memcmp(back.data(), original.data(), back.voxelCount() * 2));
    ASSERT_EQ(back.segments().size(), 3u) << name;
    EXPECT_EQ(back.segments()[0], original.segments()[0]);
    Segment kidney = back.segments()[1];
    kidney.description.clear();  // the JSON fills a missing description with the name
    EXPECT_EQ(kidney, original.segments()[1]);
    EXPECT_EQ(back.segments()[2].label, 9);  // a default entry for the undescribed value
    EXPECT_EQ(back.segments()[2].name, "Segment 9");
  }
  EXPECT_EQ(segmentTablePathFor(dir / "case.01.nii.gz"), dir / "case.01.json");
  EXPECT_EQ(segmentTablePathFor(dir / "case.nrrd"), dir / "case.json");
}

TEST(LabelMapFileIO, MissingTableGivesDefaultSegments) {
  TempDir dir;
  const LabelMap original = blobs(obliqueGrid({10, 8, 4}, {1, 1, 1}));
  writeLabelMapFiles(original, dir / "l.nii.gz");
  std::filesystem::remove(dir / "l.json");
  const LabelMap back = readLabelMapFiles(dir / "l.nii.gz");
  ASSERT_EQ(back.segments().size(), 3u);
  EXPECT_EQ(back.segments()[0].name, "Segment 1");
  EXPECT_EQ(back.segments()[1].name, "Segment 4");
  EXPECT_NE(back.segments()[0].color, back.segments()[1].color);
}

TEST(LabelMapFileIO, OtherIntegerTypesAreAcceptedAndNegativeValuesRefused) {
  TempDir dir;
  const ImageGeometry g = obliqueGrid({6, 5, 3}, {1, 1, 2});
  auto voxels = std::make_shared<VoxelBuffer>(ScalarType::Int16, g.voxelCount());
  voxels->as<std::int16_t>()[7] = 3;
  writeVolumeFile(Volume(g, voxels, {}), dir / "int16.nii.gz");
  const LabelMap ok = readLabelMapFiles(dir / "int16.nii.gz");
  EXPECT_EQ(ok.data()[7], 3);
  voxels->as<std::int16_t>()[8] = -1;
  writeVolumeFile(Volume(g, voxels, {}), dir / "neg.nii.gz");
  try {
    readLabelMapFiles(dir / "neg.nii.gz");
    FAIL() << "a negative label was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), (dir / "neg.nii.gz").string());
  }
}

TEST(LabelMapFileIO, GridMismatchNamesTheDifference) {
  TempDir dir;
  const LabelMap original = blobs(obliqueGrid({10, 8, 4}, {1, 1, 1}));
  writeLabelMapFiles(original, dir / "l.nrrd");
  ImageGeometry image = original.geometry();
  image.spacing[2] = 1.5;
  try {
    readLabelMapFiles(dir / "l.nrrd", &image);
    FAIL() << "a label map on another grid was accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.where(), (dir / "l.nrrd").string());
    EXPECT_NE(e.detail().find("spacing 1,1,1 mm vs 1,1,1.5 mm"), std::string::npos) << e.what();
  }
}

TEST(LabelMapFileIO, ResampleNearestOntoHalfResolution) {
  const ImageGeometry fine = obliqueGrid({20, 16, 10}, {0.5, 0.5, 1.0});
  const LabelMap labels = blobs(fine);
  // Every second voxel centre of the fine grid, plus one extra slice beyond it.
  ImageGeometry coarse = fine;
  coarse.size = {10, 8, 6};
  coarse.spacing = {1.0, 1.0, 2.0};
  const LabelMap half = resampleNearest(labels, coarse);
  EXPECT_EQ(half.geometry().differenceFrom(coarse), "");
  EXPECT_EQ(half.segments(), labels.segments());
  for (std::size_t k = 0; k < 5; ++k) {
    for (std::size_t j = 0; j < 8; ++j) {
      for (std::size_t i = 0; i < 10; ++i) {
        ASSERT_EQ(half.at(i, j, k), labels.at(2 * i, 2 * j, 2 * k)) << i << "," << j << "," << k;
      }
    }
  }
  for (std::size_t n = 0; n < 10 * 8; ++n) {
    EXPECT_EQ(half.data()[5 * 80 + n], 0);  // outside the fine grid
  }
  // And back onto the fine grid: each fine voxel takes its nearest coarse voxel.
  const LabelMap up = resampleNearest(half, fine);
  EXPECT_EQ(up.at(4, 6, 8), half.at(2, 3, 4));
  EXPECT_EQ(up.at(6, 2, 4), half.at(3, 1, 2));
}
