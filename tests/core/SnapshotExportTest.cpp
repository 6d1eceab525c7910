// A dataset snapshot exported for training: the Medical Segmentation Decathlon and nnU-Net v2
// layouts (file names, dataset.json's fields, the snapshot's id in it), the labels' voxels as
// they were in the snapshot even after the dataset changed, a case without a label named, no
// scratch files left, a non-empty folder refused, and the CLI.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "DicomTestSupport.h"
#include "RunCommand.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/dataset/DatasetStore.h"
#include "core/dataset/SnapshotExport.h"
#include "core/io/LabelMapFileIO.h"
#include "core/io/NiftiWriter.h"
#include "core/jobs/ProgressSink.h"

namespace delineate::core {
namespace {

namespace fs = std::filesystem;

ImageGeometry exportGrid() {
  ImageGeometry g;
  g.size = {16, 16, 8};
  g.spacing = {1, 1, 2};
  return g;
}

LabelMap twoOrgans(std::size_t side) {
  Segment liver = defaultSegment(1);
  liver.name = "liver";
  Segment spleen = defaultSegment(2);
  spleen.name = "spleen";
  LabelMap m("labels", exportGrid(), {liver, spleen});
  for (std::size_t k = 0; k < 8; ++k) {
    for (std::size_t j = 0; j < 16; ++j) {
      for (std::size_t i = 0; i < 16; ++i) {
        const std::uint16_t v = i < side && j < side && k < 4 ? 1 : (i >= 12 && j >= 12) ? 2 : 0;
        m.mutableData()[m.index(i, j, k)] = v;
      }
    }
  }
  return m;
}

// Two cases (NAME.nii.gz with NAME_labels.nii.gz beside it) and an image without a label.
void writeDataset(const fs::path& data) {
  fs::create_directories(data);
  NullProgress quiet;
  VolumeInfo info;
  info.modality = "CT";
  info.patientName = "Doe^Jane";
  for (int c = 0; c < 3; ++c) {
    const auto image = test::makeVolume(
        ScalarType::Int16, exportGrid(), info,
        [c](std::size_t i, std::size_t j, std::size_t k) { return double(i + 3 * j + 7 * k + c); });
    writeNiftiFile(*image, data / ("case" + std::to_string(c) + ".nii.gz"), quiet);
    if (c < 2) {
      writeLabelMapFiles(twoOrgans(6 + 2 * std::size_t(c)),
                         data / ("case" + std::to_string(c) + "_labels.nii.gz"));
    }
  }
}

nlohmann::json readJson(const fs::path& file) {
  std::ifstream in(file);
  return nlohmann::json::parse(in);
}

std::vector<std::string> filesIn(const fs::path& folder) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(folder)) {
    out.push_back(e.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(SnapshotExport, DecathlonAndNnUnetLayoutsOfTheSnapshotNotOfTheFolderNow) {
  test::TempDir dir;
  const fs::path data = dir / "data";
  writeDataset(data);
  NullProgress quiet;
  const dataset::DatasetStore store(data);
  const std::string id = store.snapshot("v1", quiet).id;
  // The dataset changes after the snapshot: the export is of the snapshot.
  writeLabelMapFiles(twoOrgans(3), data / "case0_labels.nii.gz");

  const auto msd = dataset::exportSnapshot(store, id.substr(0, 8), dir / "msd",
                                           upload::DatasetLayout::Msd, "Organs", "", quiet);
  EXPECT_EQ(msd.snapshot, id);
  EXPECT_EQ(msd.cases, 2);
  ASSERT_EQ(msd.skipped.size(), 1u);
  EXPECT_EQ(msd.skipped[0].rfind("case2.nii.gz: ", 0), 0u) << msd.skipped[0];
  EXPECT_FALSE(fs::exists(dir / "msd/.snapshot-files"));
  const nlohmann::json m = readJson(dir / "msd/dataset.json");
  EXPECT_EQ(m["name"], "Organs");
  EXPECT_EQ(m["dataset_snapshot"], id);
  EXPECT_EQ(m["numTraining"], 2);
  EXPECT_EQ(m["modality"]["0"], "unknown") << "NIfTI files carry no modality";
  EXPECT_EQ(m["labels"], (nlohmann::json{{"0", "background"}, {"1", "liver"}, {"2", "spleen"}}));
  ASSERT_EQ(m["training"].size(), 2u);
  std::size_t liverVoxels = 0;
  for (const auto& pair : m["training"]) {
    const fs::path label = dir / "msd" / pair["label"].get<std::string>();
    const fs::path image = dir / "msd" / pair["image"].get<std::string>();
    ASSERT_TRUE(fs::exists(image)) << image;
    const LabelMap l = readLabelMapFiles(label);
    for (std::size_t x = 0; x < l.voxelCount(); ++x) {
      liverVoxels += l.data()[x] == 1;
    }
  }
  EXPECT_EQ(liverVoxels, (6u * 6 + 8u * 8) * 4) << "the labels as they were in the snapshot";

  const auto nn = dataset::exportSnapshot(store, id, dir / "nnunet", upload::DatasetLayout::NnUnet,
                                          "", "CT", quiet);
  EXPECT_EQ(nn.cases, 2);
  const nlohmann::json n = readJson(dir / "nnunet/dataset.json");
  EXPECT_EQ(n["channel_names"], (nlohmann::json{{"0", "CT"}}));
  EXPECT_EQ(n["labels"], (nlohmann::json{{"background", 0}, {"liver", 1}, {"spleen", 2}}));
  EXPECT_EQ(n["numTraining"], 2);
  EXPECT_EQ(n["file_ending"], ".nii.gz");
  EXPECT_EQ(n["dataset_snapshot"], id);
  EXPECT_FALSE(n.contains("training"));
  const auto images = filesIn(dir / "nnunet/imagesTr");
  const auto labels = filesIn(dir / "nnunet/labelsTr");
  ASSERT_EQ(images.size(), 2u);
  ASSERT_EQ(labels.size(), 2u);
  for (std::size_t c = 0; c < 2; ++c) {
    EXPECT_EQ(images[c], labels[c].substr(0, labels[c].size() - 7) + "_0000.nii.gz");
  }

  try {
    dataset::exportSnapshot(store, id, dir / "msd", upload::DatasetLayout::Msd, "", "", quiet);
    FAIL() << "exported into a folder that holds a dataset";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("not empty"), std::string::npos) << e.what();
  }
}

#ifdef DELINEATE_CLI
TEST(SnapshotExport, Cli) {
  test::TempDir dir;
  const fs::path data = dir / "data";
  writeDataset(data);
  const std::string cli = DELINEATE_CLI;
  std::string id, printed;
  ASSERT_EQ(test::runCommand(cli + " dataset snapshot " + data.string() + " 2>/dev/null", &id), 0);
  id = id.substr(0, 64);
  ASSERT_EQ(test::runCommand(cli + " dataset export " + id.substr(0, 6) + " " +
                                 (dir / "out").string() + " --root " + data.string() +
                                 " --format nnunet --name Organs --modality MRI 2>&1",
                             &printed),
            0)
      << printed;
  EXPECT_NE(printed.find("2 cases of snapshot " + id.substr(0, 12)), std::string::npos) << printed;
  EXPECT_NE(printed.find("skipped case2.nii.gz"), std::string::npos) << printed;
  EXPECT_EQ(readJson(dir / "out/dataset.json")["dataset_snapshot"], id);
  EXPECT_EQ(readJson(dir / "out/dataset.json")["channel_names"]["0"], "MRI");
  EXPECT_EQ(test::runCommand(cli + " dataset export " + id + " " + (dir / "x").string() +
                             " --root " + data.string() + " --format coco 2>/dev/null"),
            2);
}
#endif

}  // namespace
}  // namespace delineate::core
