// A server's label answer read straight from its bytes (NIfTI, gzipped or not) onto the request
// image's grid: voxel-identical to the general path for each label type on an oblique,
// anisotropic grid; anything it cannot check completely (another grid, scaled values, qform and
// sform that disagree, another format) goes to the general path, which names the difference;
// cut or negative data is refused naming the server.
#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "DicomTestSupport.h"
#include "core/Error.h"
#include "core/ai/NiftiLabelBytes.h"
#include "core/ai/ResultLabels.h"
#include "core/ai/VolumeBytes.h"
#include "core/jobs/ProgressSink.h"

using namespace delineate::core;
using delineate::test::fixedInfo;
using delineate::test::makeVolume;

namespace {

const std::string kServer = "http://gpu-box:8000";

// Oblique (rotated 30 degrees about z), anisotropic, off-centre: what a clinical image is.
ImageGeometry obliqueGrid() {
  ImageGeometry g;
  g.size = {23, 17, 9};
  g.spacing = {0.7, 0.9, 2.5};
  g.origin = {-31.5, 12.25, 80};
  const double c = std::cos(M_PI / 6), s = std::sin(M_PI / 6);
  g.direction = {c, -s, 0, s, c, 0, 0, 0, 1};
  return g;
}

double labelAt(std::size_t i, std::size_t j, std::size_t k) {
  return double((i * 7 + j * 3 + k) % 5 == 0 ? (i + j + k) % 4 : 0);
}

std::string bytesOf(ScalarType type, const ImageGeometry& g, const std::string& name,
                    double (*value)(std::size_t, std::size_t, std::size_t) = labelAt) {
  return ai::volumeToBytes(*makeVolume(type, g, fixedInfo("OT"), value), name);
}

std::shared_ptr<LabelMap> direct(const std::string& bytes, const ImageGeometry& g) {
  NullProgress progress;
  return ai::labelMapFromNiftiBytes(bytes, g, "AI", {defaultSegment(1)}, kServer, progress);
}

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST(NiftiLabelBytes, EveryLabelTypeReadsLikeTheGeneralPathOnAnObliqueGrid) {
  const ImageGeometry g = obliqueGrid();
  for (ScalarType type :
       {ScalarType::UInt8, ScalarType::Int8, ScalarType::UInt16, ScalarType::Int16}) {
    for (const char* name : {"label.nii.gz", "label.nii"}) {
      SCOPED_TRACE(std::string(toString(type)) + " " + name);
      const std::string bytes = bytesOf(type, g, name);
      const auto fast = direct(bytes, g);
      ASSERT_NE(fast, nullptr) << "read directly";
      NullProgress progress;
      const auto general = ai::resultLabelMap(
          *ai::volumeFromBytes(bytes, name, "the label", progress), g, "AI", {{}, "AI"}, kServer);
      ASSERT_EQ(fast->voxelCount(), general->voxelCount());
      EXPECT_EQ(std::memcmp(fast->data(), general->data(), fast->voxelCount() * 2), 0);
      EXPECT_TRUE(fast->geometry().sameGrid(g));
      std::size_t labelled = 0;
      for (std::size_t i = 0; i < fast->voxelCount(); ++i) {
        labelled += fast->data()[i] != 0;
      }
      EXPECT_GT(labelled, 100u);
    }
  }
}

TEST(NiftiLabelBytes, WhatItCannotCheckGoesToTheGeneralPathWhichNamesTheDifference) {
  const ImageGeometry g = obliqueGrid();
  ImageGeometry moved = g;
  moved.origin[0] += 5;
  EXPECT_EQ(direct(bytesOf(ScalarType::UInt8, moved, "l.nii.gz"), g), nullptr);
  ImageGeometry smaller = g;
  smaller.size[2] = 8;
  EXPECT_EQ(direct(bytesOf(ScalarType::UInt8, smaller, "l.nii.gz"), g), nullptr);
  EXPECT_EQ(direct(bytesOf(ScalarType::Float32, g, "l.nii.gz"), g), nullptr) << "floats: ITK";
  EXPECT_EQ(direct(bytesOf(ScalarType::UInt8, g, "l.nrrd"), g), nullptr) << "not NIfTI";
  EXPECT_EQ(direct(std::string(300, '\x07'), g), nullptr);
  EXPECT_EQ(direct(std::string(), g), nullptr);

  // qform and sform that disagree: ITK would pick one; this path takes neither.
  std::string plain = bytesOf(ScalarType::UInt8, g, "l.nii");
  float shifted;
  std::memcpy(&shifted, plain.data() + 280 + 12, 4);  // srow_x[3]
  shifted += 10;
  std::memcpy(plain.data() + 280 + 12, &shifted, 4);
  EXPECT_EQ(direct(plain, g), nullptr);

  NullProgress progress;
  const std::string e = errorOf([&] {
    ai::resultLabelMapFromBytes(bytesOf(ScalarType::UInt8, moved, "l.nii.gz"), "l.nii.gz", g, "AI",
                                {{}, "AI"}, kServer, progress);
  });
  EXPECT_NE(e.find(kServer), std::string::npos) << e;
  EXPECT_NE(e.find("origin"), std::string::npos) << e;
  EXPECT_NE(e.find("nothing was changed"), std::string::npos) << e;
}

TEST(NiftiLabelBytes, CutOrNegativeDataIsRefusedNamingTheServer) {
  const ImageGeometry g = obliqueGrid();
  for (const char* name : {"l.nii.gz", "l.nii"}) {
    SCOPED_TRACE(name);
    // Labels that do not compress to nothing, so that a cut lands among the voxels.
    const std::string whole =
        bytesOf(ScalarType::UInt16, g, name, [](std::size_t i, std::size_t j, std::size_t k) {
          return double((i * 2654435761u ^ j * 40503u ^ k * 9973u) % 7);
        });
    const std::string e = errorOf([&] { direct(whole.substr(0, whole.size() * 3 / 4), g); });
    EXPECT_NE(e.find(kServer), std::string::npos) << e;
    EXPECT_NE(e.find("truncated"), std::string::npos) << e;
  }
  const std::string negative =
      bytesOf(ScalarType::Int16, g, "l.nii.gz",
              [](std::size_t i, std::size_t, std::size_t) { return i == 7 ? -3.0 : 1.0; });
  const std::string e = errorOf([&] { direct(negative, g); });
  EXPECT_NE(e.find("no label (-3)"), std::string::npos) << e;
}
