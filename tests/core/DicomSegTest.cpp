// DICOM SEG export and import on the brain MR sample written as DICOM and loaded back: round
// trip, references, refusals that name the difference, dciodvfy, and the delineate-cli seg
// commands.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcsequen.h>

#include "DicomSegTestSupport.h"
#include "RunCommand.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/io/DicomScanner.h"
#include "core/io/DicomSegReader.h"
#include "core/io/DicomSegWriter.h"
#include "core/io/DicomSeriesLoader.h"
#include "core/io/DicomSeriesWriter.h"
#include "core/io/LabelMapFileIO.h"
#include "core/sample/SampleCase.h"

using namespace delineate::core;
using delineate::test::TempDir;
using delineate::test::throughDicom;
namespace fs = std::filesystem;

namespace {

LabelMap labelMapOf(const Volume& labels, const std::vector<Segment>& segments,
                    const ImageGeometry& grid) {
  auto voxels = std::make_shared<VoxelBuffer>(ScalarType::UInt16, labels.voxels().count());
  std::memcpy(voxels->data(), labels.voxels().data(), labels.voxels().bytes());
  return LabelMap("Ground truth", grid, voxels, segments);
}

// The brain MR sample as DICOM (written once for the whole suite) and its labels on that grid.
class DicomSeg : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    folder_ = new TempDir();
    const sample::SampleCase c = sample::makeBrainMr(7);
    image_ = new VolumePtr(throughDicom(*c.image, folder_->path() / "t1"));
    std::vector<Segment> segments = c.segments;
    segments[0].description = "cerebral white matter, both hemispheres";
    segments[1].algorithmType = "SEMIAUTOMATIC";
    segments[2].algorithmType = "AUTOMATIC";
    segments[3].description = "Kopf des Hippocampus (links) — “ü”";
    labels_ = new LabelMap(labelMapOf(*c.labels, segments, (*image_)->geometry()));
  }
  static void TearDownTestSuite() {
    delete labels_;
    delete image_;
    delete folder_;
  }
  static const Volume& image() { return **image_; }
  static const LabelMap& labels() { return *labels_; }

  static TempDir* folder_;
  static VolumePtr* image_;
  static LabelMap* labels_;
};

TempDir* DicomSeg::folder_ = nullptr;
VolumePtr* DicomSeg::image_ = nullptr;
LabelMap* DicomSeg::labels_ = nullptr;

// `viaJson`: the segment went through a dcmqi JSON file, which fills an empty description with
// the name (dcmqi requires one).
void expectSameSegment(const Segment& got, const Segment& want, bool viaJson = false) {
  SCOPED_TRACE("segment " + want.name);
  EXPECT_EQ(got.name, want.name);
  EXPECT_EQ(got.description, viaJson && want.description.empty() ? want.name : want.description);
  EXPECT_EQ(got.category, want.category);
  EXPECT_EQ(got.type, want.type);
  EXPECT_EQ(got.typeModifier, want.typeModifier);
  EXPECT_EQ(got.algorithmType, want.algorithmType);
  for (int c = 0; c < 3; ++c) {
    EXPECT_LE(std::abs(int(got.color[c]) - int(want.color[c])), 1) << "channel " << c;
  }
}

std::string errorOf(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

// Number of (label, slice) pairs holding voxels: the frames a SEG without empty frames has.
std::size_t nonEmptyFrames(const LabelMap& labels) {
  const auto& g = labels.geometry();
  std::size_t frames = 0;
  for (std::size_t k = 0; k < g.size[2]; ++k) {
    std::set<std::uint16_t> present;
    for (std::size_t n = 0; n < g.size[0] * g.size[1]; ++n) {
      present.insert(labels.data()[k * g.size[0] * g.size[1] + n]);
    }
    present.erase(0);
    frames += present.size();
  }
  return frames;
}

}  // namespace

TEST_F(DicomSeg, RoundTripIsVoxelIdenticalAndKeepsEverySegmentField) {
  TempDir dir;
  NullProgress progress;
  const fs::path out = dir / "seg.dcm";
  writeDicomSeg(labels(), image(), out, {}, progress);

  const DicomSegSummary summary = readDicomSegSummary(out);
  EXPECT_EQ(summary.segments, labels().segments().size());
  EXPECT_EQ(summary.frames, nonEmptyFrames(labels()));
  ASSERT_EQ(summary.referencedSeriesUids.size(), 1u);
  EXPECT_EQ(summary.referencedSeriesUids[0], image().info().seriesInstanceUid);
  EXPECT_EQ(summary.studyInstanceUid, image().info().studyInstanceUid);
  EXPECT_EQ(summary.frameOfReferenceUid, image().info().frameOfReferenceUid);

  std::vector<std::string> warnings;
  const LabelMap back = readDicomSeg(out, image().geometry(), progress, &warnings);
  EXPECT_TRUE(warnings.empty());
  EXPECT_EQ(back.geometry().differenceFrom(image().geometry()), "");
  ASSERT_EQ(back.voxelCount(), labels().voxelCount());
  EXPECT_EQ(0, std::memcmp(back.data(), labels().data(), back.voxelCount() * 2));
  ASSERT_EQ(back.segments().size(), labels().segments().size());
  for (std::size_t s = 0; s < back.segments().size(); ++s) {
    EXPECT_EQ(back.segments()[s].label, labels().segments()[s].label);
    expectSameSegment(back.segments()[s], labels().segments()[s]);
  }
}

TEST_F(DicomSeg, ReferencesTheSourceInstancesAndCopiesPatientAndStudy) {
  TempDir dir;
  NullProgress progress;
  const fs::path out = dir / "seg.dcm";
  DicomSegOptions options;
  options.contentCreatorName = "Doe^Jane";
  options.contentLabel = "brain labels";
  writeDicomSeg(labels(), image(), out, options, progress);
  DcmFileFormat file;
  ASSERT_TRUE(file.loadFile(out.c_str()).good());
  DcmDataset& ds = *file.getDataset();
  OFString value;
  ds.findAndGetOFString(DCM_PatientID, value);
  EXPECT_EQ(value.c_str(), image().info().patientId);
  ds.findAndGetOFString(DCM_ContentCreatorName, value);
  EXPECT_EQ(std::string(value.c_str()), "Doe^Jane");
  ds.findAndGetOFString(DCM_ContentLabel, value);
  EXPECT_EQ(std::string(value.c_str()), "BRAIN_LABELS");
  ds.findAndGetOFString(DCM_SpecificCharacterSet, value);
  EXPECT_EQ(std::string(value.c_str()), "ISO_IR 192");  // the umlaut in a description
  ds.findAndGetOFString(DCM_SeriesInstanceUID, value);
  EXPECT_NE(value.c_str(), image().info().seriesInstanceUid);

  // Frame 1: Source Image Sequence names the source file of its slice, purpose 121322.
  DcmItem* frame = nullptr;
  ASSERT_TRUE(ds.findAndGetSequenceItem(DCM_PerFrameFunctionalGroupsSequence, frame, 0).good());
  DcmItem* derivation = nullptr;
  ASSERT_TRUE(frame->findAndGetSequenceItem(DCM_DerivationImageSequence, derivation, 0).good());
  DcmItem* sourceImage = nullptr;
  ASSERT_TRUE(derivation->findAndGetSequenceItem(DCM_SourceImageSequence, sourceImage, 0).good());
  DcmItem* purpose = nullptr;
  ASSERT_TRUE(
      sourceImage->findAndGetSequenceItem(DCM_PurposeOfReferenceCodeSequence, purpose, 0).good());
  purpose->findAndGetOFString(DCM_CodeValue, value);
  EXPECT_EQ(std::string(value.c_str()), "121322");
  OFString referenced;
  sourceImage->findAndGetOFString(DCM_ReferencedSOPInstanceUID, referenced);
  DcmItem* position = nullptr;
  ASSERT_TRUE(frame->findAndGetSequenceItem(DCM_PlanePositionSequence, position, 0).good());
  Vec3 at{};
  for (unsigned long a = 0; a < 3; ++a) {
    position->findAndGetFloat64(DCM_ImagePositionPatient, at[a], a);
  }
  const auto slice = static_cast<std::size_t>(std::lround(image().geometry().worldToIndex(at)[2]));
  DcmFileFormat sourceFile;
  ASSERT_TRUE(sourceFile.loadFile(image().info().sourceFiles.at(slice).c_str()).good());
  sourceFile.getDataset()->findAndGetOFString(DCM_SOPInstanceUID, value);
  EXPECT_EQ(referenced, value);
}

TEST_F(DicomSeg, EmptySegmentsAreSkipped) {
  TempDir dir;
  NullProgress progress;
  LabelMap edited =
      labelMapOf(Volume(labels().geometry(),
                        std::const_pointer_cast<VoxelBuffer>(labels().sharedVoxels()), {}),
                 labels().segments(), labels().geometry());
  for (std::size_t n = 0; n < edited.voxelCount(); ++n) {
    if (edited.mutableData()[n] == 3) {
      edited.mutableData()[n] = 0;  // the ventricles are gone
    }
  }
  Segment unused;
  unused.label = 9;
  unused.name = "Never drawn";
  edited.segments().push_back(unused);
  const fs::path out = dir / "seg.dcm";
  writeDicomSeg(edited, image(), out, {}, progress);
  EXPECT_EQ(readDicomSegSummary(out).segments, 6u);
  EXPECT_EQ(readDicomSegSummary(out).frames, nonEmptyFrames(edited));
  const LabelMap back = readDicomSeg(out, image().geometry(), progress);
  std::vector<std::string> names;
  for (const Segment& s : back.segments()) {
    names.push_back(s.name);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"White matter", "Grey matter", "Left hippocampus head",
                                             "Left hippocampus body", "Right hippocampus head",
                                             "Right hippocampus body"}));
  // Segment numbers are consecutive, so labels above the removed one move down by one.
  for (std::size_t n = 0; n < back.voxelCount(); ++n) {
    const std::uint16_t v = edited.data()[n];
    ASSERT_EQ(back.data()[n], v > 3 ? v - 1 : v) << "voxel " << n;
  }
}

TEST_F(DicomSeg, GridMismatchNamesTheDifference) {
  TempDir dir;
  NullProgress progress;
  ImageGeometry shifted = labels().geometry();
  shifted.origin[0] += 2.5;
  LabelMap moved("moved", shifted, labels().segments());
  const std::string e1 =
      errorOf([&] { writeDicomSeg(moved, image(), dir / "a.dcm", {}, progress); });
  EXPECT_NE(e1.find("grid differs"), std::string::npos) << e1;
  EXPECT_NE(e1.find("origin"), std::string::npos) << e1;
  ImageGeometry smaller = labels().geometry();
  smaller.size[2] -= 1;
  LabelMap cut("cut", smaller, labels().segments());
  const std::string e2 = errorOf([&] { writeDicomSeg(cut, image(), dir / "b.dcm", {}, progress); });
  EXPECT_NE(e2.find("size 160x192x143 vs 160x192x144"), std::string::npos) << e2;
  EXPECT_FALSE(fs::exists(dir / "a.dcm"));

  // Reading onto a grid the frames do not fit.
  const fs::path out = dir / "seg.dcm";
  writeDicomSeg(labels(), image(), out, {}, progress);
  ImageGeometry halfSlice = image().geometry();
  halfSlice.origin[2] += 0.5 * halfSlice.spacing[2];
  const std::string e3 = errorOf([&] { readDicomSeg(out, halfSlice, progress); });
  EXPECT_NE(e3.find("falls between target slices"), std::string::npos) << e3;
  EXPECT_NE(e3.find(out.string()), std::string::npos) << e3;
  ImageGeometry finer = image().geometry();
  finer.spacing[0] = 0.5;
  const std::string e4 = errorOf([&] { readDicomSeg(out, finer, progress); });
  EXPECT_NE(e4.find("pixel spacing 1,1 mm but the target's is 1,0.5 mm"), std::string::npos) << e4;
  ImageGeometry coronal = image().geometry();
  coronal.direction = {1, 0, 0, 0, 0, 1, 0, -1, 0};
  const std::string e5 = errorOf([&] { readDicomSeg(out, coronal, progress); });
  EXPECT_NE(e5.find("orientation"), std::string::npos) << e5;
  ImageGeometry fewer = image().geometry();
  fewer.size[2] = 10;
  const std::string e6 = errorOf([&] { readDicomSeg(out, fewer, progress); });
  EXPECT_NE(e6.find("lies outside the target's 10 slices"), std::string::npos) << e6;
}

TEST_F(DicomSeg, OwnGeometryPlacesVoxelsWhereTheSourceHasThem) {
  TempDir dir;
  NullProgress progress;
  const fs::path out = dir / "seg.dcm";
  writeDicomSeg(labels(), image(), out, {}, progress);
  const ImageGeometry own = dicomSegGeometry(out);
  const ImageGeometry& src = image().geometry();
  EXPECT_EQ(own.size[0], src.size[0]);
  EXPECT_EQ(own.size[1], src.size[1]);
  EXPECT_NEAR(own.spacing[2], src.spacing[2], 1e-6);
  const LabelMap back = readDicomSeg(out, own, progress);
  // The SEG's grid starts at the first slice holding a label.
  const auto first = static_cast<std::size_t>(std::lround(src.worldToIndex(own.origin)[2]));
  ASSERT_LE(first + own.size[2], src.size[2]);
  const std::size_t plane = src.size[0] * src.size[1];
  EXPECT_EQ(0, std::memcmp(back.data(), labels().data() + first * plane,
                           own.size[2] * plane * sizeof(std::uint16_t)));
}

TEST_F(DicomSeg, SourceNotReadFromDicomIsRefused) {
  TempDir dir;
  NullProgress progress;
  const Volume research(image().geometry(),
                        std::const_pointer_cast<VoxelBuffer>(image().sharedVoxels()), {});
  const std::string e =
      errorOf([&] { writeDicomSeg(labels(), research, dir / "seg.dcm", {}, progress); });
  EXPECT_NE(e.find("as read from DICOM"), std::string::npos) << e;
}

TEST_F(DicomSeg, CancelledExportLeavesNoFile) {
  TempDir dir;
  CancelToken token;
  token.cancel();
  NullProgress cancelled(token);
  EXPECT_THROW(writeDicomSeg(labels(), image(), dir / "seg.dcm", {}, cancelled), CancelledError);
  EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST_F(DicomSeg, DciodvfyReportsNoErrors) {
  if (!fs::exists("/usr/bin/dciodvfy")) {
    GTEST_SKIP() << "dciodvfy (dicom3tools) is not installed";
  }
  TempDir dir;
  NullProgress progress;
  const fs::path out = dir / "seg.dcm";
  writeDicomSeg(labels(), image(), out, {}, progress);
  const std::string command = "/usr/bin/dciodvfy '" + out.string() + "' 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char line[4096];
  std::vector<std::string> errors;
  while (std::fgets(line, sizeof line, pipe)) {
    output += line;
    if (std::strncmp(line, "Error", 5) == 0) {
      errors.push_back(line);
    }
  }
  ::pclose(pipe);
  EXPECT_TRUE(errors.empty()) << output;
  EXPECT_NE(output.find("Segmentation"), std::string::npos) << output;
}

#ifdef DELINEATE_CLI
using delineate::test::runCommand;

TEST_F(DicomSeg, CliExportThenImportGivesTheLabelsBack) {
  TempDir dir;
  const std::string cli = DELINEATE_CLI;
  writeLabelMapFiles(labels(), dir / "truth.nii.gz");
  fs::rename(dir / "truth.json", dir / "segments.json");  // given explicitly below
  const std::string series = image().info().sourcePath;
  std::string out;
  ASSERT_EQ(runCommand(cli + " seg export --image '" + series + "' --label '" +
                           (dir / "truth.nii.gz").string() + "' --segments '" +
                           (dir / "segments.json").string() + "' --out '" +
                           (dir / "seg.dcm").string() + "'",
                       &out),
            0)
      << out;
  EXPECT_NE(out.find("wrote 7 segments"), std::string::npos) << out;
  ASSERT_EQ(runCommand(cli + " seg import '" + (dir / "seg.dcm").string() + "' --image '" + series +
                           "' --out '" + (dir / "back.nii.gz").string() + "'",
                       &out),
            0)
      << out;
  EXPECT_NE(out.find("wrote 7 segments"), std::string::npos) << out;
  const LabelMap back = readLabelMapFiles(dir / "back.nii.gz", &image().geometry());
  EXPECT_EQ(0, std::memcmp(back.data(), labels().data(), back.voxelCount() * 2));
  ASSERT_EQ(back.segments().size(), 7u);
  for (std::size_t s = 0; s < 7; ++s) {
    expectSameSegment(back.segments()[s], labels().segments()[s], true);
  }
  // Without --image: the SEG's own grid.
  ASSERT_EQ(runCommand(cli + " seg import '" + (dir / "seg.dcm").string() + "' --out '" +
                           (dir / "own.nrrd").string() + "'",
                       &out),
            0)
      << out;
  EXPECT_TRUE(fs::exists(dir / "own.json"));
  // Errors name the file and exit with 1.
  EXPECT_EQ(runCommand(cli + " seg import '" + (dir / "missing.dcm").string() + "' --out '" +
                           (dir / "x.nii.gz").string() + "'",
                       &out),
            1);
  EXPECT_NE(out.find("missing.dcm"), std::string::npos) << out;
}
#endif
