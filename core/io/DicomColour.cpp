#include "core/io/DicomColour.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "core/Error.h"
#include "core/model/ColourLuminance.h"

namespace delineate::core {

namespace {

template <class S>
S load(const unsigned char* p) {
  S v;
  std::memcpy(&v, p, sizeof(S));
  return v;
}

// Clamped rounding, as PS3.3 C.7.6.3.1.2 and pydicom convert (floor(x + 0.5)).
std::uint32_t clampRound(double v, double max) {
  return static_cast<std::uint32_t>(std::clamp(std::floor(v + 0.5), 0.0, max));
}

template <class S, class C>
void convertFrame(const unsigned char* in, const DicomColourFrame& f, C* rgb, C* lum) {
  const std::size_t n = f.rows * f.columns;
  const std::uint64_t mask =
      f.bitsStored >= 32 ? 0xFFFFFFFFull : ((std::uint64_t{1} << f.bitsStored) - 1);
  const double max = static_cast<double>(mask);
  const double half = static_cast<double>(std::uint64_t{1} << (f.bitsStored - 1));
  const double scale = max / 255.0;  // YBR_PARTIAL's 16..235 / 16..240 at 8 bits
  auto sample = [&](std::size_t pixel, std::size_t c) -> double {
    std::size_t index = 0;
    if (f.subsampled) {
      // Y1 Y2 Cb Cr for each pair of pixels in a row (an odd last pixel keeps its pair's chroma).
      const std::size_t row = pixel / f.columns;
      const std::size_t col = pixel % f.columns;
      const std::size_t pairsPerRow = (f.columns + 1) / 2;
      const std::size_t group = (row * pairsPerRow + col / 2) * 4;
      index = c == 0 ? group + (col & 1u) : group + 1 + c;
    } else {
      index = f.planar ? c * n + pixel : 3 * pixel + c;
    }
    return static_cast<double>(load<S>(in + index * sizeof(S)) & mask);
  };
  for (std::size_t p = 0; p < n; ++p) {
    double r = 0, g = 0, b = 0;
    switch (f.model) {
      case DicomColourModel::Palette: {
        std::int64_t v = static_cast<std::int64_t>(load<S>(in + p * sizeof(S)) & mask);
        if (f.pixelSigned && f.bitsStored < 64 && (v & (std::int64_t{1} << (f.bitsStored - 1)))) {
          v -= std::int64_t{1} << f.bitsStored;
        }
        r = f.palette->map(0, v);
        g = f.palette->map(1, v);
        b = f.palette->map(2, v);
        break;
      }
      case DicomColourModel::YbrFull:
      case DicomColourModel::YbrFull422: {
        const double y = sample(p, 0), cb = sample(p, 1) - half, cr = sample(p, 2) - half;
        r = clampRound(y + 1.402 * cr, max);
        g = clampRound(y - (0.114 * 1.772 / 0.587) * cb - (0.299 * 1.402 / 0.587) * cr, max);
        b = clampRound(y + 1.772 * cb, max);
        break;
      }
      case DicomColourModel::YbrPartial: {
        const double y = sample(p, 0) - 16 * scale, cb = sample(p, 1) - half,
                     cr = sample(p, 2) - half;
        r = clampRound(1.1644 * y + 1.5960 * cr, max);
        g = clampRound(1.1644 * y - 0.3918 * cb - 0.8130 * cr, max);
        b = clampRound(1.1644 * y + 2.0172 * cb, max);
        break;
      }
      default:  // RGB
        r = sample(p, 0);
        g = sample(p, 1);
        b = sample(p, 2);
        break;
    }
    rgb[3 * p] = static_cast<C>(r);
    rgb[3 * p + 1] = static_cast<C>(g);
    rgb[3 * p + 2] = static_cast<C>(b);
    lum[p] = static_cast<C>(colourLuminance(r, g, b));
  }
}

template <class S>
void convertWithSamples(const unsigned char* in, const DicomColourFrame& f, void* rgb, void* lum) {
  switch (f.channelType) {
    case ScalarType::UInt8:
      convertFrame<S>(in, f, static_cast<std::uint8_t*>(rgb), static_cast<std::uint8_t*>(lum));
      return;
    case ScalarType::UInt16:
      convertFrame<S>(in, f, static_cast<std::uint16_t*>(rgb), static_cast<std::uint16_t*>(lum));
      return;
    case ScalarType::UInt32:
      convertFrame<S>(in, f, static_cast<std::uint32_t*>(rgb), static_cast<std::uint32_t*>(lum));
      return;
    default:
      throw Error(ErrorKind::Internal, {}, "colour channel type");
  }
}

}  // namespace

DicomColourModel dicomColourModel(const std::string& photometric) {
  if (photometric.empty() || photometric == "MONOCHROME1" || photometric == "MONOCHROME2") {
    return DicomColourModel::Monochrome;
  }
  if (photometric == "RGB" || photometric == "YBR_ICT" || photometric == "YBR_RCT") {
    return DicomColourModel::Rgb;  // ICT/RCT: the JPEG 2000 codec already undid the transform
  }
  if (photometric == "YBR_FULL") {
    return DicomColourModel::YbrFull;
  }
  if (photometric == "YBR_FULL_422") {
    return DicomColourModel::YbrFull422;
  }
  if (photometric == "YBR_PARTIAL_422" || photometric == "YBR_PARTIAL_420") {
    return DicomColourModel::YbrPartial;
  }
  if (photometric == "PALETTE COLOR") {
    return DicomColourModel::Palette;
  }
  return DicomColourModel::Unknown;
}

bool isDicomColour(const DicomFileHeader& h) {
  const DicomColourModel m = dicomColourModel(h.photometric);
  return h.samplesPerPixel == 3 || m == DicomColourModel::Palette ||
         (m != DicomColourModel::Monochrome && m != DicomColourModel::Unknown);
}

void checkDicomColour(const DicomFileHeader& h) {
  const DicomColourModel m = dicomColourModel(h.photometric);
  const std::string what = "PhotometricInterpretation " + h.photometric + " with " +
                           std::to_string(h.samplesPerPixel) + " sample(s) per pixel";
  if (m == DicomColourModel::Unknown) {
    throw Error(ErrorKind::Unsupported, h.path,
                "unknown " + what +
                    " (RGB, YBR_FULL, YBR_FULL_422, YBR_PARTIAL_422/420, "
                    "YBR_ICT, YBR_RCT and PALETTE COLOR are read)");
  }
  const unsigned expected = m == DicomColourModel::Palette ? 1 : 3;
  if (h.samplesPerPixel != expected || m == DicomColourModel::Monochrome) {
    throw Error(ErrorKind::InvalidInput, h.path,
                what + " does not fit: that interpretation needs " + std::to_string(expected) +
                    " sample(s) per pixel");
  }
  if (h.bitsAllocated != 8 && h.bitsAllocated != 16 && h.bitsAllocated != 32) {
    throw Error(ErrorKind::Unsupported, h.path,
                "colour samples of " + std::to_string(h.bitsAllocated) +
                    " bits allocated (8, 16 and 32 are read)");
  }
  if (h.bitsStored == 0 || h.bitsStored > h.bitsAllocated) {
    throw Error(ErrorKind::InvalidInput, h.path,
                "BitsStored " + std::to_string(h.bitsStored) + " does not fit BitsAllocated " +
                    std::to_string(h.bitsAllocated));
  }
  if (m == DicomColourModel::Palette) {
    if (!h.palette) {
      std::string why = "PALETTE COLOR image without a usable palette";
      for (const std::string& w : h.warnings) {
        if (w.find("Palette") != std::string::npos) {
          why = w.rfind(h.path + ": ", 0) == 0 ? w.substr(h.path.size() + 2) : w;
        }
      }
      throw Error(ErrorKind::InvalidInput, h.path, why);
    }
    if (h.bitsAllocated == 32) {
      throw Error(ErrorKind::Unsupported, h.path, "PALETTE COLOR with 32-bit indices");
    }
  }
}

ScalarType dicomColourChannelType(const DicomFileHeader& h) {
  if (dicomColourModel(h.photometric) == DicomColourModel::Palette && h.palette) {
    return h.palette->bits <= 8 ? ScalarType::UInt8 : ScalarType::UInt16;
  }
  if (h.bitsAllocated <= 8) {
    return ScalarType::UInt8;
  }
  return h.bitsAllocated <= 16 ? ScalarType::UInt16 : ScalarType::UInt32;
}

DicomColourFrame dicomColourFrame(const DicomFileHeader& h, const std::string& decodedPhotometric,
                                  bool native) {
  DicomColourFrame f;
  const DicomColourModel stored = dicomColourModel(h.photometric);
  f.model = stored;
  if (!decodedPhotometric.empty() && stored != DicomColourModel::Palette) {
    const DicomColourModel decoded = dicomColourModel(decodedPhotometric);
    if (decoded != DicomColourModel::Unknown && decoded != DicomColourModel::Monochrome) {
      f.model = decoded;
    }
  }
  f.subsampled = native && f.model == DicomColourModel::YbrFull422;
  if (!native && f.model == DicomColourModel::YbrFull422) {
    f.model = DicomColourModel::YbrFull;  // the codec restored the full chroma resolution
  }
  f.planar = h.planarConfiguration == 1 && !f.subsampled && f.model != DicomColourModel::Palette;
  f.bitsAllocated = h.bitsAllocated;
  f.bitsStored = h.bitsStored;
  f.pixelSigned = h.pixelSigned;
  f.rows = h.rows;
  f.columns = h.columns;
  f.palette = h.palette.get();
  f.channelType = dicomColourChannelType(h);
  return f;
}

std::size_t dicomColourFrameBytes(const DicomColourFrame& f) {
  const std::size_t bytes = f.bitsAllocated / 8;
  if (f.model == DicomColourModel::Palette) {
    return f.rows * f.columns * bytes;
  }
  if (f.subsampled) {
    return f.rows * ((f.columns + 1) / 2) * 4 * bytes;
  }
  return f.rows * f.columns * 3 * bytes;
}

void convertDicomColourFrame(const unsigned char* frame, const DicomColourFrame& f, void* rgb,
                             void* luminance) {
  switch (f.bitsAllocated) {
    case 8:
      convertWithSamples<std::uint8_t>(frame, f, rgb, luminance);
      return;
    case 16:
      convertWithSamples<std::uint16_t>(frame, f, rgb, luminance);
      return;
    case 32:
      convertWithSamples<std::uint32_t>(frame, f, rgb, luminance);
      return;
    default:
      throw Error(ErrorKind::Unsupported, {}, "colour samples of that size");
  }
}

}  // namespace delineate::core
