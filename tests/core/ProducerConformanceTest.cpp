// Files that other producers wrote: DICOM by pydicom (and DCMTK's dcmconv for the big-endian
// copies, GDCM's gdcmconv for the JPEG 2000 ones), NIfTI by nibabel. Each is read by Delineate and
// compared voxel by voxel with the producer's own reading (tests/producers/*.py). docs/reading.md's
// conformance table lists them.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <string>
#include <vector>

#include "RunCommand.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/io/PathLoader.h"

using namespace delineate::core;
namespace fs = std::filesystem;

namespace {

struct Case {
  const char* producer;  // tests/producers/<producer>_cases.py
  const char* name;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.producer << ":" << c.name;
}

bool producersAvailable() {
  return delineate::test::runCommand(
             "/usr/bin/python3 -c 'import numpy, pydicom, nibabel' && "
             "command -v dcmconv") == 0;
}

struct Reference {
  std::size_t frames = 0, rows = 0, columns = 0;
  std::vector<double> values;
};

Reference readReference(const fs::path& dir) {
  Reference r;
  std::ifstream shape(dir / "reference.txt");
  shape >> r.frames >> r.rows >> r.columns;
  r.values.resize(r.frames * r.rows * r.columns);
  std::ifstream data(dir / "reference.f64", std::ios::binary);
  data.read(reinterpret_cast<char*>(r.values.data()),
            static_cast<std::streamsize>(r.values.size() * sizeof(double)));
  EXPECT_TRUE(data.good()) << dir;
  return r;
}

std::vector<double> voxelsAsDouble(const Volume& v) {
  std::vector<double> out(v.voxels().count());
  dispatchScalar(v.scalarType(), [&](auto t) {
    using T = decltype(t);
    const T* p = v.voxels().template as<T>();
    for (std::size_t i = 0; i < out.size(); ++i) {
      out[i] = static_cast<double>(p[i]);
    }
  });
  return out;
}

class ProducerConformance : public ::testing::TestWithParam<Case> {};

std::string imageName(const fs::path& dir) {
  std::ifstream in(dir / "image.txt");
  std::string name;
  return std::getline(in, name) && !name.empty() ? name : "image.dcm";
}

}  // namespace

TEST_P(ProducerConformance, EveryVoxelMatchesTheProducersOwnDecoding) {
  if (!producersAvailable()) {
    GTEST_SKIP() << "python3-pydicom, python3-numpy or dcmtk missing (scripts/install-deps.sh)";
  }
  delineate::test::TempDir dir;
  std::string out;
  const Case c = GetParam();
  const std::string script = std::string(DELINEATE_TEST_PRODUCERS) + "/" + c.producer + "_cases.py";
  ASSERT_EQ(
      delineate::test::runCommand(
          "/usr/bin/python3 " + script + " " + c.name + " '" + dir.path().string() + "'", &out),
      0)
      << out;
  const Reference ref = readReference(dir.path());
  NullProgress progress;
  const OpenedPath opened = openPath(dir.path() / imageName(dir.path()), progress);
  ASSERT_TRUE(opened.volume);
  const Volume& v = *opened.volume;
  ASSERT_EQ(v.geometry().size[0], ref.columns);
  ASSERT_EQ(v.geometry().size[1], ref.rows);
  ASSERT_EQ(v.geometry().size[2], ref.frames);
  const std::vector<double> got = voxelsAsDouble(v);
  std::size_t wrong = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double tolerance = 1e-6 * std::max(1.0, std::abs(ref.values[i]));
    const bool same = std::isnan(ref.values[i]) ? std::isnan(got[i])
                                                : std::abs(got[i] - ref.values[i]) <= tolerance;
    if (!same && ++wrong <= 5) {
      ADD_FAILURE() << c.name << ": voxel " << i << " is " << got[i] << ", the producer reads "
                    << ref.values[i];
    }
  }
  EXPECT_EQ(wrong, 0u) << "of " << got.size() << " voxels";

  // The grid, where the producer wrote down its own (nibabel's voxel-to-RAS affine).
  std::ifstream affineFile(dir.path() / "affine.txt");
  std::vector<double> a(12);
  bool haveAffine = true;
  for (double& x : a) {
    haveAffine = haveAffine && static_cast<bool>(affineFile >> x);
  }
  if (haveAffine) {
    const ImageGeometry& g = v.geometry();
    const double flip[3] = {-1, -1, 1};  // RAS to LPS
    for (int r = 0; r < 3; ++r) {
      EXPECT_NEAR(g.origin[r], flip[r] * a[4 * r + 3], 1e-4) << "origin " << r;
      for (int c = 0; c < 3; ++c) {
        const double n = std::sqrt(a[c] * a[c] + a[4 + c] * a[4 + c] + a[8 + c] * a[8 + c]);
        EXPECT_NEAR(g.spacing[c], n, 1e-4) << "spacing " << c;
        EXPECT_NEAR(g.direction[3 * r + c], flip[r] * a[4 * r + c] / n, 1e-4)
            << "direction " << r << "," << c;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Files, ProducerConformance,
    ::testing::Values(Case{"pydicom", "rtdose-u32-le"}, Case{"pydicom", "rtdose-u32-be-dcmtk"},
                      Case{"pydicom", "rtdose-u32-be-pydicom"}, Case{"pydicom", "ct-s16-be"},
                      Case{"pydicom", "ct-rescale-un"}, Case{"pydicom", "modality-lut-sequence"},
                      Case{"pydicom", "parametric-map-float"},
                      Case{"pydicom", "parametric-map-double"}, Case{"pydicom", "ct-s16-j2k-gdcm"},
                      Case{"pydicom", "ct-rescale-un-j2k-gdcm"},
                      Case{"pydicom", "dx-10bit-j2k-gdcm"}, Case{"nibabel", "float32-nan"},
                      Case{"nibabel", "int16-big-endian"}, Case{"nibabel", "uint8-scaled"},
                      Case{"nibabel", "nifti1-int16-oblique"}, Case{"nibabel", "nifti2-int16"}),
    [](const auto& info) {
      std::string name = std::string(info.param.producer) + "_" + info.param.name;
      for (char& c : name) {
        if (c == '-') {
          c = '_';
        }
      }
      return name;
    });
