#include "core/io/DicomSeriesLoader.h"

#include <algorithm>
#include <atomic>
#include <filesystem>

#include "core/Error.h"
#include "core/io/DicomCodecs.h"
#include "core/io/DicomFrameDecoder.h"
#include "core/io/DicomModalityLut.h"
#include "core/io/DicomSeriesPlan.h"
#include "core/io/DicomWindows.h"
#include "core/jobs/ParallelFor.h"
#include "core/model/FrameSeries.h"

namespace delineate::core {

namespace fs = std::filesystem;

namespace {

std::string seriesName(const DicomSeries& s) {
  if (!s.files.empty()) {
    return fs::path(s.files.front()).parent_path().string();
  }
  return s.seriesInstanceUid;
}

unsigned decodingThreads(const DicomLoadOptions& options) {
  return options.threads > 0 ? options.threads : std::min(hardwareThreads(), 4u);
}

}  // namespace

VolumePtr loadDicomSeries(const DicomSeries& series, ProgressSink& progress) {
  return loadDicomSeries(series, progress, DicomLoadOptions{});
}

VolumePtr loadDicomSeries(const DicomSeries& series, ProgressSink& progress,
                          const DicomLoadOptions& options) {
  ensureDicomCodecs();
  const unsigned threads = decodingThreads(options);
  // 1-3: headers, checks, grid, frames, slice order, voxel type.
  progress.report(0.0, "Reading DICOM headers");
  DicomSeriesPlan plan = planDicomSeries(series, progress, threads);
  const std::vector<DicomFileHeader>& headers = plan.headers;
  const DicomFileHeader& ref = headers.front();
  const DicomStackLayout& layout = plan.layout();
  const std::size_t frameCount = plan.frameCount();

  // 4. Buffers.
  const std::size_t sliceVoxels = ref.rows * ref.columns;
  const std::size_t count = layout.geometry.voxelCount() * frameCount;
  const double bytes = static_cast<double>(count) *
                       static_cast<double>(scalarSize(plan.pixels.slotType)) *
                       (plan.colour ? 4.0 : 1.0);
  if (bytes > 0.8 * static_cast<double>(physicalMemory())) {
    throw Error(ErrorKind::TooLarge, seriesName(series),
                "the volume needs " + std::to_string(static_cast<std::uint64_t>(bytes) >> 20) +
                    " MiB, more than this machine's memory");
  }
  auto buffer = std::make_shared<VoxelBuffer>(plan.pixels.slotType, count);
  std::shared_ptr<VoxelBuffer> rgb;
  if (plan.colour) {
    rgb = std::make_shared<VoxelBuffer>(plan.channelType, 3 * count);
  }

  // 5. Decode, several files at a time when there are many.
  const std::vector<DicomDecodeUnit> units =
      makeDicomDecodeUnits(plan.slices, headers.size(), threads);
  DicomFrameDecoder decoder(headers, plan.format, plan.pixels, plan.rescales, sliceVoxels, *buffer);
  if (rgb) {
    decoder.setColourTarget(*rgb);
  }
  const bool parallel =
      options.threads > 0 || (plan.slices.size() >= 8 && bytes >= 4.0 * 1024 * 1024);
  std::atomic<std::size_t> decoded{0};
  parallelFor(units.size(), parallel ? threads : 1, progress, [&](std::size_t u) {
    decoder.decode(units[u], progress);
    const std::size_t k = decoded.fetch_add(units[u].frames.size()) + units[u].frames.size();
    progress.report(0.1 + 0.85 * static_cast<double>(k) / static_cast<double>(plan.slices.size()),
                    "Decoding DICOM pixels");
  });
  if (!plan.colour) {
    buffer = finalizeDicomPixels(std::move(buffer), plan.format, plan.pixels, plan.rescales,
                                 decoder.ranges(), sliceVoxels);
  }
  if (plan.modalityLut) {
    progress.report(0.95, "Applying the Modality LUT");
    buffer = applyModalityLut(*buffer, *plan.modalityLut);
  }
  std::vector<std::string> warnings = decoder.warnings();
  if (plan.colour && dot(layout.shearPerSlice, layout.shearPerSlice) > 0) {
    warnings.push_back("the colour slices are tilted (gantry tilt): shown on the tilted grid");
  } else if (dot(layout.shearPerSlice, layout.shearPerSlice) > 0) {
    progress.report(0.95, "Removing gantry tilt");
    const std::size_t frameVoxels = layout.geometry.voxelCount();
    auto* base = static_cast<unsigned char*>(buffer->data());
    for (std::size_t f = 0; f < frameCount; ++f) {
      VoxelBuffer slab(buffer->type(), frameVoxels,
                       base + f * frameVoxels * scalarSize(buffer->type()), nullptr);
      unshearDicomSlices(slab, layout.geometry, layout.shearPerSlice);
    }
  }

  // 6. What the volume is.
  VolumeInfo info = dicomSeriesInfo(plan, series, warnings);
  if (!plan.colour) {
    appendDefaultWindows(info.modality, *buffer, info.windows);
  }
  progress.report(1.0, "Done");
  if (plan.split) {
    return FrameSeries::make(layout.geometry, std::move(buffer), frameCount, plan.split->axis,
                             std::move(info), std::move(rgb))
        ->frame(0);
  }
  return std::make_shared<const Volume>(layout.geometry, std::move(buffer), std::move(info),
                                        std::move(rgb));
}

DicomSeriesSummary summarizeDicomSeries(const DicomSeries& series, ProgressSink& progress) {
  ensureDicomCodecs();
  progress.report(0.0, "Reading DICOM headers");
  const DicomSeriesPlan plan = planDicomSeries(series, progress, decodingThreads({}));
  DicomSeriesSummary s;
  s.geometry = plan.layout().geometry;
  s.info = dicomSeriesInfo(plan, series, {});
  s.frameCount = plan.frameCount();
  if (plan.split) {
    s.frameAxis = plan.split->axis;
  }
  if (plan.colour) {
    s.colourType = plan.channelType;
  }
  if (plan.modalityLut) {
    s.scalarType = plan.modalityLut->bits <= 8 ? ScalarType::UInt8 : ScalarType::UInt16;
  } else if (plan.pixels.deferred) {
    // The stored values' actual range decides: Int16 when the rescaled values fit.
    const bool identity = std::all_of(plan.rescales.begin(), plan.rescales.end(),
                                      [](const Rescale& r) { return r.identity(); });
    s.scalarTypeCandidates = {ScalarType::Int16, identity && !plan.format.pixelSigned
                                                     ? plan.pixels.slotType
                                                     : ScalarType::Float32};
  } else {
    s.scalarType = plan.pixels.slotType;
  }
  progress.report(1.0, "Done");
  return s;
}

}  // namespace delineate::core
