#include "core/io/DicomSegReader.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcsequen.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <dcmtk/dcmseg/segdoc.h>
#include <dcmtk/dcmseg/segment.h>

#include <algorithm>
#include <map>
#include <memory>
#include <numeric>
#include <utility>

#include "core/Error.h"
#include "core/io/DicomCodecs.h"
#include "core/io/DicomCondition.h"
#include "core/io/DicomSegLayout.h"
#include "core/io/DicomSegSegment.h"

namespace delineate::core {

namespace fs = std::filesystem;

namespace {

std::string stringOf(DcmItem& item, const DcmTagKey& tag) {
  OFString value;
  item.findAndGetOFString(tag, value);
  return value.c_str();
}

void requireSegmentation(DcmDataset& ds, const std::string& where) {
  const std::string sopClass = stringOf(ds, DCM_SOPClassUID);
  if (sopClass != UID_SegmentationStorage) {
    throw Error(ErrorKind::InvalidInput, where,
                "not a DICOM Segmentation (SOP class " +
                    (sopClass.empty() ? std::string("missing") : sopClass) + ")");
  }
}

struct LoadedSeg {
  std::unique_ptr<DcmFileFormat> file;
  std::unique_ptr<DcmSegmentation> seg;
  DicomSegLayout layout;
  std::string name;
};

LoadedSeg loadSeg(const fs::path& path, const std::string& where) {
  ensureDicomCodecs();
  LoadedSeg out;
  out.file = std::make_unique<DcmFileFormat>();
  checkDicom(out.file->loadFile(path.c_str()), where, "reading the file");
  DcmDataset& ds = *out.file->getDataset();
  requireSegmentation(ds, where);
  Uint16 rows = 0, columns = 0;
  ds.findAndGetUint16(DCM_Rows, rows);
  ds.findAndGetUint16(DCM_Columns, columns);
  DcmSegmentation* raw = nullptr;
  const OFCondition loaded = DcmSegmentation::loadDataset(ds, raw);
  out.seg.reset(raw);
  checkDicom(loaded, where, "reading the segmentation");
  if (!out.seg) {
    throw Error(ErrorKind::InvalidInput, where, "DCMTK could not read the segmentation");
  }
  if (out.seg->getSegmentationType() != DcmSegTypes::ST_BINARY) {
    throw Error(ErrorKind::Unsupported, where,
                "only binary segmentations are supported (this one is fractional)");
  }
  ds.findAndDeleteElement(DCM_PixelData);  // DCMTK holds its own copy of the frames
  out.layout = readDicomSegLayout(*out.seg, rows, columns, where);
  out.name = stringOf(ds, DCM_SeriesDescription);
  if (out.name.empty()) {
    out.name = stringOf(ds, DCM_ContentLabel);
  }
  if (out.name.empty()) {
    out.name = path.stem().string();
  }
  return out;
}

}  // namespace

DicomSegSummary readDicomSegSummary(const fs::path& path) {
  ensureDicomCodecs();
  const std::string where = path.string();
  DcmFileFormat file;
  checkDicom(file.loadFileUntilTag(path.c_str(), EXS_Unknown, EGL_noChange, DCM_MaxReadLength,
                                   ERM_autoDetect, DCM_PixelData),
             where, "reading the header");
  DcmDataset& ds = *file.getDataset();
  requireSegmentation(ds, where);
  DicomSegSummary s;
  s.seriesDescription = stringOf(ds, DCM_SeriesDescription);
  s.studyInstanceUid = stringOf(ds, DCM_StudyInstanceUID);
  s.frameOfReferenceUid = stringOf(ds, DCM_FrameOfReferenceUID);
  DcmSequenceOfItems* sequence = nullptr;
  if (ds.findAndGetSequence(DCM_ReferencedSeriesSequence, sequence).good() && sequence) {
    for (unsigned long i = 0; i < sequence->card(); ++i) {
      s.referencedSeriesUids.push_back(stringOf(*sequence->getItem(i), DCM_SeriesInstanceUID));
    }
  }
  if (ds.findAndGetSequence(DCM_SegmentSequence, sequence).good() && sequence) {
    s.segments = sequence->card();
  }
  Sint32 frames = 0;
  if (ds.findAndGetSint32(DCM_NumberOfFrames, frames).good() && frames > 0) {
    s.frames = static_cast<std::size_t>(frames);
  }
  return s;
}

ImageGeometry dicomSegGeometry(const fs::path& path) {
  const std::string where = path.string();
  LoadedSeg loaded = loadSeg(path, where);
  return deduceDicomSegGeometry(loaded.layout, where);
}

LabelMap readDicomSeg(const fs::path& path, const ImageGeometry& target, ProgressSink& progress,
                      std::vector<std::string>* warnings) {
  const std::string where = path.string();
  progress.report(0.0, "Reading the segmentation");
  LoadedSeg loaded = loadSeg(path, where);
  DcmSegmentation& seg = *loaded.seg;
  const std::vector<std::size_t> slices = placeDicomSegFrames(loaded.layout, target, where);

  const std::size_t segmentCount = seg.getNumberOfSegments();
  std::vector<Segment> segments;
  for (std::size_t n = 1; n <= segmentCount; ++n) {
    DcmSegment* s = seg.getSegment(n);
    if (!s || n > 65535) {
      throw Error(ErrorKind::InvalidInput, where, "segment " + std::to_string(n) + " is missing");
    }
    segments.push_back(segmentFromDcm(*s, static_cast<std::uint16_t>(n)));
  }
  LabelMap labels(loaded.name, target, segments);

  // Later segments win where segments overlap: place frames in ascending segment order.
  const auto& frames = loaded.layout.frames;
  std::vector<std::size_t> order(frames.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return frames[a].segment < frames[b].segment;
  });
  const std::size_t plane = target.size[0] * target.size[1];
  const std::size_t packedBytes = (plane + 7) / 8;
  std::map<std::pair<std::uint16_t, std::uint16_t>, std::size_t> overlaps;
  std::vector<std::size_t> overwritten(segmentCount + 1);
  std::uint16_t* voxels = labels.mutableData();
  for (std::size_t done = 0; done < order.size(); ++done) {
    const std::size_t f = order[done];
    const std::uint16_t number = frames[f].segment;
    if (number > segmentCount) {
      throw Error(ErrorKind::InvalidInput, where,
                  "frame " + std::to_string(f + 1) + " names segment " + std::to_string(number) +
                      " but there are only " + std::to_string(segmentCount));
    }
    const DcmIODTypes::Frame* frame = seg.getFrame(f);
    if (!frame || !frame->pixData || frame->length < packedBytes) {
      throw Error(ErrorKind::InvalidInput, where,
                  "frame " + std::to_string(f + 1) + " has too little pixel data");
    }
    std::uint16_t* out = voxels + slices[f] * plane;
    std::fill(overwritten.begin(), overwritten.end(), 0);
    for (std::size_t byte = 0; byte < packedBytes; ++byte) {
      const Uint8 bits = frame->pixData[byte];
      if (bits == 0) {
        continue;
      }
      for (std::size_t bit = 0; bit < 8; ++bit) {
        const std::size_t n = byte * 8 + bit;
        if (((bits >> bit) & 1) && n < plane) {
          const std::uint16_t previous = out[n];
          if (previous != 0 && previous != number) {
            ++overwritten[previous];
          }
          out[n] = number;
        }
      }
    }
    for (std::size_t s = 1; s <= segmentCount; ++s) {
      if (overwritten[s] > 0) {
        overlaps[{static_cast<std::uint16_t>(s), number}] += overwritten[s];
      }
    }
    if (done % 32 == 0) {
      progress.throwIfCancelled();
      progress.report(0.1 + 0.9 * static_cast<double>(done) / static_cast<double>(order.size()),
                      "Placing frames");
    }
  }
  if (warnings) {
    for (const auto& [pair, count] : overlaps) {
      warnings->push_back("segments " + std::to_string(pair.first) + " \"" +
                          segments[pair.first - 1].name + "\" and " + std::to_string(pair.second) +
                          " \"" + segments[pair.second - 1].name + "\" overlap in " +
                          std::to_string(count) + " voxels; segment " +
                          std::to_string(pair.second) +
                          " was kept there (a label map holds one segment per voxel)");
    }
  }
  progress.report(1.0, "Done");
  return labels;
}

}  // namespace delineate::core
