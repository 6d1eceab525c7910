#include "core/io/DicomSeriesWriter.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdatset.h>
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcrlerp.h>
#include <dcmtk/dcmdata/dcxfer.h>
#include <dcmtk/dcmjpeg/djrplol.h>
#include <dcmtk/dcmjpeg/djrploss.h>
#include <dcmtk/dcmjpls/djrparam.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>

#include "core/Error.h"
#include "core/io/DicomCodecs.h"
#include "core/io/DicomCondition.h"
#include "core/io/DicomUid.h"
#include "core/io/DicomWriterAttributes.h"
#include "core/jobs/ParallelFor.h"

namespace delineate::core {

namespace fs = std::filesystem;

const char* toString(DicomTransferSyntax syntax) {
  switch (syntax) {
    case DicomTransferSyntax::ImplicitLittleEndian:
      return "Implicit VR Little Endian";
    case DicomTransferSyntax::ExplicitLittleEndian:
      return "Explicit VR Little Endian";
    case DicomTransferSyntax::ExplicitBigEndian:
      return "Explicit VR Big Endian";
    case DicomTransferSyntax::DeflatedExplicitLittleEndian:
      return "Deflated Explicit VR Little Endian";
    case DicomTransferSyntax::Rle:
      return "RLE Lossless";
    case DicomTransferSyntax::JpegBaseline:
      return "JPEG Baseline (Process 1)";
    case DicomTransferSyntax::JpegLossless:
      return "JPEG Lossless, First-Order Prediction (Process 14, SV1)";
    case DicomTransferSyntax::JpegLsLossless:
      return "JPEG-LS Lossless";
  }
  return "unknown transfer syntax";
}

namespace {

E_TransferSyntax xferOf(DicomTransferSyntax s) {
  switch (s) {
    case DicomTransferSyntax::ImplicitLittleEndian:
      return EXS_LittleEndianImplicit;
    case DicomTransferSyntax::ExplicitLittleEndian:
      return EXS_LittleEndianExplicit;
    case DicomTransferSyntax::ExplicitBigEndian:
      return EXS_BigEndianExplicit;
    case DicomTransferSyntax::DeflatedExplicitLittleEndian:
      return EXS_DeflatedLittleEndianExplicit;
    case DicomTransferSyntax::Rle:
      return EXS_RLELossless;
    case DicomTransferSyntax::JpegBaseline:
      return EXS_JPEGProcess1;
    case DicomTransferSyntax::JpegLossless:
      return EXS_JPEGProcess14SV1;
    case DicomTransferSyntax::JpegLsLossless:
      return EXS_JPEGLSLossless;
  }
  return EXS_LittleEndianExplicit;
}

// How voxel values become stored samples: value = stored * slope + intercept.
struct Storage {
  unsigned bits = 16;
  bool pixelSigned = false;
  double slope = 1;
  double intercept = 0;
  bool quantized = false;  // non-integral or out-of-range values mapped onto 16 bits
};

struct ValueRange {
  double min = 0;
  double max = 0;
  bool integral = true;
  bool finite = true;
};

ValueRange scanValues(const Volume& v) {
  ValueRange r;
  dispatchScalar(v.scalarType(), [&](auto t) {
    using T = decltype(t);
    const T* p = v.data<T>();
    const std::size_t n = v.voxels().count();
    if (n == 0) {
      return;
    }
    double lo = std::numeric_limits<double>::max();
    double hi = std::numeric_limits<double>::lowest();
    for (std::size_t i = 0; i < n; ++i) {
      const auto x = static_cast<double>(p[i]);
      if (!std::isfinite(x)) {
        r.finite = false;
        continue;
      }
      lo = std::min(lo, x);
      hi = std::max(hi, x);
      if constexpr (std::is_floating_point_v<T>) {
        r.integral = r.integral && std::floor(x) == x;
      }
    }
    r.min = lo;
    r.max = hi;
  });
  return r;
}

Storage chooseStorage(const Volume& v, DicomTransferSyntax syntax, const std::string& modality,
                      const std::string& where) {
  Storage s;
  const ScalarType type = v.scalarType();
  const bool needs16 = modality == "CT" || modality == "MR";
  if (type == ScalarType::Int16 || type == ScalarType::UInt16) {
    s.bits = 16;
    s.pixelSigned = type == ScalarType::Int16;
  } else if (type == ScalarType::UInt8 && !needs16) {
    s.bits = 8;
  } else {
    const ValueRange r = scanValues(v);
    if (!r.finite) {
      throw Error(ErrorKind::InvalidInput, where,
                  "the volume holds NaN or infinite values, which DICOM cannot store");
    }
    if (r.integral && r.min >= -32768 && r.max <= 32767) {
      s.pixelSigned = true;
    } else if (r.integral && r.min >= 0 && r.max <= 65535) {
      s.pixelSigned = false;
    } else {
      // Map [min, max] onto 0..65535 with a rescale slope: lossy by at most slope / 2.
      s.quantized = true;
      s.intercept = r.min;
      s.slope = r.max > r.min ? (r.max - r.min) / 65535.0 : 1.0;
    }
  }
  if (syntax == DicomTransferSyntax::JpegBaseline && s.bits != 8) {
    const ValueRange r = scanValues(v);
    if (!s.quantized && r.integral && r.min >= 0 && r.max <= 255) {
      s = Storage{};
      s.bits = 8;
    } else {
      throw Error(ErrorKind::Unsupported, where,
                  std::string("JPEG baseline stores 8-bit samples, but this ") +
                      std::string(toString(type)) + " volume holds values from " +
                      std::to_string(r.min) + " to " + std::to_string(r.max) +
                      "; choose a lossless transfer syntax");
    }
  }
  return s;
}

// The stored samples of one slice, as DCMTK wants them (Uint8 or Uint16 bit patterns).
template <class Out>
std::vector<Out> sliceSamples(const Volume& v, std::size_t slice, const Storage& s) {
  const ImageGeometry& g = v.geometry();
  const std::size_t n = g.size[0] * g.size[1];
  std::vector<Out> out(n);
  dispatchScalar(v.scalarType(), [&](auto t) {
    using T = decltype(t);
    const T* p = v.data<T>() + slice * n;
    for (std::size_t i = 0; i < n; ++i) {
      const auto x = static_cast<double>(p[i]);
      long long stored =
          s.quantized ? std::llround((x - s.intercept) / s.slope) : static_cast<long long>(x);
      if (s.bits == 8) {
        stored = std::clamp<long long>(stored, 0, 255);
        out[i] = static_cast<Out>(stored);
      } else if (s.pixelSigned) {
        const auto v16 = static_cast<std::int16_t>(std::clamp<long long>(stored, -32768, 32767));
        std::memcpy(&out[i], &v16, sizeof v16);
      } else {
        out[i] = static_cast<Out>(std::clamp<long long>(stored, 0, 65535));
      }
    }
  });
  return out;
}

std::unique_ptr<DcmRepresentationParameter> parameterFor(DicomTransferSyntax s) {
  switch (s) {
    case DicomTransferSyntax::Rle:
      return std::make_unique<DcmRLERepresentationParameter>();
    case DicomTransferSyntax::JpegBaseline:
      return std::make_unique<DJ_RPLossy>(90);
    case DicomTransferSyntax::JpegLossless:
      return std::make_unique<DJ_RPLossless>(1, 0);
    case DicomTransferSyntax::JpegLsLossless:
      return std::make_unique<DJLSRepresentationParameter>(0, OFTrue);
    default:
      return nullptr;
  }
}

std::string fileName(const std::string& prefix, std::size_t index, std::size_t count) {
  std::string number = std::to_string(index + 1);
  const std::size_t width = std::max<std::size_t>(4, std::to_string(count).size());
  number.insert(0, width - std::min(width, number.size()), '0');
  return prefix + number + ".dcm";
}

}  // namespace

std::vector<fs::path> writeDicomSeries(const Volume& volume, const fs::path& folder,
                                       const DicomWriteOptions& options, ProgressSink& progress) {
  ensureDicomCodecs();
  const std::string where = folder.string();
  const ImageGeometry& g = volume.geometry();
  if (g.size[0] == 0 || g.size[1] == 0 || g.size[2] == 0) {
    throw Error(ErrorKind::InvalidInput, where, "cannot write an empty volume");
  }
  if (g.size[0] > 65535 || g.size[1] > 65535) {
    throw Error(ErrorKind::Unsupported, where, "DICOM images hold at most 65535x65535 pixels");
  }
  if (std::any_of(options.filePrefix.begin(), options.filePrefix.end(),
                  [](char c) { return c == '/' || c == '\0'; })) {
    throw Error(ErrorKind::InvalidInput, where, "file prefix must not contain '/'");
  }
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) {
    throw Error(ErrorKind::Io, where, "cannot create the folder: " + ec.message());
  }

  const VolumeInfo& info = volume.info();
  DicomWriteContext ctx;
  ctx.volume = &volume;
  ctx.where = where;
  ctx.modality = info.modality.empty() ? "OT" : info.modality;
  ctx.sopClassUid = sopClassForModality(ctx.modality);
  ctx.studyInstanceUid =
      isValidDicomUid(info.studyInstanceUid) ? info.studyInstanceUid : newDicomUid();
  ctx.seriesInstanceUid =
      isValidDicomUid(info.seriesInstanceUid) ? info.seriesInstanceUid : newDicomUid();
  ctx.frameOfReferenceUid = isValidDicomUid(info.frameOfReferenceUid)
                                ? info.frameOfReferenceUid
                                : derivedDicomUid(ctx.seriesInstanceUid, "frame-of-reference");
  ctx.photometric = info.photometric == "MONOCHROME1" ? "MONOCHROME1" : "MONOCHROME2";
  const Storage storage = chooseStorage(volume, options.syntax, ctx.modality, where);
  ctx.bitsAllocated = storage.bits;
  ctx.bitsStored = storage.bits;
  if (options.bitsStored != 0 && options.bitsStored < storage.bits) {
    if (storage.slope != 1 || storage.intercept != 0 || options.bitsStored < 2) {
      throw Error(ErrorKind::InvalidInput, where,
                  "Bits Stored " + std::to_string(options.bitsStored) +
                      " needs integer voxels stored without rescaling");
    }
    const auto [lo, hi] = volume.valueRange();
    const double top =
        std::ldexp(1.0, static_cast<int>(options.bitsStored) - (storage.pixelSigned ? 1 : 0));
    const double bottom = storage.pixelSigned ? -top : 0.0;
    if (lo < bottom || hi >= top) {
      throw Error(ErrorKind::InvalidInput, where,
                  "voxel values " + std::to_string(lo) + ".." + std::to_string(hi) +
                      " do not fit in " + std::to_string(options.bitsStored) + " stored bits");
    }
    ctx.bitsStored = options.bitsStored;
  }
  ctx.pixelSigned = storage.pixelSigned;
  ctx.slope = storage.slope;
  ctx.intercept = storage.intercept;
  ctx.lossy = options.syntax == DicomTransferSyntax::JpegBaseline;

  const E_TransferSyntax xfer = xferOf(options.syntax);
  const std::size_t slices = g.size[2];
  std::vector<fs::path> written(slices);
  std::atomic<std::size_t> done{0};
  const unsigned threads = slices >= 8 ? std::min(hardwareThreads(), 4u) : 1;

  parallelFor(slices, threads, progress, [&](std::size_t k) {
    const fs::path target = folder / fileName(options.filePrefix, k, slices);
    const std::string file = target.string();
    DcmFileFormat ff;
    DcmDataset* ds = ff.getDataset();
    DicomWriteContext local = ctx;
    local.where = file;
    fillDicomDataset(
        *ds, local, k,
        derivedDicomUid(ctx.seriesInstanceUid, options.instanceKey + std::to_string(k + 1)));
    if (options.firstInstanceNumber != 1) {
      checkDicom(ds->putAndInsertString(DCM_InstanceNumber,
                                        std::to_string(options.firstInstanceNumber + k).c_str()),
                 file, "setting the instance number");
    }
    applyDicomAttributeOverrides(*ds, options.attributes, file);
    if (storage.bits == 8) {
      const auto samples = sliceSamples<Uint8>(volume, k, storage);
      checkDicom(ds->putAndInsertUint8Array(DCM_PixelData, samples.data(),
                                            static_cast<unsigned long>(samples.size())),
                 file, "setting the pixel data");
    } else {
      const auto samples = sliceSamples<Uint16>(volume, k, storage);
      checkDicom(ds->putAndInsertUint16Array(DCM_PixelData, samples.data(),
                                             static_cast<unsigned long>(samples.size())),
                 file, "setting the pixel data");
    }
    if (DcmXfer(xfer).isEncapsulated()) {
      const auto param = parameterFor(options.syntax);
      checkDicom(ds->chooseRepresentation(xfer, param.get()), file,
                 std::string("compressing as ") + toString(options.syntax));
      if (!ds->canWriteXfer(xfer)) {
        throw Error(ErrorKind::Unsupported, file,
                    std::string("DCMTK cannot encode this image as ") + toString(options.syntax));
      }
    }
    const fs::path temporary = folder / ("." + target.filename().string() + ".tmp");
    const OFCondition saved = ff.saveFile(temporary.c_str(), xfer, EET_ExplicitLength,
                                          EGL_withoutGL, EPD_noChange, 0, 0, EWM_createNewMeta);
    std::error_code fsError;
    if (saved.bad()) {
      fs::remove(temporary, fsError);
      throw dicomError(saved, file, "writing");
    }
    fs::rename(temporary, target, fsError);
    if (fsError) {
      const std::string message = fsError.message();
      fs::remove(temporary, fsError);
      throw Error(ErrorKind::Io, file, "cannot rename the written file: " + message);
    }
    written[k] = target;
    const std::size_t n = done.fetch_add(1) + 1;
    progress.report(static_cast<double>(n) / static_cast<double>(slices), "Writing DICOM");
  });
  return written;
}

}  // namespace delineate::core
