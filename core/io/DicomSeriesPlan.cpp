#include "core/io/DicomSeriesPlan.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <numeric>

#include "core/Error.h"
#include "core/io/DicomColour.h"
#include "core/io/DicomFrameKeysReader.h"
#include "core/jobs/ParallelFor.h"

namespace delineate::core {

namespace fs = std::filesystem;

namespace {

std::string joinNames(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size() && i < 3; ++i) {
    out += (i ? "; " : "") + items[i];
  }
  if (items.size() > 3) {
    out += "; and " + std::to_string(items.size() - 3) + " more";
  }
  return out;
}

// Same image shape as the reference file, or Error naming the file.
void checkSameShape(const DicomFileHeader& h, const DicomFileHeader& ref) {
  auto size = [](const DicomFileHeader& x) {
    return std::to_string(x.columns) + "x" + std::to_string(x.rows);
  };
  if (h.rows != ref.rows || h.columns != ref.columns) {
    throw Error(ErrorKind::InvalidInput, h.path,
                "image size " + size(h) + " differs from " + size(ref) + " in " + ref.path +
                    ": mixed image sizes in one series (load them as separate series)");
  }
  if (h.bitsAllocated != ref.bitsAllocated || h.bitsStored != ref.bitsStored ||
      h.highBit != ref.highBit || h.pixelSigned != ref.pixelSigned) {
    throw Error(ErrorKind::InvalidInput, h.path,
                "pixel format (BitsAllocated/BitsStored/HighBit/PixelRepresentation) differs "
                "from " +
                    ref.path);
  }
  if (h.floatPixelBits != ref.floatPixelBits) {
    throw Error(
        ErrorKind::InvalidInput, h.path,
        "float and integer pixel data mixed with " + ref.path + ": load them as separate series");
  }
  if (h.photometric != ref.photometric) {
    throw Error(ErrorKind::InvalidInput, h.path,
                "PhotometricInterpretation " + h.photometric + " differs from " + ref.photometric +
                    " in " + ref.path);
  }
}

// Colour or grey like the reference file, and showable; Error naming the file otherwise.
void checkColourKind(const DicomFileHeader& h, const DicomFileHeader& ref) {
  const bool colour = isDicomColour(ref);
  if (isDicomColour(h) != colour) {
    throw Error(ErrorKind::InvalidInput, h.path,
                std::string(colour ? "a grey" : "a colour") + " image in a series of " +
                    (colour ? "colour" : "grey") + " images (" + ref.path +
                    "): load them as separate series");
  }
  if (!colour) {
    // Checked before any decoder sees the file: GDCM aborts the process on more than four
    // samples (found by fuzzing).
    if (h.samplesPerPixel != 1) {
      throw Error(ErrorKind::InvalidInput, h.path,
                  std::to_string(h.samplesPerPixel) +
                      " samples per pixel with PhotometricInterpretation " +
                      (h.photometric.empty() ? std::string("(none)") : h.photometric) +
                      " (a grey image has 1)");
    }
    return;
  }
  checkDicomColour(h);
  if (dicomColourChannelType(h) != dicomColourChannelType(ref)) {
    throw Error(ErrorKind::InvalidInput, h.path,
                "colour depth differs from " + ref.path + ": load them as separate series");
  }
}

// A single multi-frame file whose frames have no place in space but a time (ultrasound, XA and
// endoscopy loops): a cine, shown as a 4-D image of one-slice frames over time.
bool isCineLoop(const std::vector<DicomFileHeader>& headers) {
  if (headers.size() != 1) {
    return false;
  }
  const DicomFileHeader& h = headers.front();
  const bool cineModality = h.modality == "US" || h.modality == "XA" || h.modality == "RF" ||
                            h.modality == "ES" || h.modality == "IVUS";
  return h.frames > 1 && !h.enhanced && !h.frame(0).position && (h.frameTimeMs > 0 || cineModality);
}

}  // namespace

DicomSeriesPlan planDicomSeries(const DicomSeries& series, ProgressSink& progress,
                                unsigned threads) {
  if (series.files.empty()) {
    throw Error(ErrorKind::InvalidInput, series.seriesInstanceUid, "the series has no files");
  }
  // 1. Headers of every file (pixel data stays on disk).
  progress.report(0.0, "Reading DICOM headers");
  const std::size_t n = series.files.size();
  std::vector<std::optional<DicomFileHeader>> parsed(n);
  std::vector<std::string> failures(n);
  std::vector<std::optional<Error>> firstErrors(n);
  std::atomic<std::size_t> done{0};
  parallelFor(n, n >= 8 ? threads : 1, progress, [&](std::size_t i) {
    const std::string& path = series.files[i];
    try {
      std::error_code ec;
      if (!fs::is_regular_file(path, ec)) {
        throw Error(ErrorKind::Io, path, "no such file");
      }
      const auto bytes = fs::file_size(path, ec);
      DicomFileHeader h = readDicomHeader(path);
      if (!h.isImage) {
        throw Error(ErrorKind::InvalidInput, path,
                    "not an image (no Rows/Columns; SOP class " +
                        (h.sopClassUid.empty() ? std::string("unknown") : h.sopClassUid) + ")");
      }
      h.checkSizeAgainstFile(bytes);
      parsed[i] = std::move(h);
    } catch (const CancelledError&) {
      throw;
    } catch (const Error& e) {
      failures[i] = e.what();
      firstErrors[i] = e;
    }
    const std::size_t k = done.fetch_add(1) + 1;
    if (k % 16 == 0 || k == n) {
      progress.report(0.1 * static_cast<double>(k) / static_cast<double>(n),
                      "Reading DICOM headers");
    }
  });
  std::vector<DicomFileHeader> headers;
  std::vector<std::string> skipped;
  const Error* firstError = nullptr;
  for (std::size_t i = 0; i < n; ++i) {
    if (parsed[i]) {
      headers.push_back(std::move(*parsed[i]));
    } else {
      skipped.push_back(failures[i]);
      if (!firstError) {
        firstError = &*firstErrors[i];
      }
    }
  }
  if (headers.empty()) {
    throw *firstError;  // n > 0, so there is one
  }
  std::vector<std::string> warnings;
  if (!skipped.empty()) {
    warnings.push_back("skipped " + std::to_string(skipped.size()) +
                       " unreadable file(s): " + joinNames(skipped));
  }

  // 2. One pixel format and image size for all files.
  const DicomFileHeader& ref = headers.front();
  const bool colour = isDicomColour(ref);
  // Float / Double Float Pixel Data (parametric maps): stored as they are, never rescaled.
  const bool floating = ref.floatPixelBits != 0;
  for (const auto& h : headers) {
    checkColourKind(h, ref);
    checkSameShape(h, ref);
    checkDicomDecodable(h);
  }
  DicomSampleFormat format{ref.bitsAllocated, ref.bitsStored, ref.highBit, ref.pixelSigned};
  if (!colour && !floating) {
    validateSampleFormat(format, ref.path);
  }
  // A Modality LUT Sequence replaces the rescale (the two are exclusive): one table for the whole
  // series, else the stored values with a warning.
  std::optional<DicomFileHeader::ModalityLut> modalityLut;
  if (!colour && !floating && std::any_of(headers.begin(), headers.end(), [](const auto& h) {
        return h.hasModalityLutSequence;
      })) {
    const bool same = std::all_of(headers.begin(), headers.end(),
                                  [&](const auto& h) { return h.modalityLut == ref.modalityLut; });
    if (same && !ref.modalityLut.table.empty()) {
      modalityLut = ref.modalityLut;
    } else if (!same) {
      warnings.push_back("the files' Modality LUT Sequences differ; stored values shown");
    }
  }

  // 3. Frames in slice order and the grid.
  std::vector<DicomSlicePlacement> placements;
  std::vector<DicomSliceSource> frameOf;
  for (std::size_t f = 0; f < headers.size(); ++f) {
    const DicomFileHeader& h = headers[f];
    for (std::size_t k = 0; k < h.frames; ++k) {
      const DicomFrameHeader fh = h.frame(k);
      DicomSlicePlacement p;
      p.position = fh.position;
      p.orientation = fh.orientation;
      p.pixelSpacing = fh.pixelSpacing;
      p.sliceThickness = fh.sliceThickness;
      p.instanceNumber = h.instanceNumber;
      p.file = h.path;
      p.frame = k;
      placements.push_back(std::move(p));
      frameOf.push_back({f, k});
    }
  }
  // Slices repeating at every position, told apart by a header attribute, are a 4-D series: each
  // frame is laid out on its own and all must share one grid.
  std::vector<std::vector<std::size_t>> frameSlices{{}};
  std::optional<DicomFrameSplit> split;
  {
    std::vector<DicomFrameKeys> keys;
    for (const DicomSliceSource& s : frameOf) {
      // An enhanced file's frames carry their own (functional groups); classic files one each.
      const DicomFileHeader& h = headers[s.file];
      keys.push_back(mergeFrameKeys(h.frameKeys, h.frame(s.frame).keys));
    }
    split = splitDicomFrames(placements, keys);
    if (!split && isCineLoop(headers)) {
      DicomFrameSplit cine;
      cine.axis.name = "time";
      cine.axis.unit = "s";
      const double seconds = headers.front().frameTimeMs / 1000.0;
      for (std::size_t k = 0; k < placements.size(); ++k) {
        cine.frames.push_back({k});
        if (seconds > 0) {
          cine.axis.values.push_back(seconds * static_cast<double>(k));
        }
      }
      if (seconds <= 0) {
        cine.axis.name = "frame";
        cine.axis.unit.clear();
      }
      split = std::move(cine);
    }
  }
  if (split) {
    frameSlices = split->frames;
  } else {
    frameSlices.front().resize(placements.size());
    std::iota(frameSlices.front().begin(), frameSlices.front().end(), std::size_t{0});
  }
  std::vector<DicomStackLayout> layouts;
  for (const auto& members : frameSlices) {
    std::vector<DicomSlicePlacement> subset;
    for (std::size_t i : members) {
      subset.push_back(placements[i]);
    }
    layouts.push_back(
        layoutDicomSlices(subset, ref.rows, ref.columns, ref.spacingBetweenSlices, ref.gantryTilt));
    const std::string difference = layouts.back().geometry.differenceFrom(layouts.front().geometry);
    if (!difference.empty()) {
      // Frames on different grids are no 4-D image: read the series as 3-D, as before.
      split.reset();
      frameSlices.assign(1, std::vector<std::size_t>(placements.size()));
      std::iota(frameSlices.front().begin(), frameSlices.front().end(), std::size_t{0});
      layouts.assign(1, layoutDicomSlices(placements, ref.rows, ref.columns,
                                          ref.spacingBetweenSlices, ref.gantryTilt));
      warnings.push_back(
          "the repeated slices look like frames of a 4-D series, but the frames' "
          "grids differ (" +
          difference + "): read as one 3-D image");
      break;
    }
  }
  const DicomStackLayout& layout = layouts.front();
  warnings.insert(warnings.end(), layout.warnings.begin(), layout.warnings.end());
  std::vector<DicomSliceSource> slices;
  std::vector<Rescale> rescales;
  for (std::size_t f = 0; f < layouts.size(); ++f) {
    for (std::size_t idx : layouts[f].order) {
      const DicomSliceSource s = frameOf[frameSlices[f][idx]];
      slices.push_back(s);
      const DicomFrameHeader fh = headers[s.file].frame(s.frame);
      rescales.push_back(modalityLut || colour || floating ? Rescale{}
                                                           : Rescale{fh.slope, fh.intercept});
    }
  }

  // 4. The voxel type. Colour: the luminance in the channels' type, beside the three channels.
  const ScalarType channelType = colour ? dicomColourChannelType(ref) : ScalarType::UInt8;
  const DicomPixelPlan pixels =
      colour ? DicomPixelPlan{channelType, false}
      : floating
          ? DicomPixelPlan{ref.floatPixelBits == 64 ? ScalarType::Float64 : ScalarType::Float32,
                           false}
          : planDicomPixels(format, rescales);

  DicomSeriesPlan plan;
  plan.warnings = std::move(warnings);
  plan.colour = colour;
  plan.floating = floating;
  plan.format = format;
  plan.modalityLut = std::move(modalityLut);
  plan.split = std::move(split);
  plan.layouts = std::move(layouts);
  plan.slices = std::move(slices);
  plan.rescales = std::move(rescales);
  plan.channelType = channelType;
  plan.pixels = pixels;
  plan.headers = std::move(headers);  // last: `ref` points into it
  return plan;
}

VolumeInfo dicomSeriesInfo(const DicomSeriesPlan& plan, const DicomSeries& series,
                           const std::vector<std::string>& decodingWarnings) {
  const std::vector<DicomFileHeader>& headers = plan.headers;
  const std::vector<DicomSliceSource>& slices = plan.slices;
  const DicomStackLayout& layout = plan.layout();
  std::vector<std::string> warnings = plan.warnings;
  warnings.insert(warnings.end(), decodingWarnings.begin(), decodingWarnings.end());
  const DicomFileHeader& first = headers[slices.front().file];
  VolumeInfo info;
  info.modality = first.modality;
  info.patientName = first.patientName;
  info.patientId = first.patientId;
  info.patientBirthDate = first.patientBirthDate;
  info.patientSex = first.patientSex;
  info.studyInstanceUid = first.studyInstanceUid;
  info.studyDate = first.studyDate;
  info.studyDescription = first.studyDescription;
  info.accessionNumber = first.accessionNumber;
  info.seriesInstanceUid = first.seriesInstanceUid;
  info.seriesDescription =
      series.description.empty() ? first.seriesDescription : series.description;
  info.seriesNumber = first.seriesNumber;
  info.frameOfReferenceUid = first.frameOfReferenceUid;
  info.sopClassUid = first.sopClassUid;
  // One file that may show text makes the whole volume one that may; "NO" needs every file.
  info.burnedInAnnotation = "NO";
  for (const DicomFileHeader& h : headers) {
    if (h.burnedInAnnotation == "YES") {
      info.burnedInAnnotation = "YES";
      break;
    }
    if (h.burnedInAnnotation != "NO") {
      info.burnedInAnnotation.clear();
    }
  }
  info.transferSyntax = first.transferSyntaxName;
  info.photometric = first.photometric.empty() ? "MONOCHROME2" : first.photometric;
  info.laterality = first.laterality;
  info.viewPosition = first.viewPosition;
  info.presentationIntent = first.presentationIntent;
  info.viewCode = first.viewCode;
  info.spacingSource = first.spacingSource;
  info.voiFunction = first.voiFunction;
  info.voiLuts = first.voiLuts;
  info.sourcePath = fs::path(first.path).parent_path().string();
  // The files of the first frame's slices (each frame's info names the same: references such as
  // a SEG's point at the grid, which every frame shares).
  for (std::size_t k = 0; k < layout.geometry.size[2] && k < slices.size(); ++k) {
    info.sourceFiles.push_back(headers[slices[k].file].path);
  }
  // What the headers read but could not use (malformed VOI LUT tables, ...), a few at most.
  std::size_t headerWarnings = 0;
  for (const DicomFileHeader& h : headers) {
    for (const std::string& w : h.warnings) {
      if (++headerWarnings <= 5) {
        warnings.push_back(w);
      }
    }
  }
  if (headerWarnings > 5) {
    warnings.push_back("and " + std::to_string(headerWarnings - 5) + " more header warning(s)");
  }
  info.warnings = std::move(warnings);
  info.orientationKnown = layout.orientationKnown;
  info.windows = first.windows;
  if (plan.colour) {
    // Colour is shown as stored; a window then applies to each channel alike.
    const DicomFileHeader& ref = headers.front();
    const double top =
        ref.palette ? (ref.palette->bits <= 8 ? 255.0 : 65535.0)
                    : static_cast<double>((std::uint64_t{1} << std::min(ref.bitsStored, 32u)) - 1);
    info.windows.insert(info.windows.begin(), WindowPreset{"Colour as stored", top / 2, top});
  }
  return info;
}

}  // namespace delineate::core
