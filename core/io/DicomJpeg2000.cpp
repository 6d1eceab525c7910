#include "core/io/DicomJpeg2000.h"

#include <itkGDCMImageIO.h>

#include <cmath>
#include <cstring>
#include <type_traits>

#include "core/Error.h"

namespace delineate::core {

namespace {

template <class V>
void unscale(const unsigned char* in, std::size_t count, double slope, double intercept,
             ScalarType storedType, unsigned char* out) {
  dispatchScalar(storedType, [&](auto s) {
    using S = decltype(s);
    for (std::size_t i = 0; i < count; ++i) {
      V v;
      std::memcpy(&v, in + i * sizeof(V), sizeof(V));
      // GDCM applied RescaleSlope/Intercept; undo it to get the stored sample back.
      const double stored = (static_cast<double>(v) - intercept) / slope;
      const S sample = static_cast<S>(std::llround(stored));
      std::memcpy(out + i * sizeof(S), &sample, sizeof(S));
    }
  });
}

}  // namespace

Jpeg2000Frames readJpeg2000Frames(const std::string& path, std::size_t rows, std::size_t columns,
                                  std::size_t frames, const DicomSampleFormat& format,
                                  unsigned samples) {
  try {
    auto io = itk::GDCMImageIO::New();
    io->SetFileName(path);
    io->ReadImageInformation();
    const std::size_t gotFrames = io->GetNumberOfDimensions() > 2 ? io->GetDimensions(2) : 1;
    if (io->GetNumberOfComponents() != samples || io->GetDimensions(0) != columns ||
        io->GetDimensions(1) != rows || gotFrames != frames) {
      throw Error(ErrorKind::InvalidInput, path,
                  "the JPEG 2000 image does not match the DICOM header's size");
    }
    const std::size_t bytes = io->GetImageSizeInBytes();
    std::vector<unsigned char> decoded(bytes);
    itk::ImageIORegion region(io->GetNumberOfDimensions());
    for (unsigned a = 0; a < io->GetNumberOfDimensions(); ++a) {
      region.SetIndex(a, 0);
      region.SetSize(a, io->GetDimensions(a));
    }
    io->SetIORegion(region);
    io->Read(decoded.data());

    const std::size_t count = rows * columns * frames * samples;
    if (decoded.size() < count * io->GetComponentSize()) {
      throw Error(ErrorKind::Internal, path, "GDCM returned fewer pixels than announced");
    }
    std::vector<unsigned char> out(count * format.storedBytes());
    const double slope = io->GetRescaleSlope() != 0 ? io->GetRescaleSlope() : 1.0;
    const double intercept = io->GetRescaleIntercept();
    using C = itk::IOComponentEnum;
    const ScalarType stored = format.storedType();
    switch (io->GetComponentType()) {
      case C::UCHAR:
        unscale<std::uint8_t>(decoded.data(), count, slope, intercept, stored, out.data());
        break;
      case C::CHAR:
        unscale<std::int8_t>(decoded.data(), count, slope, intercept, stored, out.data());
        break;
      case C::USHORT:
        unscale<std::uint16_t>(decoded.data(), count, slope, intercept, stored, out.data());
        break;
      case C::SHORT:
        unscale<std::int16_t>(decoded.data(), count, slope, intercept, stored, out.data());
        break;
      case C::UINT:
        unscale<std::uint32_t>(decoded.data(), count, slope, intercept, stored, out.data());
        break;
      case C::INT:
        unscale<std::int32_t>(decoded.data(), count, slope, intercept, stored, out.data());
        break;
      case C::FLOAT:
        unscale<float>(decoded.data(), count, slope, intercept, stored, out.data());
        break;
      case C::DOUBLE:
        unscale<double>(decoded.data(), count, slope, intercept, stored, out.data());
        break;
      default:
        throw Error(ErrorKind::Unsupported, path, "JPEG 2000 pixel type GDCM cannot deliver");
    }
    return Jpeg2000Frames(std::move(out), rows * columns * samples * format.storedBytes());
  } catch (const itk::ExceptionObject& e) {
    std::string what = e.GetDescription();
    while (!what.empty() && (what.back() == '\n' || what.back() == ' ')) {
      what.pop_back();
    }
    throw Error(ErrorKind::InvalidInput, path, "decoding JPEG 2000 through GDCM: " + what);
  }
}

}  // namespace delineate::core
