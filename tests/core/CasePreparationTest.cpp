// Checking a labelled case before it is sent: the server's label schema, grids, empty labels,
// overlapping label files; ids that name neither patient nor file; the MSD export.
#include <gtest/gtest.h>

#include <fstream>

#include "TempDir.h"
#include "UploadTestSupport.h"
#include "core/Error.h"
#include "core/io/VolumeFileIO.h"
#include "core/upload/CasePreparation.h"
#include "core/upload/DatasetCase.h"
#include "core/upload/MsdDatasetWriter.h"

namespace delineate {
namespace {

namespace fs = std::filesystem;
using core::upload::DatasetCase;
using core::upload::LintFinding;
using core::upload::prepareCase;
using core::upload::PrepareOptions;

PrepareOptions spleenLiverSchema() {
  PrepareOptions o;
  o.schema = {{"background", 0, true}, {"spleen", 1, false}, {"liver", 2, false}};
  return o;
}

std::string findingsText(const core::upload::PreparedCase& c) {
  std::string out;
  for (const LintFinding& f : c.findings) {
    out += (f.severity == LintFinding::Severity::Error ? "E: " : "W: ") + f.message + "\n";
  }
  return out;
}

std::string bytesOf(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

TEST(CasePreparation, SegmentNamesMapToTheServersValues) {
  test::TempDir dir;
  const auto image = test::boxImage(1);
  core::writeVolumeFile(*image, dir / "doe_jane.nii.gz");
  core::writeLabelMapFiles(test::boxLabel(*image, 7, "Liver"), dir / "doe_jane_labels.nii.gz");
  core::NullProgress progress;
  const auto c = prepareCase({dir / "doe_jane.nii.gz", {dir / "doe_jane_labels.nii.gz"}},
                             spleenLiverSchema(), progress);
  ASSERT_TRUE(c.sendable()) << findingsText(c);
  ASSERT_TRUE(c.label);
  EXPECT_EQ(c.label->at(3, 3, 3), 2) << "'Liver' is value 2 on the server, 7 in the file";
  EXPECT_EQ(c.labelInfo, nlohmann::json::parse(R"([{"name":"liver","idx":2}])"));
  EXPECT_EQ(c.id.rfind("case-", 0), 0u);
  EXPECT_EQ(c.id.size(), 17u);
  EXPECT_EQ(c.id.find("doe"), std::string::npos);
  EXPECT_TRUE(c.image->info().patientName.empty());
  EXPECT_TRUE(c.image->info().patientId.empty());

  // The files that go out carry no identifier: not the patient's, not the file name.
  core::upload::writeCaseFiles(c, dir / "out-image.nii", dir / "out-label.nii");
  for (const char* f : {"out-image.nii", "out-label.nii"}) {
    const std::string bytes = bytesOf(dir / f);
    EXPECT_EQ(bytes.find("PID-4711"), std::string::npos) << f;
    EXPECT_EQ(bytes.find("Doe"), std::string::npos) << f;
    EXPECT_EQ(bytes.find("doe_jane"), std::string::npos) << f;
  }
}

TEST(CasePreparation, TheSameImageHasTheSameIdWhereverItIsPicked) {
  test::TempDir dir;
  const auto image = test::boxImage(3);
  core::writeVolumeFile(*image, dir / "a.nii.gz");
  core::writeVolumeFile(*image, dir / "b.nrrd");
  core::writeVolumeFile(*test::boxImage(4), dir / "c.nii.gz");
  core::NullProgress progress;
  const PrepareOptions o;
  const auto a = prepareCase({dir / "a.nii.gz", {}}, o, progress);
  const auto b = prepareCase({dir / "b.nrrd", {}}, o, progress);
  const auto c = prepareCase({dir / "c.nii.gz", {}}, o, progress);
  EXPECT_EQ(a.id, b.id);
  EXPECT_NE(a.id, c.id);
}

TEST(CasePreparation, NamesAndValuesOutsideTheSchemaAreErrorsNamingTheFile) {
  test::TempDir dir;
  const auto image = test::boxImage(1);
  core::writeVolumeFile(*image, dir / "img.nii.gz");
  core::writeLabelMapFiles(test::boxLabel(*image, 1, "kidney"), dir / "named.nii.gz");
  test::writeLabelOnly(test::boxLabel(*image, 5, "x"), dir / "raw.nii.gz");
  core::NullProgress progress;
  const auto named =
      prepareCase({dir / "img.nii.gz", {dir / "named.nii.gz"}}, spleenLiverSchema(), progress);
  EXPECT_FALSE(named.sendable());
  EXPECT_NE(findingsText(named).find("named.nii.gz: segment 'kidney' is not among the server's "
                                     "labels (1 spleen, 2 liver)"),
            std::string::npos)
      << findingsText(named);
  const auto raw =
      prepareCase({dir / "img.nii.gz", {dir / "raw.nii.gz"}}, spleenLiverSchema(), progress);
  EXPECT_FALSE(raw.sendable());
  EXPECT_NE(findingsText(raw).find("raw.nii.gz: label value 5 is not among"), std::string::npos)
      << findingsText(raw);
}

TEST(CasePreparation, AnotherGridAnEmptyLabelAndAnUnreadableImageAreErrors) {
  test::TempDir dir;
  const auto image = test::boxImage(1);
  core::writeVolumeFile(*image, dir / "img.nii.gz");
  const auto other = test::boxImage(1, {12, 10, 9});
  core::writeLabelMapFiles(test::boxLabel(*other, 1, "spleen"), dir / "other-grid.nii.gz");
  core::writeLabelMapFiles(test::boxLabel(*image, 1, "spleen", 0, 0), dir / "empty.nii.gz");
  std::ofstream(dir / "broken.nii.gz") << "not an image";
  core::NullProgress progress;
  const auto grid =
      prepareCase({dir / "img.nii.gz", {dir / "other-grid.nii.gz"}}, spleenLiverSchema(), progress);
  EXPECT_FALSE(grid.sendable());
  EXPECT_NE(findingsText(grid).find("other-grid.nii.gz"), std::string::npos) << findingsText(grid);
  EXPECT_NE(findingsText(grid).find("size"), std::string::npos) << findingsText(grid);
  const auto empty =
      prepareCase({dir / "img.nii.gz", {dir / "empty.nii.gz"}}, spleenLiverSchema(), progress);
  EXPECT_FALSE(empty.sendable());
  EXPECT_NE(findingsText(empty).find("empty.nii.gz: the label is empty"), std::string::npos);
  const auto broken = prepareCase({dir / "broken.nii.gz", {}}, spleenLiverSchema(), progress);
  EXPECT_FALSE(broken.sendable());
  EXPECT_NE(findingsText(broken).find("broken.nii.gz"), std::string::npos);
}

TEST(CasePreparation, OverlappingLabelFilesAreAWarningAndTheLaterFileWins) {
  test::TempDir dir;
  const auto image = test::boxImage(1);
  core::writeVolumeFile(*image, dir / "img.nii.gz");
  core::writeLabelMapFiles(test::boxLabel(*image, 1, "spleen", 1, 5), dir / "spleen.nii.gz");
  core::writeLabelMapFiles(test::boxLabel(*image, 1, "liver", 4, 8), dir / "liver.nii.gz");
  core::NullProgress progress;
  const auto c = prepareCase({dir / "img.nii.gz", {dir / "spleen.nii.gz", dir / "liver.nii.gz"}},
                             spleenLiverSchema(), progress);
  ASSERT_TRUE(c.sendable()) << findingsText(c);
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_EQ(c.findings[0].severity, LintFinding::Severity::Warning);
  // x = 4 in 3 rows (j 2..5 → 4) and 3 slices: 12 voxels.
  EXPECT_NE(c.findings[0].message.find("12 voxels labelled 'spleen'"), std::string::npos)
      << c.findings[0].message;
  EXPECT_EQ(c.label->at(4, 3, 3), 2);
  EXPECT_EQ(c.label->at(2, 3, 3), 1);
  EXPECT_EQ(c.labelInfo.size(), 2u);
}

TEST(DatasetCases, FindsMsdAndSideBySideLayouts) {
  test::TempDir dir;
  const auto image = test::boxImage(1);
  fs::create_directories(dir / "msd" / "imagesTr");
  fs::create_directories(dir / "msd" / "labelsTr");
  core::writeVolumeFile(*image, dir / "msd" / "imagesTr" / "spleen_2_0000.nii.gz");
  core::writeVolumeFile(*image, dir / "msd" / "labelsTr" / "spleen_2.nii.gz");
  core::writeVolumeFile(*image, dir / "msd" / "imagesTr" / "spleen_9.nii.gz");
  const auto msd = core::upload::findDatasetCases(dir / "msd");
  ASSERT_EQ(msd.size(), 2u);
  EXPECT_EQ(msd[0].labels.size(), 1u);
  EXPECT_TRUE(msd[1].labels.empty());

  fs::create_directories(dir / "flat");
  core::writeVolumeFile(*image, dir / "flat" / "a.nii.gz");
  core::writeVolumeFile(*image, dir / "flat" / "a_labels.nii.gz");
  const auto flat = core::upload::findDatasetCases(dir / "flat");
  ASSERT_EQ(flat.size(), 1u);
  EXPECT_EQ(flat[0].labels.at(0).filename(), "a_labels.nii.gz");
  fs::create_directories(dir / "none");
  EXPECT_THROW(core::upload::findDatasetCases(dir / "none"), core::Error);
}

TEST(MsdDatasetWriter, WritesPairsAndAnIndexThatGrows) {
  test::TempDir dir;
  core::NullProgress progress;
  std::vector<core::upload::PreparedCase> cases;
  for (int seed : {1, 2}) {
    const auto image = test::boxImage(seed);
    const fs::path file = dir / ("img" + std::to_string(seed) + ".nii.gz");
    core::writeVolumeFile(*image, file);
    core::writeLabelMapFiles(test::boxLabel(*image, 1, "spleen"),
                             dir / ("img" + std::to_string(seed) + "_labels.nii.gz"));
    cases.push_back(prepareCase({file, {dir / ("img" + std::to_string(seed) + "_labels.nii.gz")}},
                                spleenLiverSchema(), progress));
  }
  {
    core::upload::MsdDatasetWriter writer(dir / "Task01", "Spleen");
    writer.add(cases[0]);
  }
  {
    std::ifstream in(dir / "Task01" / "dataset.json");
    EXPECT_EQ(nlohmann::json::parse(in)["modality"]["0"], "unknown") << "NIfTI names none";
  }
  core::upload::MsdDatasetWriter writer(dir / "Task01", "Spleen", "MRI");
  writer.add(cases[1]);
  EXPECT_EQ(writer.cases(), 2);
  std::ifstream in(dir / "Task01" / "dataset.json");
  const auto index = nlohmann::json::parse(in);
  EXPECT_EQ(index["numTraining"], 2);
  EXPECT_EQ(index["labels"]["1"], "spleen");
  EXPECT_EQ(index["modality"]["0"], "MRI");
  for (const auto& pair : index["training"]) {
    EXPECT_TRUE(fs::exists(dir / "Task01" / pair["image"].get<std::string>()));
    const auto label =
        core::readVolumeFile(dir / "Task01" / pair["label"].get<std::string>(), progress);
    EXPECT_EQ(label->valueAt(3, 3, 3), 1.0);
  }
}

}  // namespace
}  // namespace delineate
