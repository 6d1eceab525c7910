#include "MammoTestStudy.h"

#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcuid.h>

#include <functional>
#include <vector>

#include "core/io/DicomSeriesWriter.h"
#include "core/jobs/ProgressSink.h"
#include "core/sample/SampleCase.h"
#include "core/sample/SampleVolumes.h"
#include "core/sample/SampleWriter.h"

namespace delineate::test {

int markerRow(const std::string& view) {
  return view == "CC" ? 110 : 270;
}

std::filesystem::path writeTestMammo(const std::filesystem::path& folder, const TestMammo& m) {
  core::ImageGeometry g;
  g.size = {kMammoColumns, kMammoRows, 1};
  g.spacing = {kMammoSpacing, kMammoSpacing, 1.0};
  const bool storedLeft = (m.laterality == "L") != m.swapped;
  std::vector<float> v(static_cast<std::size_t>(kMammoColumns * kMammoRows), kBackground);
  const int top = markerRow(m.view);
  for (int r = 0; r < kMammoRows; ++r) {
    for (int c = 0; c < kMammoColumns; ++c) {
      const int depth = storedLeft ? c : kMammoColumns - 1 - c;
      const double dy = (r - kMammoRows / 2.0) / (kMammoRows * 0.48);
      const double dx = depth / 220.0;
      float value = dx * dx + dy * dy < 1.0 ? kTissue : kBackground;
      if (depth >= kMarkerDepth && depth < kMarkerDepth + 20 && r >= top && r < top + 20) {
        value = kMarker;
      }
      v[static_cast<std::size_t>(r * kMammoColumns + c)] = m.monochrome1 ? 4095.0f - value : value;
    }
  }
  core::VolumeInfo info;
  info.modality = "MG";
  info.patientName = "TEST^MAMMO";
  info.patientId = "MAMMO-TEST";
  info.studyInstanceUid = "1.2.826.0.1.3680043.10.1234." +
                          std::to_string(std::hash<std::string>{}(m.studyKey) % 100000);
  info.studyDate = m.studyDate;
  info.seriesInstanceUid =
      info.studyInstanceUid + "." +
      std::to_string(std::hash<std::string>{}(m.laterality + m.view + m.extra) % 100000);
  info.seriesDescription = m.laterality + " " + m.view;
  info.laterality = m.laterality;
  info.viewPosition = m.view;
  info.photometric = m.monochrome1 ? "MONOCHROME1" : "MONOCHROME2";
  info.windows = {{"Default", m.monochrome1 ? 4095 - kWindowCenter : kWindowCenter, kWindowWidth}};
  const auto volume = core::sample::uint16Volume(g, v, info);
  core::DicomWriteOptions options;
  options.filePrefix = m.studyKey + "_" + m.laterality + m.view + m.extra;
  options.bitsStored = 12;
  options.attributes = {{"ImageLaterality", m.laterality},
                        {"ViewPosition", m.view},
                        {"PresentationIntentType", "FOR PRESENTATION"},
                        {"ImagerPixelSpacing", "0.2\\0.2"}};
  std::filesystem::create_directories(folder);
  core::NullProgress quiet;
  return core::writeDicomSeries(*volume, folder, options, quiet).front();
}

void writeTestStudy(const std::filesystem::path& folder, const std::string& studyKey,
                    const std::string& date) {
  for (const char* l : {"R", "L"}) {
    for (const char* view : {"CC", "MLO"}) {
      TestMammo m;
      m.laterality = l;
      m.view = view;
      m.studyKey = studyKey;
      m.studyDate = date;
      writeTestMammo(folder, m);
    }
  }
}

int tomoMarkerRow(int frame) {
  return 20 + 30 * frame;
}

std::filesystem::path writeTestTomo(const std::filesystem::path& folder, const TestMammo& m,
                                    int frames) {
  std::filesystem::create_directories(folder);
  const bool storedLeft = (m.laterality == "L") != m.swapped;
  DcmFileFormat ff;
  DcmDataset* ds = ff.getDataset();
  // The current study keeps the UIDs it always had; another study key gets its own.
  const std::string study =
      std::string("1.2.826.0.1.3680043.10.1234.77") +
      (m.studyKey == "current" ? "" : ".8" + std::to_string(m.studyKey.size()));
  const std::string series =
      study + (m.laterality == "R" ? ".1" : ".2") + (m.view == "CC" ? "1" : "2");
  ds->putAndInsertString(DCM_SOPClassUID, UID_BreastTomosynthesisImageStorage);
  ds->putAndInsertString(DCM_SOPInstanceUID, (series + ".1").c_str());
  ds->putAndInsertString(DCM_StudyInstanceUID, study.c_str());
  ds->putAndInsertString(DCM_SeriesInstanceUID, series.c_str());
  ds->putAndInsertString(DCM_FrameOfReferenceUID, (series + ".9").c_str());
  ds->putAndInsertString(DCM_Modality, "MG");
  ds->putAndInsertString(DCM_PatientName, "TEST^TOMO");
  ds->putAndInsertString(DCM_PatientID, "TOMO-TEST");
  ds->putAndInsertString(DCM_StudyDate, m.studyDate.c_str());
  ds->putAndInsertString(DCM_ImageLaterality, m.laterality.c_str());
  ds->putAndInsertString(DCM_ViewPosition, m.view.c_str());
  ds->putAndInsertString(DCM_PresentationIntentType, "FOR PRESENTATION");
  ds->putAndInsertUint16(DCM_Rows, kMammoRows);
  ds->putAndInsertUint16(DCM_Columns, kMammoColumns);
  ds->putAndInsertString(DCM_NumberOfFrames, std::to_string(frames).c_str());
  ds->putAndInsertUint16(DCM_SamplesPerPixel, 1);
  ds->putAndInsertString(DCM_PhotometricInterpretation, "MONOCHROME2");
  ds->putAndInsertUint16(DCM_BitsAllocated, 16);
  ds->putAndInsertUint16(DCM_BitsStored, 12);
  ds->putAndInsertUint16(DCM_HighBit, 11);
  ds->putAndInsertUint16(DCM_PixelRepresentation, 0);
  DcmItem* shared = nullptr;
  ds->findOrCreateSequenceItem(DCM_SharedFunctionalGroupsSequence, shared, 0);
  DcmItem* measures = nullptr;
  shared->findOrCreateSequenceItem(DCM_PixelMeasuresSequence, measures, 0);
  measures->putAndInsertString(DCM_PixelSpacing, "0.2\\0.2");
  measures->putAndInsertString(DCM_SliceThickness, "1");
  DcmItem* plane = nullptr;
  shared->findOrCreateSequenceItem(DCM_PlaneOrientationSequence, plane, 0);
  plane->putAndInsertString(DCM_ImageOrientationPatient, "1\\0\\0\\0\\1\\0");
  DcmItem* voi = nullptr;
  shared->findOrCreateSequenceItem(DCM_FrameVOILUTSequence, voi, 0);
  voi->putAndInsertString(DCM_WindowCenter, "2048");
  voi->putAndInsertString(DCM_WindowWidth, "4096");
  std::vector<Uint16> pixels(static_cast<std::size_t>(frames) * kMammoColumns * kMammoRows);
  for (int f = 0; f < frames; ++f) {
    DcmItem* perFrame = nullptr;
    ds->findOrCreateSequenceItem(DCM_PerFrameFunctionalGroupsSequence, perFrame, f);
    DcmItem* position = nullptr;
    perFrame->findOrCreateSequenceItem(DCM_PlanePositionSequence, position, 0);
    const std::string ipp = "0\\0\\" + std::to_string(f);
    position->putAndInsertString(DCM_ImagePositionPatient, ipp.c_str());
    for (int r = 0; r < kMammoRows; ++r) {
      for (int c = 0; c < kMammoColumns; ++c) {
        const int depth = storedLeft ? c : kMammoColumns - 1 - c;
        const double dy = (r - kMammoRows / 2.0) / (kMammoRows * 0.48);
        const double dx = depth / 220.0;
        int value = dx * dx + dy * dy < 1.0 ? kTissue : kBackground;
        const int top = tomoMarkerRow(f);
        if (depth >= kMarkerDepth && depth < kMarkerDepth + 20 && r >= top && r < top + 20) {
          value = kMarker;
        }
        pixels[(static_cast<std::size_t>(f) * kMammoRows + r) * kMammoColumns + c] =
            static_cast<Uint16>(value);
      }
    }
  }
  ds->putAndInsertUint16Array(DCM_PixelData, pixels.data(),
                              static_cast<unsigned long>(pixels.size()));
  const auto file = folder / (m.laterality + m.view + "_tomo.dcm");
  ff.saveFile(file.c_str(), EXS_LittleEndianExplicit);
  return file;
}

void writeSampleMammoStudy(const std::filesystem::path& folder) {
  std::filesystem::create_directories(folder);
  for (const char* l : {"R", "L"}) {
    for (const char* view : {"CC", "MLO"}) {
      const auto c = core::sample::makeMammogram(core::sample::kDefaultSeed, l, view, false);
      core::DicomWriteOptions options;
      options.filePrefix = std::string(l) + view;
      options.bitsStored = 12;
      options.attributes = {{"ImageLaterality", l},
                            {"ViewPosition", view},
                            {"PresentationIntentType", "FOR PRESENTATION"}};
      core::NullProgress quiet;
      core::writeDicomSeries(*c.image, folder, options, quiet);
    }
  }
}

}  // namespace delineate::test
