// What may leave the workstation: the hold-back rule on a loaded volume decides as it does on a
// DICOM file, the loader records Burned In Annotation over all files of a series, a server's
// de-identification setting refuses an image that may show identifying text (naming it and the
// reason) and lets it go when off, and a dataset case with such an image is not sendable.
#include <gtest/gtest.h>

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcuid.h>

#include <optional>
#include <string>

#include "DicomTestSupport.h"
#include "TempDir.h"
#include "core/deid/HeldBackError.h"
#include "core/deid/HoldBackPolicy.h"
#include "core/deid/OutboundPolicy.h"
#include "core/upload/CasePreparation.h"

using namespace delineate;
using core::deid::holdBackReason;
using core::deid::OutboundPolicy;

namespace {

namespace fs = std::filesystem;

core::VolumeInfo dicomInfo(const std::string& modality, const std::string& burnedIn,
                           const std::string& sopClass = UID_CTImageStorage) {
  core::VolumeInfo info;
  info.modality = modality;
  info.sopClassUid = sopClass;
  info.burnedInAnnotation = burnedIn;
  info.sourcePath = "/data/incoming/series-7";
  return info;
}

// The file rule's answer for an image with these attributes (pixels present).
std::optional<std::string> fileRule(const std::string& modality, const std::string& burnedIn,
                                    const std::string& sopClass) {
  DcmDataset ds;
  ds.putAndInsertString(DCM_SOPClassUID, sopClass.c_str());
  ds.putAndInsertString(DCM_Modality, modality.c_str());
  if (!burnedIn.empty()) {
    ds.putAndInsertString(DCM_BurnedInAnnotation, burnedIn.c_str());
  }
  const Uint16 pixels[4] = {1, 2, 3, 4};
  ds.putAndInsertUint16Array(DCM_PixelData, pixels, 4);
  return holdBackReason(ds);
}

// Sets (or, for "", removes) Burned In Annotation in one written file.
void setBurnedIn(const fs::path& file, const std::string& value) {
  DcmFileFormat f;
  ASSERT_TRUE(f.loadFile(file.c_str()).good()) << file;
  if (value.empty()) {
    f.getDataset()->findAndDeleteElement(DCM_BurnedInAnnotation);
  } else {
    ASSERT_TRUE(f.getDataset()->putAndInsertString(DCM_BurnedInAnnotation, value.c_str()).good());
  }
  ASSERT_TRUE(f.saveFile(file.c_str(), EXS_LittleEndianExplicit).good()) << file;
}

}  // namespace

TEST(OutboundPolicy, TheVolumeRuleDecidesAsTheFileRule) {
  struct Case {
    const char* modality;
    const char* burnedIn;
    const char* sopClass;
    bool held;
  };
  const Case cases[] = {
      {"CT", "YES", UID_CTImageStorage, true},
      {"CT", "NO", UID_CTImageStorage, false},
      {"CT", "", UID_CTImageStorage, false},
      {"MR", "YES", UID_MRImageStorage, true},
      {"US", "", UID_UltrasoundImageStorage, true},
      {"US", "NO", UID_UltrasoundImageStorage, false},
      {"MG", "", UID_DigitalMammographyXRayImageStorageForPresentation, true},
      {"MG", "NO", UID_DigitalMammographyXRayImageStorageForPresentation, false},
      {"DX", "", UID_DigitalXRayImageStorageForPresentation, true},
      {"OT", "", UID_SecondaryCaptureImageStorage, true},
      {"CT", "", UID_SecondaryCaptureImageStorage, true},
      {"XC", "", UID_VLPhotographicImageStorage, true},
      {"CT", "yes ", UID_CTImageStorage, true},
  };
  for (const Case& c : cases) {
    const auto volume = holdBackReason(dicomInfo(c.modality, c.burnedIn, c.sopClass));
    const auto file = fileRule(c.modality, c.burnedIn, c.sopClass);
    EXPECT_EQ(volume.has_value(), c.held) << c.modality << " '" << c.burnedIn << "'";
    EXPECT_EQ(volume, file) << c.modality << " '" << c.burnedIn << "': the same reason as a file";
  }
  EXPECT_NE(holdBackReason(dicomInfo("CT", "YES"))->find("Burned In Annotation is YES"),
            std::string::npos);
}

TEST(OutboundPolicy, AVolumeNotReadFromDicomIsNeverHeldBack) {
  core::VolumeInfo nifti;  // what the NIfTI reader fills: modality OT, a path
  nifti.modality = "OT";
  nifti.sourcePath = "/data/us.nii.gz";
  EXPECT_EQ(holdBackReason(nifti), std::nullopt);
}

TEST(OutboundPolicy, TheLoaderRecordsBurnedInAnnotationOverTheWholeSeries) {
  test::TempDir dir;
  const auto files = test::writeSeries(*test::makeCt(), dir / "ct",
                                       core::DicomTransferSyntax::ExplicitLittleEndian,
                                       {{"BurnedInAnnotation", "NO"}});
  ASSERT_GE(files.size(), 3u);
  EXPECT_EQ(test::loadFolder(dir / "ct")->info().burnedInAnnotation, "NO");

  setBurnedIn(files[1], "");
  EXPECT_EQ(test::loadFolder(dir / "ct")->info().burnedInAnnotation, "")
      << "one file that does not say: not known to be free of text";

  setBurnedIn(files[2], "YES");
  const auto loaded = test::loadFolder(dir / "ct");
  EXPECT_EQ(loaded->info().burnedInAnnotation, "YES") << "one file with text: the volume has";
  EXPECT_EQ(loaded->info().sopClassUid, UID_CTImageStorage);
  EXPECT_TRUE(holdBackReason(loaded->info()).has_value());
}

TEST(OutboundPolicy, ABurnedInImageIsRefusedNamingItAndItsReasonUnlessTheServerIsTrusted) {
  test::TempDir dir;
  test::writeSeries(*test::makeCt(), dir / "burned",
                    core::DicomTransferSyntax::ExplicitLittleEndian,
                    {{"BurnedInAnnotation", "YES"}});
  const auto image = test::loadFolder(dir / "burned");

  const OutboundPolicy on;
  ASSERT_TRUE(on.deidentify) << "de-identification is on unless a server is trusted";
  const auto refusal = core::deid::outboundRefusal(*image, on);
  ASSERT_TRUE(refusal.has_value());
  EXPECT_NE(refusal->find((dir / "burned").string()), std::string::npos) << *refusal;
  EXPECT_NE(refusal->find("Burned In Annotation is YES"), std::string::npos) << *refusal;
  try {
    core::deid::requireSendable(*image, on, "http://gpu-box:8000");
    ADD_FAILURE() << "a burned-in image must not be sendable";
  } catch (const core::deid::HeldBackError& e) {
    EXPECT_EQ(e.where(), "http://gpu-box:8000");
    EXPECT_NE(e.detail().find("not sent"), std::string::npos) << e.what();
  }

  OutboundPolicy trusted;
  trusted.deidentify = false;
  EXPECT_EQ(core::deid::outboundRefusal(*image, trusted), std::nullopt);
  EXPECT_NO_THROW(core::deid::requireSendable(*image, trusted, "http://pacs-ai.local"));
  EXPECT_NO_THROW(core::deid::requireSendable(*test::makeCt(), on, "http://gpu-box:8000"))
      << "an image made in memory has no DICOM header to hold it back";
}

TEST(OutboundPolicy, ADatasetCaseWithABurnedInImageIsNotSendable) {
  test::TempDir dir;
  test::writeSeries(*test::makeCt(), dir / "burned",
                    core::DicomTransferSyntax::ExplicitLittleEndian,
                    {{"BurnedInAnnotation", "YES"}});
  core::NullProgress progress;
  const core::upload::DatasetCase picked{dir / "burned", {}};
  const auto held = core::upload::prepareCase(picked, {}, progress);
  EXPECT_FALSE(held.sendable());
  ASSERT_EQ(held.findings.size(), 1u);
  EXPECT_EQ(held.findings[0].severity, core::upload::LintFinding::Severity::Error);
  EXPECT_NE(held.findings[0].message.find((dir / "burned").string()), std::string::npos)
      << held.findings[0].message;
  EXPECT_NE(held.findings[0].message.find("Burned In Annotation is YES"), std::string::npos)
      << held.findings[0].message;

  core::upload::PrepareOptions trusted;
  trusted.outbound.deidentify = false;
  const auto sent = core::upload::prepareCase(picked, trusted, progress);
  EXPECT_TRUE(sent.sendable());
  EXPECT_TRUE(sent.image->info().patientName.empty()) << "identity is stripped either way";
}
