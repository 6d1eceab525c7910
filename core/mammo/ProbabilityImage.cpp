#include "core/mammo/ProbabilityImage.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcitem.h>
#include <dcmtk/dcmdata/dcuid.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/Error.h"
#include "core/io/VolumeFileIO.h"

namespace delineate::core::mammo {

namespace fs = std::filesystem;

namespace {

constexpr const char* kParametricMapClass = "1.2.840.10008.5.1.4.1.1.30";
constexpr std::size_t kLongestSide = 1024;

std::string stringOf(DcmItem& item, const DcmTagKey& tag) {
  OFString value;
  return item.findAndGetOFString(tag, value).good() ? value.c_str() : "";
}

DcmItem* firstItem(DcmItem* parent, const DcmTagKey& sequence) {
  DcmItem* item = nullptr;
  if (parent != nullptr && parent->findAndGetSequenceItem(sequence, item, 0).good()) {
    return item;
  }
  return nullptr;
}

// The SOP Instance UID of the image a derived object was made from.
std::string referencedImage(DcmDataset& ds) {
  for (const DcmTagKey& group :
       {DCM_SharedFunctionalGroupsSequence, DCM_PerFrameFunctionalGroupsSequence}) {
    DcmItem* source = firstItem(firstItem(firstItem(&ds, group), DCM_DerivationImageSequence),
                                DCM_SourceImageSequence);
    if (source != nullptr) {
      const std::string uid = stringOf(*source, DCM_ReferencedSOPInstanceUID);
      if (!uid.empty()) {
        return uid;
      }
    }
  }
  if (DcmItem* instance =
          firstItem(firstItem(&ds, DCM_ReferencedSeriesSequence), DCM_ReferencedInstanceSequence)) {
    return stringOf(*instance, DCM_ReferencedSOPInstanceUID);
  }
  if (DcmItem* image = firstItem(&ds, DCM_ReferencedImageSequence)) {
    return stringOf(*image, DCM_ReferencedSOPInstanceUID);
  }
  return {};
}

// Clamps to 0..1, counting what was outside.
void clampValues(ProbabilityImage& p, const std::string& where) {
  std::size_t outside = 0;
  for (float& v : p.values) {
    if (!(v >= 0.0f && v <= 1.0f)) {
      ++outside;
      v = std::isnan(v) ? 0.0f : std::clamp(v, 0.0f, 1.0f);
    }
  }
  if (outside > 0) {
    p.warnings.push_back(where + ": " + std::to_string(outside) +
                         " values outside 0..1 were clamped");
  }
}

ProbabilityImage volumeSlice(const Volume& v, const std::string& where) {
  const ImageGeometry& g = v.geometry();
  if (g.size[2] != 1) {
    throw Error(ErrorKind::InvalidInput, where,
                "a probability map for a mammogram has one slice; this one has " +
                    std::to_string(g.size[2]));
  }
  ProbabilityImage p;
  p.columns = g.size[0];
  p.rows = g.size[1];
  p.values.resize(p.columns * p.rows);
  dispatchScalar(v.scalarType(), [&](auto tag) {
    using T = decltype(tag);
    const T* src = v.data<T>();
    double scale = 1.0;
    if constexpr (std::is_integral_v<T>) {
      scale = sizeof(T) == 1 ? 255.0 : 65535.0;
    }
    for (std::size_t i = 0; i < p.values.size(); ++i) {
      p.values[i] = static_cast<float>(static_cast<double>(src[i]) / scale);
    }
  });
  return p;
}

ProbabilityImage fromSegmentation(DcmDataset& ds, std::size_t pixels, const std::string& where) {
  if (stringOf(ds, DCM_SegmentationType) != "FRACTIONAL") {
    throw Error(ErrorKind::InvalidInput, where,
                "a binary segmentation is no probability map (Segmentation Type is " +
                    stringOf(ds, DCM_SegmentationType) + ", not FRACTIONAL)");
  }
  Uint16 bits = 0;
  ds.findAndGetUint16(DCM_BitsAllocated, bits);
  const Uint8* data = nullptr;
  unsigned long count = 0;
  if (bits != 8 || ds.findAndGetUint8Array(DCM_PixelData, data, &count).bad() || count < pixels) {
    throw Error(ErrorKind::InvalidInput, where,
                "the fractional segmentation's pixel data is not 8-bit data of one frame");
  }
  Uint16 maximum = 0;
  if (ds.findAndGetUint16(DCM_MaximumFractionalValue, maximum).bad() || maximum == 0) {
    maximum = 255;
  }
  ProbabilityImage p;
  p.kind = "DICOM Segmentation (fractional)";
  p.values.resize(pixels);
  for (std::size_t i = 0; i < pixels; ++i) {
    p.values[i] = static_cast<float>(data[i]) / static_cast<float>(maximum);
  }
  return p;
}

ProbabilityImage fromParametricMap(DcmDataset& ds, std::size_t pixels, const std::string& where) {
  ProbabilityImage p;
  p.kind = "DICOM Parametric Map";
  p.values.resize(pixels);
  const Float32* floats = nullptr;
  const Float64* doubles = nullptr;
  const Uint16* integers = nullptr;
  unsigned long count = 0;
  if (ds.findAndGetFloat32Array(DCM_FloatPixelData, floats, &count).good() && count >= pixels) {
    std::copy(floats, floats + pixels, p.values.begin());
  } else if (ds.findAndGetFloat64Array(DCM_DoubleFloatPixelData, doubles, &count).good() &&
             count >= pixels) {
    std::transform(doubles, doubles + pixels, p.values.begin(),
                   [](double v) { return static_cast<float>(v); });
  } else if (ds.findAndGetUint16Array(DCM_PixelData, integers, &count).good() && count >= pixels) {
    DcmItem* mapping = firstItem(firstItem(&ds, DCM_SharedFunctionalGroupsSequence),
                                 DCM_RealWorldValueMappingSequence);
    Float64 slope = 1, intercept = 0;
    if (mapping == nullptr || mapping->findAndGetFloat64(DCM_RealWorldValueSlope, slope).bad()) {
      throw Error(ErrorKind::InvalidInput, where,
                  "the parametric map's integer pixel data has no Real World Value Mapping");
    }
    mapping->findAndGetFloat64(DCM_RealWorldValueIntercept, intercept);
    for (std::size_t i = 0; i < pixels; ++i) {
      p.values[i] = static_cast<float>(integers[i] * slope + intercept);
    }
  } else {
    throw Error(ErrorKind::InvalidInput, where,
                "the parametric map holds no pixel data of one frame");
  }
  return p;
}

ProbabilityImage fromDicom(const fs::path& file) {
  const std::string where = file.string();
  DcmFileFormat ff;
  const OFCondition loaded = ff.loadFile(file.c_str());
  if (loaded.bad()) {
    throw Error(ErrorKind::InvalidInput, where,
                std::string("not a DICOM file, a NIfTI, NRRD or MetaImage file: ") + loaded.text());
  }
  DcmDataset& ds = *ff.getDataset();
  const std::string sopClass = stringOf(ds, DCM_SOPClassUID);
  Uint16 rows = 0, columns = 0;
  ds.findAndGetUint16(DCM_Rows, rows);
  ds.findAndGetUint16(DCM_Columns, columns);
  Sint32 frames = 1;
  ds.findAndGetSint32(DCM_NumberOfFrames, frames);
  if (rows == 0 || columns == 0) {
    throw Error(ErrorKind::InvalidInput, where, "the DICOM object has no image (no Rows/Columns)");
  }
  if (frames != 1) {
    throw Error(
        ErrorKind::InvalidInput, where,
        "a probability map for a mammogram has one frame; this one has " + std::to_string(frames));
  }
  const std::size_t pixels = std::size_t(rows) * columns;
  ProbabilityImage p;
  if (sopClass == UID_SegmentationStorage) {
    p = fromSegmentation(ds, pixels, where);
  } else if (sopClass == kParametricMapClass) {
    p = fromParametricMap(ds, pixels, where);
  } else {
    throw Error(ErrorKind::InvalidInput, where,
                "a DICOM probability map is a fractional Segmentation or a Parametric Map; this "
                "object is of class " +
                    sopClass);
  }
  p.columns = columns;
  p.rows = rows;
  p.referencedImage = referencedImage(ds);
  return p;
}

}  // namespace

ProbabilityImage probabilityFromVolume(const Volume& volume, const std::string& where) {
  ProbabilityImage p = volumeSlice(volume, where);
  clampValues(p, where);
  return p;
}

ProbabilityImage readProbabilityImage(const fs::path& file, ProgressSink& progress) {
  const std::string where = file.string();
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) {
    throw Error(ErrorKind::Io, where, "no such file");
  }
  ProbabilityImage p;
  if (isVolumeFile(file)) {
    p = volumeSlice(*readVolumeFile(file, progress), where);
    p.kind = file.extension() == ".nrrd" || file.extension() == ".nhdr" ? "NRRD"
             : file.extension() == ".mha" || file.extension() == ".mhd" ? "MetaImage"
                                                                        : "NIfTI";
  } else {
    p = fromDicom(file);
  }
  clampValues(p, where);
  return p;
}

FindingHeatmap heatmapOnImage(const ProbabilityImage& map, std::size_t columns, std::size_t rows,
                              const std::string& where) {
  if (map.columns == 0 || map.rows == 0 || map.values.size() != map.columns * map.rows) {
    throw Error(ErrorKind::InvalidInput, where, "the probability map is empty");
  }
  FindingHeatmap h;
  if (map.columns == columns && map.rows == rows) {
    // On the image's grid: averaged down in blocks of `step` pixels (partial blocks at the
    // right and bottom edges average what they hold).
    const std::size_t step = (std::max(columns, rows) + kLongestSide - 1) / kLongestSide;
    h.step = double(step);
    h.columns = (columns + step - 1) / step;
    h.rows = (rows + step - 1) / step;
    h.values.assign(h.columns * h.rows, 0.0f);
    for (std::size_t r = 0; r < h.rows; ++r) {
      for (std::size_t c = 0; c < h.columns; ++c) {
        double sum = 0;
        std::size_t n = 0;
        for (std::size_t y = r * step; y < std::min(rows, (r + 1) * step); ++y) {
          for (std::size_t x = c * step; x < std::min(columns, (c + 1) * step); ++x) {
            sum += map.values[y * columns + x];
            ++n;
          }
        }
        h.values[r * h.columns + c] = static_cast<float>(sum / double(n));
      }
    }
    return h;
  }
  const double sx = double(columns) / double(map.columns);
  const double sy = double(rows) / double(map.rows);
  if (sx < 1.0 || std::abs(sx - sy) > 0.01 * sx) {
    throw Error(ErrorKind::InvalidInput, where,
                "the probability map is " + std::to_string(map.columns) + " x " +
                    std::to_string(map.rows) + " pixels and the image " + std::to_string(columns) +
                    " x " + std::to_string(rows) +
                    ": it is not on the image's grid nor a scaled-down copy of it");
  }
  h.columns = map.columns;
  h.rows = map.rows;
  h.step = sx;
  h.values = map.values;
  return h;
}

}  // namespace delineate::core::mammo
