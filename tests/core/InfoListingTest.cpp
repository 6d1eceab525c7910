// `delineate-cli info` lists a DICOM folder from the headers alone: the same identity, grid,
// frames, colour and voxel type as decoding gives, without reading a pixel (so a file whose
// pixel data is damaged still lists, and only --voxels reports the damage).
#include <gtest/gtest.h>

#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcpixel.h>
#include <dcmtk/dcmdata/dcpixseq.h>
#include <dcmtk/dcmdata/dcpxitem.h>
#include <dcmtk/dcmdata/dcuid.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "RunCommand.h"
#include "SharedSample.h"
#include "TempDir.h"

namespace fs = std::filesystem;
using delineate::test::runCommand;
using nlohmann::json;

namespace {

json info(const fs::path& path, bool voxels) {
  std::string out;
  const int rc = runCommand(std::string(DELINEATE_CLI) + " info " + (voxels ? "--voxels " : "") +
                                "'" + path.string() + "' 2>/dev/null",
                            &out);
  EXPECT_EQ(rc, 0) << out;
  return json::parse(out.substr(out.find('{')));
}

}  // namespace

TEST(InfoListing, HeadersGiveWhatDecodingGivesButTheValueRange) {
  const fs::path sample = delineate::test::sharedSample();
  for (const char* folder : {"abdomen-ct/dicom", "brain-mr/dicom", "ultrasound"}) {
    const json headers = info(sample / folder, false);
    const json decoded = info(sample / folder, true);
    ASSERT_EQ(headers["series"].size(), decoded["series"].size()) << folder;
    for (std::size_t i = 0; i < headers["series"].size(); ++i) {
      json h = headers["series"][i];
      json d = decoded["series"][i];
      EXPECT_EQ(h["voxelsRead"], false);
      EXPECT_TRUE(h["valueRange"].is_null());
      EXPECT_EQ(d["voxelsRead"], true);
      EXPECT_EQ(d["valueRange"].size(), 2u);
      for (const char* key : {"voxelsRead", "valueRange"}) {
        h.erase(key);
        d.erase(key);
      }
      EXPECT_EQ(h, d) << folder << ": the header listing differs from the decoded one";
    }
  }
  // The colour cine lists as a colour loop of 20 frames over time.
  const json us = info(sample / "ultrasound", false)["series"][0];
  EXPECT_EQ(us["colour"], "uint8");
  EXPECT_EQ(us["frames"]["count"], 20);
  EXPECT_EQ(us["frames"]["dimension"], "time");
}

TEST(InfoListing, DamagedPixelDataStillListsAndOnlyDecodingReportsIt) {
  delineate::test::TempDir dir;
  const fs::path file = dir.path() / "damaged-jpeg.dcm";
  DcmFileFormat ff;
  DcmDataset* ds = ff.getDataset();
  ds->putAndInsertString(DCM_SOPClassUID, UID_SecondaryCaptureImageStorage);
  ds->putAndInsertString(DCM_SOPInstanceUID, "1.2.3.4.5.6.7.9");
  ds->putAndInsertString(DCM_StudyInstanceUID, "1.2.3.4.5");
  ds->putAndInsertString(DCM_SeriesInstanceUID, "1.2.3.4.5.7");
  ds->putAndInsertString(DCM_Modality, "OT");
  ds->putAndInsertUint16(DCM_Rows, 16);
  ds->putAndInsertUint16(DCM_Columns, 24);
  ds->putAndInsertUint16(DCM_SamplesPerPixel, 1);
  ds->putAndInsertString(DCM_PhotometricInterpretation, "MONOCHROME2");
  ds->putAndInsertUint16(DCM_BitsAllocated, 8);
  ds->putAndInsertUint16(DCM_BitsStored, 8);
  ds->putAndInsertUint16(DCM_HighBit, 7);
  ds->putAndInsertUint16(DCM_PixelRepresentation, 0);
  auto* sequence = new DcmPixelSequence(DcmTag(DCM_PixelData, EVR_OB));
  sequence->insert(new DcmPixelItem(DcmTag(DCM_Item, EVR_OB)));  // empty offset table
  auto* fragment = new DcmPixelItem(DcmTag(DCM_Item, EVR_OB));
  Uint8 junk[64] = {0xff, 0xd8, 0x12, 0x34};  // a JPEG start marker, then nothing of sense
  fragment->putUint8Array(junk, sizeof junk);
  sequence->insert(fragment);
  auto* pixels = new DcmPixelData(DCM_PixelData);
  pixels->putOriginalRepresentation(EXS_JPEGProcess1, nullptr, sequence);
  ds->insert(pixels);
  ASSERT_TRUE(ff.saveFile(file.c_str(), EXS_JPEGProcess1).good());

  const json listed = info(dir.path(), false)["series"][0];
  EXPECT_FALSE(listed.contains("error")) << listed.dump();
  EXPECT_EQ(listed["dimensions"], json({24, 16, 1}));
  EXPECT_EQ(listed["scalarType"], "uint8");

  const json decoded = info(dir.path(), true)["series"][0];
  ASSERT_TRUE(decoded.contains("error")) << decoded.dump();
  EXPECT_NE(decoded["error"].get<std::string>().find(file.string()), std::string::npos)
      << decoded["error"];
}
