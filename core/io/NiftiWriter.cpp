#include "core/io/NiftiWriter.h"

#include <fcntl.h>
#include <isa-l/igzip_lib.h>
#include <nifti1.h>
#include <nifti1_io.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

#include "core/Error.h"
#include "core/io/AtomicFile.h"
#include "core/model/FrameSeries.h"

namespace delineate::core {

namespace {

constexpr std::size_t kVoxOffset = 352;        // the header and four bytes of extension flag
constexpr std::size_t kNifti2VoxOffset = 544;  // NIfTI-2: 540 bytes of header, then the same
constexpr std::size_t kWriteSlab = 4u << 20;   // bytes of voxels between progress reports
constexpr std::size_t kOutBuffer = 1u << 20;   // compressed bytes gathered before a write

std::pair<short, short> niftiType(ScalarType t) {  // datatype, bitpix
  switch (t) {
    case ScalarType::UInt8:
      return {NIFTI_TYPE_UINT8, 8};
    case ScalarType::Int8:
      return {NIFTI_TYPE_INT8, 8};
    case ScalarType::UInt16:
      return {NIFTI_TYPE_UINT16, 16};
    case ScalarType::Int16:
      return {NIFTI_TYPE_INT16, 16};
    case ScalarType::UInt32:
      return {NIFTI_TYPE_UINT32, 32};
    case ScalarType::Int32:
      return {NIFTI_TYPE_INT32, 32};
    case ScalarType::Float32:
      return {NIFTI_TYPE_FLOAT32, 32};
    case ScalarType::Float64:
      return {NIFTI_TYPE_FLOAT64, 64};
  }
  return {0, 0};
}

// The NIfTI-1 header of `volume`; with `wide` (a NIfTI-2 file to come) axes over 32767 voxels
// are allowed and left at 0 here (the NIfTI-2 header takes the true sizes).
nifti_1_header headerFor(const Volume& volume, bool wide = false) {
  nifti_1_header h{};
  const ImageGeometry& g = volume.geometry();
  h.sizeof_hdr = 348;
  h.dim[0] = 3;
  for (int a = 0; a < 3; ++a) {
    if (wide && g.size[std::size_t(a)] > 32767) {
      continue;
    }
    if (g.size[std::size_t(a)] > 32767) {
      throw Error(ErrorKind::TooLarge, {},
                  "NIfTI-1 holds at most 32767 voxels along an axis, not " +
                      std::to_string(g.size[std::size_t(a)]));
    }
    h.dim[a + 1] = static_cast<short>(g.size[std::size_t(a)]);
  }
  for (int a = 4; a < 8; ++a) {
    h.dim[a] = 1;
  }
  std::tie(h.datatype, h.bitpix) = niftiType(volume.scalarType());
  h.vox_offset = float(kVoxOffset);
  h.xyzt_units = NIFTI_UNITS_MM | NIFTI_UNITS_SEC;
  h.qform_code = NIFTI_XFORM_SCANNER_ANAT;
  h.sform_code = NIFTI_XFORM_SCANNER_ANAT;
  // descrip stays empty: files that leave the machine must carry no free text (de-identification).
  std::memcpy(h.magic, "n+1", 4);
  // LPS (ours, ITK's, DICOM's) to RAS (NIfTI's): x and y change sign.
  const double flip[3] = {-1, -1, 1};
  mat44 m{};
  for (int row = 0; row < 3; ++row) {
    for (int axis = 0; axis < 3; ++axis) {
      m.m[row][axis] = float(flip[row] * g.direction[std::size_t(row * 3 + axis)] *
                             g.spacing[std::size_t(axis)]);
    }
    m.m[row][3] = float(flip[row] * g.origin[std::size_t(row)]);
  }
  m.m[3][3] = 1;
  for (int axis = 0; axis < 4; ++axis) {
    h.srow_x[axis] = m.m[0][axis];
    h.srow_y[axis] = m.m[1][axis];
    h.srow_z[axis] = m.m[2][axis];
  }
  float dx = 0, dy = 0, dz = 0, qfac = 1;
  nifti_mat44_to_quatern(m, &h.quatern_b, &h.quatern_c, &h.quatern_d, &h.qoffset_x, &h.qoffset_y,
                         &h.qoffset_z, &dx, &dy, &dz, &qfac);
  h.pixdim[0] = qfac;
  for (int a = 0; a < 3; ++a) {
    h.pixdim[a + 1] = float(g.spacing[std::size_t(a)]);
  }
  return h;
}

template <class T>
void put(unsigned char* out, std::size_t offset, T value) {
  std::memcpy(out + offset, &value, sizeof(T));
}

// The 540-byte NIfTI-2 header (and the 4 extension-flag bytes) with the content of `h` and the
// true sizes `dims` (dims[0] the number of dimensions).
std::vector<unsigned char> nifti2Header(const nifti_1_header& h,
                                        const std::array<std::int64_t, 8>& dims) {
  std::vector<unsigned char> out(kNifti2VoxOffset, 0);
  unsigned char* b = out.data();
  put<std::int32_t>(b, 0, 540);
  std::memcpy(b + 4, "n+2\0\r\n\032\n", 8);
  put<std::int16_t>(b, 12, h.datatype);
  put<std::int16_t>(b, 14, h.bitpix);
  for (int i = 0; i < 8; ++i) {
    put<std::int64_t>(b, 16 + 8 * std::size_t(i), dims[std::size_t(i)]);
    put<double>(b, 104 + 8 * std::size_t(i), h.pixdim[i]);
  }
  put<std::int64_t>(b, 168, static_cast<std::int64_t>(kNifti2VoxOffset));
  put<double>(b, 176, h.scl_slope);
  put<double>(b, 184, h.scl_inter);
  put<std::int32_t>(b, 344, h.qform_code);
  put<std::int32_t>(b, 348, h.sform_code);
  const float q[6] = {h.quatern_b, h.quatern_c, h.quatern_d, h.qoffset_x, h.qoffset_y, h.qoffset_z};
  for (int i = 0; i < 6; ++i) {
    put<double>(b, 352 + 8 * std::size_t(i), q[i]);
  }
  for (int i = 0; i < 4; ++i) {
    put<double>(b, 400 + 8 * std::size_t(i), h.srow_x[i]);
    put<double>(b, 432 + 8 * std::size_t(i), h.srow_y[i]);
    put<double>(b, 464 + 8 * std::size_t(i), h.srow_z[i]);
  }
  put<std::int32_t>(b, 500, h.xyzt_units);
  put<std::int32_t>(b, 504, h.intent_code);
  return out;  // the four bytes after the header stay 0: no extensions
}

// A file descriptor writing everything or throwing Error naming the target.
class Output {
 public:
  Output(const std::filesystem::path& tmp, std::string target)
      : tmp_(tmp), target_(std::move(target)) {
    fd_ = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) {
      fail("cannot create a temporary file beside it");
    }
  }
  ~Output() {
    if (fd_ >= 0) {
      ::close(fd_);
    }
  }
  void write(const unsigned char* data, std::size_t n) {
    while (n > 0) {
      const ssize_t done = ::write(fd_, data, n);
      if (done < 0 && errno == EINTR) {
        continue;
      }
      if (done <= 0) {
        fail("cannot write");
      }
      data += done;
      n -= std::size_t(done);
    }
  }
  void close() {
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) {
      fail("cannot write");
    }
  }

 private:
  [[noreturn]] void fail(const char* what) const {
    const int e = errno;
    throw Error(ErrorKind::Io, target_, std::string(what) + ": " + std::strerror(e));
  }

  std::filesystem::path tmp_;
  std::string target_;
  int fd_ = -1;
};

// The whole file through ISA-L's deflate, gzip-wrapped.
void writeGzip(Output& out, const std::vector<unsigned char>& header, const unsigned char* voxels,
               std::size_t bytes, ProgressSink& progress) {
  isal_zstream z;
  isal_deflate_init(&z);
  std::vector<std::uint8_t> level(ISAL_DEF_LVL1_DEFAULT);
  z.level = 1;
  z.level_buf = level.data();
  z.level_buf_size = static_cast<std::uint32_t>(level.size());
  z.gzip_flag = IGZIP_GZIP;
  std::vector<unsigned char> buffer(kOutBuffer);
  auto pump = [&](const unsigned char* in, std::size_t n, bool last) {
    z.next_in = const_cast<unsigned char*>(in);
    z.avail_in = static_cast<std::uint32_t>(n);
    z.end_of_stream = last ? 1 : 0;
    do {
      z.next_out = buffer.data();
      z.avail_out = static_cast<std::uint32_t>(buffer.size());
      if (isal_deflate(&z) != COMP_OK) {
        throw Error(ErrorKind::Internal, {}, "the gzip compressor failed");
      }
      out.write(buffer.data(), buffer.size() - z.avail_out);
    } while (z.avail_in > 0 || (last && z.internal_state.state != ZSTATE_END));
  };
  pump(header.data(), header.size(), bytes == 0);
  for (std::size_t done = 0; done < bytes;) {
    progress.throwIfCancelled();
    const std::size_t n = std::min(kWriteSlab, bytes - done);
    pump(voxels + done, n, done + n == bytes);
    done += n;
    progress.report(0.98 * double(done) / double(bytes), "Compressing");
  }
}

void writePlain(Output& out, const std::vector<unsigned char>& header, const unsigned char* voxels,
                std::size_t bytes, ProgressSink& progress) {
  out.write(header.data(), header.size());
  for (std::size_t done = 0; done < bytes;) {
    progress.throwIfCancelled();
    const std::size_t n = std::min(kWriteSlab, bytes - done);
    out.write(voxels + done, n);
    done += n;
    progress.report(0.98 * double(done) / double(bytes), "Writing");
  }
}

}  // namespace

void writeNiftiFile(const Volume& volume, const std::filesystem::path& path, ProgressSink& progress,
                    bool allFrames, bool nifti2) {
  const std::string name = path.filename().string();
  const bool gz = name.size() > 7 && name.compare(name.size() - 7, 7, ".nii.gz") == 0;
  // NIfTI-2 when asked, or when an axis or the frames exceed NIfTI-1's 32767.
  const auto& size = volume.geometry().size;
  const std::size_t frames = allFrames && volume.info().frames ? volume.info().frames->count() : 1;
  const bool wide = nifti2 || frames > 32767 ||
                    std::any_of(size.begin(), size.end(), [](std::size_t n) { return n > 32767; });
  nifti_1_header h;
  try {
    h = headerFor(volume, wide);
  } catch (const Error& e) {
    throw Error(e.kind(), path.string(), e.detail());
  }
  std::array<std::int64_t, 8> dims{3, 1, 1, 1, 1, 1, 1, 1};
  for (std::size_t a = 0; a < 3; ++a) {
    dims[a + 1] = static_cast<std::int64_t>(size[a]);
  }
  const auto* voxels = static_cast<const unsigned char*>(volume.voxels().data());
  std::size_t bytes = volume.voxels().bytes();
  if (allFrames && volume.info().frames) {
    const FrameSeries& series = *volume.info().frames;
    h.dim[0] = 4;
    h.dim[4] = static_cast<short>(std::min<std::size_t>(series.count(), 32767));
    dims[0] = 4;
    dims[4] = static_cast<std::int64_t>(series.count());
    const FrameAxis& axis = series.axis();
    h.pixdim[4] = axis.name == "time" && axis.values.size() > 1
                      ? float(axis.values[1] - axis.values[0])  // seconds (xyzt_units)
                      : 0.0f;
    voxels = static_cast<const unsigned char*>(series.sharedVoxels()->data());
    bytes = series.sharedVoxels()->bytes();
  }
  // Colour: RGB24 (three 8-bit channels interleaved, as our buffer holds them); deeper channels
  // as a vector image (dim[5] = 3, one channel after another, as NIfTI orders them).
  std::vector<unsigned char> planar;
  if (volume.hasColour()) {
    const auto colour = allFrames && volume.info().frames ? volume.info().frames->sharedColour()
                                                          : volume.sharedColour();
    if (colour->type() == ScalarType::UInt8) {
      h.datatype = NIFTI_TYPE_RGB24;
      h.bitpix = 24;
      voxels = static_cast<const unsigned char*>(colour->data());
      bytes = colour->bytes();
    } else {
      std::tie(h.datatype, h.bitpix) = niftiType(colour->type());
      h.dim[0] = 5;
      h.dim[4] = std::max<short>(h.dim[4], 1);
      h.dim[5] = 3;
      dims[0] = 5;
      dims[5] = 3;
      h.intent_code = NIFTI_INTENT_VECTOR;
      const std::size_t size = scalarSize(colour->type());
      const std::size_t n = colour->count() / 3;
      planar.resize(colour->bytes());
      const auto* in = static_cast<const unsigned char*>(colour->data());
      for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t c = 0; c < 3; ++c) {
          std::memcpy(planar.data() + (c * n + i) * size, in + (3 * i + c) * size, size);
        }
      }
      voxels = planar.data();
      bytes = planar.size();
    }
  }
  std::vector<unsigned char> header;
  if (wide) {
    header = nifti2Header(h, dims);
  } else {
    header.assign(kVoxOffset, 0);
    std::memcpy(header.data(), &h, sizeof h);  // then four zero bytes: no extensions
  }
  const std::filesystem::path tmp = temporarySiblingPath(path);
  try {
    Output out(tmp, path.string());
    if (gz) {
      writeGzip(out, header, voxels, bytes, progress);
    } else {
      writePlain(out, header, voxels, bytes, progress);
    }
    out.close();
    progress.throwIfCancelled();
  } catch (...) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw;
  }
  commitAtomically(tmp, path);
  progress.report(1, "Written");
}

}  // namespace delineate::core
