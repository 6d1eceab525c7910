#include "core/io/VolumeFileIO.h"

#include <itkImageFileWriter.h>
#include <itkImageIOBase.h>
#include <itkMetaImageIO.h>
#include <itkNiftiImageIO.h>
#include <itkNrrdImageIO.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <limits>

#include "core/Error.h"
#include "core/Text.h"
#include "core/io/AtomicFile.h"
#include "core/io/ItkInit.h"
#include "core/io/ItkView.h"
#include "core/io/Nifti2Reader.h"
#include "core/io/NiftiGzReader.h"
#include "core/io/NiftiHeaderCheck.h"
#include "core/io/NiftiRawReader.h"
#include "core/io/NiftiWriter.h"
#include "core/io/WrittenVolumeCheck.h"
#include "core/model/ColourLuminance.h"
#include "core/model/FrameSeries.h"

namespace delineate::core {

namespace fs = std::filesystem;

namespace {

std::string lowerName(const fs::path& p) {
  std::string s = p.filename().string();
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

ScalarType scalarFromItk(itk::IOComponentEnum c, const std::string& file) {
  using C = itk::IOComponentEnum;
  switch (c) {
    case C::UCHAR:
      return ScalarType::UInt8;
    case C::CHAR:
      return ScalarType::Int8;
    case C::USHORT:
      return ScalarType::UInt16;
    case C::SHORT:
      return ScalarType::Int16;
    case C::UINT:
      return ScalarType::UInt32;
    case C::INT:
      return ScalarType::Int32;
    case C::FLOAT:
      return ScalarType::Float32;
    case C::DOUBLE:
      return ScalarType::Float64;
    default:
      throw Error(ErrorKind::Unsupported, file,
                  "voxel type " + itk::ImageIOBase::GetComponentTypeAsString(c) +
                      " is not supported (8/16/32-bit integers and floats are)");
  }
}

std::size_t physicalMemoryBytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long pageSize = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || pageSize <= 0) {
    return std::numeric_limits<std::size_t>::max();
  }
  return static_cast<std::size_t>(pages) * static_cast<std::size_t>(pageSize);
}

std::string megabytes(std::size_t bytes) {
  return std::to_string(bytes / (1024 * 1024)) + " MiB";
}

// The one ITK reader the file's extension calls for. ITK's factory would ask every registered
// reader in turn whether it can read the file, and one of them (GDCM's) aborts the process on
// some inputs (tests/data/repro/gdcm-assert-abort.nii): a file is only ever probed by its own
// format's reader.
itk::ImageIOBase::Pointer readerForName(const std::string& name, const char** format) {
  if (endsWith(name, ".nii") || endsWith(name, ".nii.gz")) {
    *format = "NIfTI";
    return itk::NiftiImageIO::New().GetPointer();
  }
  if (endsWith(name, ".nrrd") || endsWith(name, ".nhdr")) {
    *format = "NRRD";
    return itk::NrrdImageIO::New().GetPointer();
  }
  if (endsWith(name, ".mha") || endsWith(name, ".mhd")) {
    *format = "MetaImage";
    return itk::MetaImageIO::New().GetPointer();
  }
  return nullptr;
}

}  // namespace

bool isVolumeFile(const fs::path& path) {
  const std::string n = lowerName(path);
  for (const char* ext : {".nii", ".nii.gz", ".nrrd", ".nhdr", ".mha", ".mhd"}) {
    if (endsWith(n, ext)) {
      return true;
    }
  }
  return false;
}

VolumePtr readVolumeFile(const fs::path& path, ProgressSink& progress) {
  ensureItkInitialized();
  const std::string file = path.string();
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    throw Error(ErrorKind::Io, file, "no such file");
  }
  const std::size_t fileBytes = fs::file_size(path, ec);
  progress.report(0.0, "Reading header");
  checkNiftiHeader(path);
  {
    const std::string name = lowerName(path);
    if ((endsWith(name, ".nii") || endsWith(name, ".nii.gz")) && isNifti2File(path)) {
      return readNifti2File(path, progress);  // ITK 5.2 reads NIfTI-1 only
    }
  }
  try {
    const char* format = "";
    itk::ImageIOBase::Pointer io = readerForName(lowerName(path), &format);
    if (!io) {
      throw Error(ErrorKind::Unsupported, file,
                  "unknown image file type (NIfTI .nii/.nii.gz, NRRD .nrrd/.nhdr and MetaImage "
                  ".mha/.mhd are read)");
    }
    if (!io->CanReadFile(file.c_str())) {
      throw Error(ErrorKind::InvalidInput, file,
                  std::string("not a ") + format +
                      " file: its header is not one (damaged, or another format under this name)");
    }
    io->SetFileName(file);
    io->ReadImageInformation();
    const unsigned dims = io->GetNumberOfDimensions();
    // Three unsigned components are a colour image (NIfTI RGB24, NRRD RGB-color, as `convert`
    // writes them); other vectors are refused.
    const unsigned components = io->GetNumberOfComponents();
    const bool colour =
        components == 3 && (io->GetComponentType() == itk::IOComponentEnum::UCHAR ||
                            io->GetComponentType() == itk::IOComponentEnum::USHORT ||
                            io->GetComponentType() == itk::IOComponentEnum::UINT);
    if (components != 1 && !colour) {
      throw Error(ErrorKind::Unsupported, file,
                  std::to_string(components) +
                      " components per voxel; scalar and RGB images are supported");
    }
    if (dims < 2) {
      throw Error(ErrorKind::InvalidInput, file, "fewer than 2 dimensions");
    }
    // A fourth axis of more than one sample makes a 4-D image (frames); a fifth is refused.
    const std::size_t frames = dims >= 4 ? io->GetDimensions(3) : 1;
    for (unsigned a = 4; a < dims; ++a) {
      if (io->GetDimensions(a) > 1) {
        throw Error(ErrorKind::Unsupported, file,
                    std::to_string(dims) + "-D image with " + std::to_string(io->GetDimensions(a)) +
                        " samples along axis " + std::to_string(a) +
                        "; images of up to 4 dimensions (3-D and frames) are read");
      }
    }
    if (frames == 0) {
      throw Error(ErrorKind::InvalidInput, file, "the image has 0 frames");
    }
    const ScalarType type = scalarFromItk(io->GetComponentType(), file);

    ImageGeometry g;
    for (unsigned a = 0; a < 3; ++a) {
      if (a < dims) {
        g.size[a] = io->GetDimensions(a);
        g.spacing[a] = io->GetSpacing(a);
        g.origin[a] = io->GetOrigin(a);
        const std::vector<double> d = io->GetDirection(a);
        for (unsigned r = 0; r < 3; ++r) {
          g.direction[3 * r + a] = r < d.size() ? d[r] : (r == a ? 1.0 : 0.0);
        }
      } else {
        g.size[a] = 1;
      }
      if (g.size[a] == 0) {
        throw Error(ErrorKind::InvalidInput, file, "an image dimension is 0");
      }
      if (!(g.spacing[a] > 0) || !std::isfinite(g.spacing[a])) {
        g.spacing[a] = 1.0;
      }
    }
    if (dims == 2) {
      const Vec3 n = cross(g.axis(0), g.axis(1));
      for (int r = 0; r < 3; ++r) {
        g.direction[3 * r + 2] = n[r];
      }
    }

    // Overflow-checked size, capped by what the file could hold and by the machine's memory.
    const std::size_t frameVoxels = g.voxelCount();
    if (frameVoxels > std::numeric_limits<std::size_t>::max() / frames) {
      throw Error(ErrorKind::TooLarge, file, "header sizes overflow");
    }
    const std::size_t count = frameVoxels * frames;
    const std::size_t elem = scalarSize(type) * components;
    if (count > std::numeric_limits<std::size_t>::max() / elem) {
      throw Error(ErrorKind::TooLarge, file, "header sizes overflow");
    }
    const std::size_t bytes = count * elem;
    const std::string name = lowerName(path);
    const bool detached = endsWith(name, ".nhdr") || endsWith(name, ".mhd");
    // deflate cannot compress better than ~1032:1; an uncompressed .nii holds its voxels verbatim.
    const bool rawNifti = endsWith(name, ".nii");
    const double maxRatio = rawNifti ? 1.0 : 1100.0;
    const double needed = static_cast<double>(bytes) + (rawNifti ? 352.0 : 0.0);
    if (!detached && needed > maxRatio * static_cast<double>(fileBytes)) {
      throw Error(ErrorKind::InvalidInput, file,
                  "header claims " + std::to_string(g.size[0]) + "x" + std::to_string(g.size[1]) +
                      "x" + std::to_string(g.size[2]) +
                      (frames > 1 ? "x" + std::to_string(frames) : std::string()) + " voxels (" +
                      megabytes(bytes) + ") but the file holds only " + std::to_string(fileBytes) +
                      " bytes: truncated or corrupt");
    }
    if (bytes > physicalMemoryBytes() / 10 * 8) {
      throw Error(ErrorKind::TooLarge, file,
                  "image needs " + megabytes(bytes) + ", more than this machine's memory");
    }

    progress.throwIfCancelled();
    progress.report(0.05, "Reading voxels");
    std::shared_ptr<VoxelBuffer> voxels;
    std::string encoding = io->GetNameOfClass();
    std::shared_ptr<VoxelBuffer> rgb;
    if (colour) {
      rgb = std::make_shared<VoxelBuffer>(type, 3 * count);
    } else if (endsWith(name, ".nii.gz") && io->GetByteOrder() != itk::IOByteOrderEnum::BigEndian) {
      voxels = readNiftiGzVoxels(path, type, count, progress);
      encoding = "NIfTI-1 (gzip, ISA-L)";
    } else if (rawNifti && io->GetByteOrder() != itk::IOByteOrderEnum::BigEndian) {
      voxels = readNiftiRawVoxels(path, type, count, progress);  // one copy, not ITK's two
      encoding = "NIfTI-1";
    }
    if (!voxels) {
      voxels = rgb ? rgb : std::make_shared<VoxelBuffer>(type, count);
      itk::ImageIORegion region(dims);
      for (unsigned a = 0; a < dims; ++a) {
        region.SetIndex(a, 0);
        region.SetSize(a, io->GetDimensions(a));
      }
      io->SetIORegion(region);
      io->Read(voxels->data());
      encoding = io->GetNameOfClass();
    }
    if (rgb) {
      voxels = colourLuminanceOf(*rgb);  // the voxel values; the channels are shown
    }
    progress.report(1.0, "Done");

    VolumeInfo info;
    info.modality = "OT";
    info.sourcePath = file;
    info.seriesDescription = path.filename().string();
    info.transferSyntax = encoding;
    if (frames > 1) {
      FrameAxis axis =
          niftiFrameAxis(frames, dims >= 4 ? io->GetSpacing(3) : 0.0, niftiTimeUnit(path));
      return FrameSeries::make(g, std::move(voxels), frames, std::move(axis), std::move(info),
                               std::move(rgb))
          ->frame(0);
    }
    return std::make_shared<const Volume>(g, std::move(voxels), std::move(info), std::move(rgb));
  } catch (const itk::ExceptionObject& e) {
    std::string what = e.GetDescription();
    while (!what.empty() && std::isspace(static_cast<unsigned char>(what.back()))) {
      what.pop_back();
    }
    throw Error(ErrorKind::InvalidInput, file, "cannot read image: " + what);
  }
}

namespace {
// Writes an ITK image (scalar or RGB) through the IO the extension picks.
template <class ImagePointer>
void writeItk(const ImagePointer& image, const fs::path& path, bool compress) {
  using ImageType = typename ImagePointer::ObjectType;
  auto writer = itk::ImageFileWriter<ImageType>::New();
  writer->SetInput(image);
  writer->SetFileName(path.string());
  writer->SetUseCompression(compress);
  if (compress) {
    // Level 1: ~7x faster than zlib's default for a ~2 % larger file, measured on this stack.
    writer->SetCompressionLevel(1);
  }
  writer->Update();
}
}  // namespace

void writeVolumeFile(const Volume& volume, const fs::path& path, bool compress, bool allFrames) {
  ensureItkInitialized();
  const std::string name = lowerName(path);
  if (endsWith(name, ".nhdr") || endsWith(name, ".mhd")) {
    throw Error(ErrorKind::Unsupported, path.string(),
                "detached-header formats are read-only; write .nrrd, .mha or .nii.gz");
  }
  if (!isVolumeFile(path)) {
    throw Error(ErrorKind::Unsupported, path.string(),
                "unknown output format; use .nii, .nii.gz, .nrrd or .mha");
  }
  if (endsWith(name, ".nii") || endsWith(name, ".nii.gz")) {
    NullProgress quiet;
    writeNiftiFile(volume, path, quiet, allFrames);  // ours: ISA-L deflate, every write checked
    return;
  }
  if (allFrames && volume.info().frames) {
    throw Error(ErrorKind::Unsupported, path.string(),
                "a 4-D image is written as NIfTI (.nii or .nii.gz)");
  }
  const bool gz = endsWith(name, ".gz") || (compress && !endsWith(name, ".nii"));
  const fs::path tmp = temporarySiblingPath(path);
  try {
    if (volume.hasColour()) {
      // R, G, B per voxel (NRRD's RGB-color kind, MetaImage's three channels).
      switch (volume.sharedColour()->type()) {
        case ScalarType::UInt8:
          writeItk(itkColourView<std::uint8_t>(volume), tmp, gz);
          break;
        case ScalarType::UInt16:
          writeItk(itkColourView<std::uint16_t>(volume), tmp, gz);
          break;
        default:
          writeItk(itkColourView<std::uint32_t>(volume), tmp, gz);
          break;
      }
    } else {
      dispatchScalar(volume.scalarType(),
                     [&](auto t) { writeItk(itkImageView<decltype(t)>(volume), tmp, gz); });
    }
  } catch (const itk::ExceptionObject& e) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw Error(ErrorKind::Io, path.string(), std::string("cannot write: ") + e.GetDescription());
  }
  try {
    checkWrittenVolume(
        tmp, volume.hasColour() ? volume.sharedColour()->bytes() : volume.voxels().bytes(), path);
  } catch (const Error&) {
    std::error_code ignored;
    fs::remove(tmp, ignored);
    throw;
  }
  commitAtomically(tmp, path);
}

}  // namespace delineate::core
