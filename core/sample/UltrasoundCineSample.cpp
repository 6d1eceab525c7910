#include "core/sample/UltrasoundCineSample.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcuid.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "core/Error.h"
#include "core/io/DicomCondition.h"
#include "core/sample/SampleIdentity.h"
#include "core/sample/SampleRandom.h"

namespace delineate::core::sample {

namespace {

constexpr int kCineRows = 160;
constexpr int kCineColumns = 192;

// One RGB frame: B-mode speckle in a sector from the probe at the top centre, a vessel whose
// radius pulses, and Doppler colour (red towards the probe, blue away) in a box over it.
void drawFrame(std::uint64_t seed, int frame, unsigned char* rgb) {
  const double phase = 2 * std::numbers::pi * frame / kCineFrames;
  const double radius = 18 + 5 * std::sin(phase);
  const double velocity = std::cos(phase);  // the wall's speed, in units of its peak
  const double cx = kCineColumns / 2.0, cy = 92;
  for (int y = 0; y < kCineRows; ++y) {
    for (int x = 0; x < kCineColumns; ++x) {
      unsigned char* p = rgb + 3 * (y * kCineColumns + x);
      const double dx = x - kCineColumns / 2.0, dy = y + 8.0;  // probe just above the image
      const double angle = std::atan2(dx, dy);
      const double depth = std::hypot(dx, dy);
      if (std::abs(angle) > 0.62 || depth > 170) {
        p[0] = p[1] = p[2] = 0;
        continue;
      }
      const double r = std::hypot(x - cx, y - cy);
      const double speckle = 0.6 + 0.4 * hashUniform(hashCombine(seed, x, y, frame % 4));
      double grey = 120 * speckle * std::exp(-depth / 260.0);
      if (r < radius) {
        grey *= 0.15;  // blood is dark
      } else if (r < radius + 3) {
        grey = std::min(255.0, grey * 2.2);  // the bright wall
      }
      const auto g = static_cast<unsigned char>(std::clamp(grey, 0.0, 255.0));
      p[0] = p[1] = p[2] = g;
      const bool inBox = std::abs(x - cx) < 34 && std::abs(y - cy) < 34;
      if (inBox && r < radius && std::abs(velocity) > 0.2) {
        // Flow near the wall moves with it; the centre of the lumen is faster.
        const double speed = velocity * (0.5 + 0.5 * (1 - r / radius));
        const auto level =
            static_cast<unsigned char>(std::clamp(90 + 160 * std::abs(speed), 0.0, 255.0));
        p[0] = speed > 0 ? level : 20;
        p[1] = static_cast<unsigned char>(level / 5);
        p[2] = speed > 0 ? 20 : level;
      }
    }
  }
}

void put(DcmDataset& ds, const DcmTagKey& tag, const std::string& value, const std::string& where) {
  checkDicom(ds.putAndInsertString(tag, value.c_str()), where, "writing " + DcmTag(tag).toString());
}

}  // namespace

void writeUltrasoundCine(const std::filesystem::path& file, std::uint64_t seed) {
  SampleSeriesIdentity id;
  id.patientName = "Sample^Echo";
  id.patientId = "SAMPLE-US-1";
  id.birthDate = "19710305";
  id.sex = "M";
  id.studyKey = "carotid-2026";
  id.studyDate = "20260312";
  id.studyDescription = "US CAROTID";
  id.accession = "SAMPLE-US-2026";
  id.seriesKey = "cine";
  id.seriesDescription = "Carotid colour Doppler cine";
  id.modality = "US";
  const VolumeInfo info = sampleInfo(seed, id);
  const std::string where = file.string();

  DcmFileFormat format;
  DcmDataset& ds = *format.getDataset();
  const std::string sop = deterministicUid(seed, "SAMPLE-US-1/carotid-2026/cine/1");
  put(ds, DCM_SOPClassUID, UID_UltrasoundMultiframeImageStorage, where);
  put(ds, DCM_SOPInstanceUID, sop, where);
  put(ds, DCM_PatientName, info.patientName, where);
  put(ds, DCM_PatientID, info.patientId, where);
  put(ds, DCM_PatientBirthDate, info.patientBirthDate, where);
  put(ds, DCM_PatientSex, info.patientSex, where);
  put(ds, DCM_StudyInstanceUID, info.studyInstanceUid, where);
  put(ds, DCM_StudyDate, info.studyDate, where);
  put(ds, DCM_StudyTime, "101500", where);
  put(ds, DCM_StudyDescription, info.studyDescription, where);
  put(ds, DCM_AccessionNumber, info.accessionNumber, where);
  put(ds, DCM_StudyID, "1", where);
  put(ds, DCM_ReferringPhysicianName, "", where);
  put(ds, DCM_SeriesInstanceUID, info.seriesInstanceUid, where);
  put(ds, DCM_SeriesNumber, "1", where);
  put(ds, DCM_SeriesDescription, info.seriesDescription, where);
  put(ds, DCM_Modality, "US", where);
  put(ds, DCM_InstanceNumber, "1", where);
  put(ds, DCM_Manufacturer, "Delineate sample", where);
  put(ds, DCM_BurnedInAnnotation, "NO", where);
  put(ds, DCM_ImageType, "ORIGINAL\\PRIMARY", where);
  put(ds, DCM_SamplesPerPixel, "3", where);
  put(ds, DCM_PhotometricInterpretation, "RGB", where);
  put(ds, DCM_PlanarConfiguration, "0", where);
  put(ds, DCM_NumberOfFrames, std::to_string(kCineFrames), where);
  put(ds, DCM_FrameTime, "40", where);
  checkDicom(ds.putAndInsertTagKey(DCM_FrameIncrementPointer, DCM_FrameTime), where,
             "writing FrameIncrementPointer");
  {
    // One calibrated B-mode region over the whole image: 0.3 mm pixels.
    DcmItem* region = nullptr;
    checkDicom(ds.findOrCreateSequenceItem(DCM_SequenceOfUltrasoundRegions, region, -2), where,
               "writing the ultrasound region");
    checkDicom(region->putAndInsertUint32(DCM_RegionLocationMinX0, 0), where, "region");
    checkDicom(region->putAndInsertUint32(DCM_RegionLocationMinY0, 0), where, "region");
    checkDicom(region->putAndInsertUint32(DCM_RegionLocationMaxX1, kCineColumns - 1), where,
               "region");
    checkDicom(region->putAndInsertUint32(DCM_RegionLocationMaxY1, kCineRows - 1), where, "region");
    checkDicom(region->putAndInsertUint16(DCM_RegionSpatialFormat, 1), where, "region");
    checkDicom(region->putAndInsertUint16(DCM_RegionDataType, 1), where, "region");
    checkDicom(region->putAndInsertUint16(DCM_PhysicalUnitsXDirection, 3), where, "region");
    checkDicom(region->putAndInsertUint16(DCM_PhysicalUnitsYDirection, 3), where, "region");
    checkDicom(region->putAndInsertFloat64(DCM_PhysicalDeltaX, 0.03), where, "region");
    checkDicom(region->putAndInsertFloat64(DCM_PhysicalDeltaY, 0.03), where, "region");
  }
  put(ds, DCM_Rows, std::to_string(kCineRows), where);
  put(ds, DCM_Columns, std::to_string(kCineColumns), where);
  put(ds, DCM_BitsAllocated, "8", where);
  put(ds, DCM_BitsStored, "8", where);
  put(ds, DCM_HighBit, "7", where);
  put(ds, DCM_PixelRepresentation, "0", where);
  std::vector<unsigned char> pixels(
      static_cast<std::size_t>(3 * kCineRows * kCineColumns * kCineFrames));
  for (int f = 0; f < kCineFrames; ++f) {
    drawFrame(seed, f, pixels.data() + static_cast<std::size_t>(3 * kCineRows * kCineColumns * f));
  }
  checkDicom(ds.putAndInsertUint8Array(DCM_PixelData, pixels.data(), pixels.size()), where,
             "writing PixelData");
  std::error_code ec;
  std::filesystem::create_directories(file.parent_path(), ec);
  checkDicom(format.saveFile(file.c_str(), EXS_LittleEndianExplicit), where, "writing the file");
}

}  // namespace delineate::core::sample
