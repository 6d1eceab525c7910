// The de-identification batch: what is held back and why, bad inputs reported by name without
// stopping the batch, the re-identification map (owner-only, never in the output, consistent
// across runs), and NIfTI files written with blank text fields under a pseudonymous name.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <zlib.h>

#include <cstring>
#include <nlohmann/json.hpp>

#include "DeidTestSupport.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/deid/DeidBatch.h"
#include "core/deid/DeidentificationRecord.h"
#include "core/deid/NiftiDeidentifier.h"
#include "core/deid/ReidentificationMap.h"
#include "core/io/VolumeFileIO.h"

using namespace delineate::test::deid;
using namespace delineate::core::deid;
using delineate::test::TempDir;
using Status = DeidResult::Status;

namespace {

const DeidResult* resultFor(const DeidSummary& summary, const std::string& name) {
  for (const auto& r : summary.results) {
    if (r.input.filename() == name) {
      return &r;
    }
  }
  return nullptr;
}

Identity freshIdentity(Planted& planted) {
  Identity id;
  id.studyUid = planted.uid();
  id.seriesUid = planted.uid();
  id.sopUid = planted.uid();
  id.frameUid = planted.uid();
  return id;
}

void writeImage(const fs::path& path, Planted& planted, const std::string& modality,
                const std::string& burnedIn) {
  auto file = makeImage(freshIdentity(planted), planted, modality);
  if (burnedIn.empty()) {
    file->getDataset()->findAndDeleteElement(DCM_BurnedInAnnotation);
  } else {
    put(*file->getDataset(), DCM_BurnedInAnnotation, burnedIn);
  }
  ASSERT_TRUE(file->saveFile(path.c_str(), EXS_LittleEndianExplicit).good());
}

mode_t modeOf(const fs::path& p) {
  struct stat st {};
  EXPECT_EQ(::stat(p.c_str(), &st), 0) << p;
  return st.st_mode & 0777;
}

// A NIfTI-1 image (2x2x2 int16) whose text fields and one extension hold identifiers.
std::string niftiBytes() {
  std::string h(348, '\0');
  const auto i32 = [&](std::size_t at, std::int32_t v) { std::memcpy(&h[at], &v, 4); };
  const auto i16 = [&](std::size_t at, std::int16_t v) { std::memcpy(&h[at], &v, 2); };
  const auto f32 = [&](std::size_t at, float v) { std::memcpy(&h[at], &v, 4); };
  const auto text = [&](std::size_t at, const std::string& s) {
    std::memcpy(&h[at], s.data(), s.size());
  };
  i32(0, 348);
  text(4, "ORIGDTYPE");
  text(14, "ORIGDBNAME");
  i16(40, 3);
  i16(42, 2);
  i16(44, 2);
  i16(46, 2);
  i16(48, 1);
  i16(70, 4);   // datatype: int16
  i16(72, 16);  // bitpix
  f32(76, 1.0f);
  f32(80, 1.0f);
  f32(84, 1.0f);
  f32(88, 1.0f);
  f32(108, 384.0f);  // vox_offset: header + 4 + one 32-byte extension
  text(148, "ORIGDESCRIP Smith John 1971");
  text(228, "ORIGAUXFILE");
  text(328, "ORIGINTENT");
  i16(252, 1);  // qform_code
  f32(280, 1.0f);
  f32(300, 1.0f);
  f32(320, 1.0f);
  i16(254, 1);  // sform_code
  text(344, std::string("n+1\0", 4));
  std::string ext(4, '\0');
  ext[0] = 1;
  std::string block(32, '\0');
  const std::int32_t esize = 32, ecode = 6;
  std::memcpy(&block[0], &esize, 4);
  std::memcpy(&block[4], &ecode, 4);
  std::memcpy(&block[8], "ORIGEXTENSION", 13);
  std::string voxels;
  for (std::int16_t v = 1; v <= 8; ++v) {
    voxels.append(reinterpret_cast<const char*>(&v), 2);
  }
  return h + ext + block + voxels;
}

void writeGz(const fs::path& path, const std::string& bytes) {
  gzFile f = gzopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  gzwrite(f, bytes.data(), static_cast<unsigned>(bytes.size()));
  gzclose(f);
}

std::string readGz(const fs::path& path) {
  gzFile f = gzopen(path.c_str(), "rb");
  std::string out;
  char buf[4096];
  int n;
  while ((n = gzread(f, buf, sizeof buf)) > 0) {
    out.append(buf, static_cast<std::size_t>(n));
  }
  gzclose(f);
  return out;
}

}  // namespace

TEST(DeidBatch, ImagesThatMayShowTextInTheirPixelsAreHeldBack) {
  TempDir tmp;
  Planted planted;
  fs::create_directories(tmp / "in");
  writeImage(tmp / "in" / "burned.dcm", planted, "CT", "YES");
  writeImage(tmp / "in" / "us.dcm", planted, "US", "");
  writeImage(tmp / "in" / "mammo.dcm", planted, "MG", "");
  writeImage(tmp / "in" / "clean-us.dcm", planted, "US", "NO");
  writeImage(tmp / "in" / "ct.dcm", planted, "CT", "");
  ReidentificationMap map(tmp / "map.json");
  delineate::core::NullProgress progress;
  const DeidSummary summary = deidentifyBatch(tmp / "in", tmp / "out", {}, map, progress);

  for (const char* name : {"burned.dcm", "us.dcm", "mammo.dcm"}) {
    const DeidResult* r = resultFor(summary, name);
    ASSERT_TRUE(r) << name;
    EXPECT_EQ(r->status, Status::HeldBack) << name;
    EXPECT_NE(r->reason.find("Burned In Annotation"), std::string::npos) << r->reason;
  }
  EXPECT_EQ(resultFor(summary, "clean-us.dcm")->status, Status::Written);
  EXPECT_EQ(resultFor(summary, "ct.dcm")->status, Status::Written);
  EXPECT_EQ(dicomFilesUnder(tmp / "out").size(), 2u);
  EXPECT_FALSE(summary.anyFailed());
  const nlohmann::json json = summary.toJson();
  ASSERT_EQ(json["heldBack"].size(), 3u);
  EXPECT_NE(json["heldBack"][0]["input"].get<std::string>().find(".dcm"), std::string::npos);
  EXPECT_EQ(json["counts"]["written"], 2);
}

TEST(DeidBatch, BadInputsAreReportedByNameAndTheBatchGoesOn) {
  TempDir tmp;
  Planted planted;
  fs::create_directories(tmp / "in" / "sub");
  writeImage(tmp / "in" / "a.dcm", planted, "CT", "NO");
  writeImage(tmp / "in" / "sub" / "z.dcm", planted, "CT", "NO");
  // A truncated copy of a good file, a text file, an empty file and a hidden file.
  const std::string good = readBytes(tmp / "in" / "a.dcm");
  std::ofstream(tmp / "in" / "truncated.dcm", std::ios::binary)
      .write(good.data(), std::streamsize(good.size() - 20));
  std::ofstream(tmp / "in" / "notes.txt") << "not an image\n";
  std::ofstream(tmp / "in" / "empty.dcm");
  std::ofstream(tmp / "in" / ".DS_Store") << "x";
  ReidentificationMap map(tmp / "map.json");
  delineate::core::NullProgress progress;
  const DeidSummary summary = deidentifyBatch(tmp / "in", tmp / "out", {}, map, progress);

  EXPECT_EQ(summary.count(Status::Written), 2u);
  for (const char* name : {"truncated.dcm", "empty.dcm"}) {
    const DeidResult* r = resultFor(summary, name);
    ASSERT_TRUE(r) << name;
    EXPECT_EQ(r->status, Status::Failed) << name;
    EXPECT_FALSE(r->reason.empty()) << name;
  }
  // Files that are no image at all are listed, without failing the batch.
  EXPECT_EQ(resultFor(summary, "notes.txt")->status, Status::Skipped);
  EXPECT_EQ(resultFor(summary, "notes.txt")->reason, "not a DICOM or NIfTI file");
  EXPECT_EQ(resultFor(summary, ".DS_Store")->status, Status::Skipped);
  EXPECT_TRUE(summary.anyFailed());
  const std::string json = summary.toJson().dump();
  EXPECT_NE(json.find("truncated.dcm"), std::string::npos);
  EXPECT_NE(json.find("notes.txt"), std::string::npos);
  // The two images and the run's record: nothing half-written left behind.
  EXPECT_EQ(allFilesUnder(tmp / "out").size(), 3u);
  EXPECT_TRUE(fs::exists(tmp / "out" / "deidentification.json"));
}

TEST(DeidBatch, MapIsOwnerOnlyOutsideTheOutputAndGivesTheSameNamesNextRun) {
  TempDir tmp;
  Planted planted;
  fs::create_directories(tmp / "in");
  writeImage(tmp / "in" / "a.dcm", planted, "CT", "NO");
  const fs::path mapPath = tmp / "reid" / "map.json";
  std::vector<fs::path> first, second, other;
  {
    ReidentificationMap map(mapPath);
    delineate::core::NullProgress progress;
    deidentifyBatch(tmp / "in", tmp / "out1", {}, map, progress);
    first = dicomFilesUnder(tmp / "out1");
  }
  EXPECT_EQ(modeOf(mapPath), 0600u);
  EXPECT_EQ(modeOf(mapPath.parent_path()), 0700u);
  EXPECT_TRUE(allFilesUnder(tmp / "out1").size() == 2u) << "the image and the run's record";
  {
    ::chmod(mapPath.c_str(), 0644);  // widened by someone: tightened on open
    ReidentificationMap map(mapPath);
    EXPECT_EQ(modeOf(mapPath), 0600u);
    delineate::core::NullProgress progress;
    deidentifyBatch(tmp / "in", tmp / "out2", {}, map, progress);
    second = dicomFilesUnder(tmp / "out2");
  }
  {
    ReidentificationMap map(tmp / "another-map.json");
    delineate::core::NullProgress progress;
    deidentifyBatch(tmp / "in", tmp / "out3", {}, map, progress);
    other = dicomFilesUnder(tmp / "out3");
  }
  ASSERT_EQ(first.size(), 1u);
  ASSERT_EQ(second.size(), 1u);
  ASSERT_EQ(other.size(), 1u);
  EXPECT_EQ(fs::relative(first[0], tmp / "out1"), fs::relative(second[0], tmp / "out2"));
  EXPECT_NE(fs::relative(first[0], tmp / "out1"), fs::relative(other[0], tmp / "out3"));
  EXPECT_EQ(readBytes(first[0]), readBytes(second[0]));

  // A map that would land in the output is refused before anything is written.
  ReidentificationMap inside(tmp / "out4" / "map.json");
  delineate::core::NullProgress progress;
  EXPECT_THROW(deidentifyBatch(tmp / "in", tmp / "out4", {}, inside, progress),
               delineate::core::Error);
  EXPECT_FALSE(fs::exists(tmp / "out4" / "map.json"));
  // A damaged map is reported, never replaced by a new secret.
  std::ofstream(tmp / "broken.json") << "{not json";
  EXPECT_THROW(ReidentificationMap(tmp / "broken.json"), delineate::core::Error);
}

TEST(DeidBatch, CancelStopsTheBatchAndKeepsTheMap) {
  TempDir tmp;
  Planted planted;
  fs::create_directories(tmp / "in");
  writeImage(tmp / "in" / "a.dcm", planted, "CT", "NO");
  ReidentificationMap map(tmp / "map.json");
  delineate::core::CancelToken token;
  token.cancel();
  delineate::core::NullProgress progress(token);
  EXPECT_THROW(deidentifyBatch(tmp / "in", tmp / "out", {}, map, progress),
               delineate::core::CancelledError);
  EXPECT_TRUE(fs::exists(tmp / "map.json"));
  EXPECT_TRUE(dicomFilesUnder(tmp / "out").empty());
}

TEST(DeidBatch, NiftiIsWrittenWithBlankTextFieldsUnderAPseudonym) {
  TempDir tmp;
  fs::create_directories(tmp / "in");
  const std::string original = niftiBytes();
  writeGz(tmp / "in" / "Smith_John_1971_T1.nii.gz", original);
  std::ofstream(tmp / "in" / "Smith_John_plain.nii", std::ios::binary) << original;
  std::ofstream(tmp / "in" / "Smith_short.nii", std::ios::binary) << original.substr(0, 390);
  ReidentificationMap map(tmp / "map.json");
  delineate::core::NullProgress progress;
  const DeidSummary summary = deidentifyBatch(tmp / "in", tmp / "out", {}, map, progress);
  EXPECT_EQ(summary.count(Status::Written), 2u) << summary.toJson().dump(1);
  EXPECT_EQ(resultFor(summary, "Smith_short.nii")->status, Status::Failed);

  const DeidResult* gz = resultFor(summary, "Smith_John_1971_T1.nii.gz");
  ASSERT_TRUE(gz && gz->status == Status::Written);
  const std::string name = gz->output.filename().string();
  EXPECT_EQ(name.rfind("DLN-", 0), 0u);
  EXPECT_EQ(name.substr(name.size() - 7), ".nii.gz");
  EXPECT_EQ(map.originalFile(name).value_or(""), fs::weakly_canonical(gz->input).string());
  for (const auto& f : allFilesUnder(tmp / "out")) {
    EXPECT_EQ(f.filename().string().find("Smith"), std::string::npos) << f;
    const std::string raw = readBytes(f);
    if (f.filename() == "deidentification.json") {
      // The run's record: the profile and options, and what was written and held back.
      const nlohmann::json record = nlohmann::json::parse(raw);
      EXPECT_EQ(record["written"], 2);
      EXPECT_EQ(record["failed"], 1);
      EXPECT_EQ(record["method"], "Basic Application Confidentiality Profile");
      EXPECT_EQ(delineate::core::deid::deidentificationRecordFromJson(raw, "x"),
                "Basic Application Confidentiality Profile");
      continue;
    }
    EXPECT_EQ(raw.find("Smith"), std::string::npos) << f;  // gzip header names no file
    const std::string bytes = f.extension() == ".gz" ? readGz(f) : raw;
    ASSERT_EQ(bytes.size(), original.size()) << f;
    for (const char* id : {"ORIGDESCRIP", "ORIGAUXFILE", "ORIGINTENT", "ORIGEXTENSION",
                           "ORIGDBNAME", "ORIGDTYPE", "Smith"}) {
      EXPECT_EQ(bytes.find(id), std::string::npos) << f << " " << id;
    }
    EXPECT_EQ(bytes.substr(148, 80), std::string(80, '\0'));
    EXPECT_EQ(bytes[348], '\0');  // no extensions announced
    EXPECT_EQ(bytes.substr(352), std::string(32, '\0') + original.substr(384));  // voxels
    EXPECT_EQ(bytes.substr(0, 4), original.substr(0, 4));
  }
  // Still a readable image with the same voxels.
  const auto volume = delineate::core::readVolumeFile(gz->output, progress);
  ASSERT_TRUE(volume);
  EXPECT_EQ(volume->geometry().voxelCount(), 8u);
}

TEST(DeidBatch, ASecondRunAddsToTheFolderRecordAndOtherOptionsAreRefusedBeforeAnyWrite) {
  TempDir tmp;
  Planted planted;
  fs::create_directories(tmp / "in1");
  fs::create_directories(tmp / "in2");
  writeImage(tmp / "in1" / "a.dcm", planted, "CT", "NO");
  writeImage(tmp / "in2" / "b.dcm", planted, "CT", "NO");
  writeImage(tmp / "in2" / "c.dcm", planted, "CT", "NO");
  ReidentificationMap map(tmp / "map.json");
  delineate::core::NullProgress progress;
  const fs::path out = tmp / "out";
  deidentifyBatch(tmp / "in1", out, {}, map, progress);
  deidentifyBatch(tmp / "in2", out, {}, map, progress);
  const auto readRecord = [&] {
    return nlohmann::json::parse(readBytes(out / "deidentification.json"));
  };
  // Both runs are on the record: the first run's file is not left undescribed.
  nlohmann::json record = readRecord();
  EXPECT_EQ(record["written"], 3) << record.dump(1);
  ASSERT_EQ(record["runs"].size(), 2u) << record.dump(1);
  EXPECT_EQ(record["runs"][0]["written"], 1);
  EXPECT_EQ(record["runs"][1]["written"], 2);
  EXPECT_EQ(dicomFilesUnder(out).size(), 3u);

  // Other options would make the record say something false of the earlier files: refused,
  // naming the record, before anything is written.
  DeidOptions keepDates;
  keepDates.retainLongitudinalModifiedDates = true;
  fs::create_directories(tmp / "in3");
  writeImage(tmp / "in3" / "d.dcm", planted, "CT", "NO");
  try {
    deidentifyBatch(tmp / "in3", out, keepDates, map, progress);
    ADD_FAILURE() << "a run with other options was let into the folder";
  } catch (const delineate::core::Error& e) {
    EXPECT_NE(std::string(e.what()).find("deidentification.json"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("Retain Longitudinal"), std::string::npos) << e.what();
  }
  EXPECT_EQ(dicomFilesUnder(out).size(), 3u);
  EXPECT_EQ(readRecord(), record);

  // A file of that name that is no record is not overwritten either.
  fs::create_directories(tmp / "other");
  std::ofstream(tmp / "other" / "deidentification.json") << "{\"notes\": 1}";
  EXPECT_THROW(deidentifyBatch(tmp / "in3", tmp / "other", {}, map, progress),
               delineate::core::Error);
  EXPECT_EQ(readBytes(tmp / "other" / "deidentification.json"), "{\"notes\": 1}");
}
