#include "MammoTestStudy.h"

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
