#pragma once
// JPEG 2000 pixel data, which DCMTK cannot decode: read through ITK's GDCMImageIO (OpenJPEG) and
// turned back into stored samples so that the loader treats them like any other decoded frame.
#include <cstddef>
#include <string>
#include <vector>

#include "core/io/DicomPixelConversion.h"

namespace delineate::core {

class Jpeg2000Frames {
 public:
  Jpeg2000Frames(std::vector<unsigned char> samples, std::size_t frameBytes)
      : samples_(std::move(samples)), frameBytes_(frameBytes) {}
  // Stored samples of frame k (storedType() layout, native byte order).
  const void* frame(std::size_t k) const { return samples_.data() + k * frameBytes_; }

 private:
  std::vector<unsigned char> samples_;
  std::size_t frameBytes_;
};

// Decodes every frame of `path` (`samples` per pixel, interleaved). Throws Error naming the file
// when GDCM cannot read it or the image differs from the header (`rows` x `columns` x `frames`).
Jpeg2000Frames readJpeg2000Frames(const std::string& path, std::size_t rows, std::size_t columns,
                                  std::size_t frames, const DicomSampleFormat& format,
                                  unsigned samples = 1);

}  // namespace delineate::core
