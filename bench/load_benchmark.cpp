// Load time and peak memory of a 512x512x500 CT, ours against the peers, printed as JSON
// (plus listing: `delineate-cli info`'s header-only summary of that folder and of a folder of
// 10 000 small files, against dcm2niix writing only its JSON sidecars, `-b o`):
//   DICOM uncompressed and JPEG-LS: ours vs ITK ImageSeriesReader+GDCM vs dcm2niix vs a bare
//   DCMTK parse of the files (the floor; for JPEG-LS the floor is a single-thread DCMTK decode);
//   .nii.gz: ours vs ITK's reader (zlib) vs a bare libdeflate inflate of the file (the floor).
// Each measurement runs in a fresh child process (so peak RSS is its own); best wall time of
// --repeat runs. Usage: load_benchmark [--dir DIR] [--size 512x512x500] [--repeat 3]
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcrledrg.h>
#include <dcmtk/dcmjpeg/djdecode.h>
#include <dcmtk/dcmjpls/djdecode.h>
#include <fcntl.h>
#include <itkGDCMImageIO.h>
#include <itkGDCMSeriesFileNames.h>
#include <itkImage.h>
#include <itkImageFileReader.h>
#include <itkImageSeriesReader.h>
#include <libdeflate.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ChildProcess.h"
#include "core/io/DicomScanner.h"
#include "core/io/DicomSeriesLoader.h"
#include "core/io/DicomSeriesWriter.h"
#include "core/io/PathLoader.h"
#include "core/io/VolumeFileIO.h"
#include "core/sample/SampleCase.h"

namespace fs = std::filesystem;
using namespace delineate;
using nlohmann::json;

namespace {

std::vector<fs::path> dicomFiles(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.is_regular_file()) {
      files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// --- the measured operations (run inside a child process) ---

std::size_t dcmtkFloor(const fs::path& dir, bool decode) {
  DJDecoderRegistration::registerCodecs();
  DJLSDecoderRegistration::registerCodecs();
  DcmRLEDecoderRegistration::registerCodecs();
  const auto files = dicomFiles(dir);
  std::vector<std::uint16_t> volume;
  std::size_t offset = 0;
  for (const auto& f : files) {
    DcmFileFormat ff;
    if (ff.loadFile(f.c_str()).bad()) {
      continue;
    }
    DcmDataset* ds = ff.getDataset();
    if (decode) {
      ds->chooseRepresentation(EXS_LittleEndianExplicit, nullptr);
    }
    const Uint16* px = nullptr;
    unsigned long n = 0;
    if (ds->findAndGetUint16Array(DCM_PixelData, px, &n).good() && px) {
      if (volume.empty()) {
        volume.resize(n * files.size());
      }
      std::memcpy(volume.data() + offset, px, n * sizeof(Uint16));
      offset += n;
    }
  }
  return offset;
}

std::size_t itkGdcm(const fs::path& dir) {
  auto names = itk::GDCMSeriesFileNames::New();
  names->SetDirectory(dir.string());
  const auto uids = names->GetSeriesUIDs();
  auto reader = itk::ImageSeriesReader<itk::Image<short, 3>>::New();
  reader->SetImageIO(itk::GDCMImageIO::New());
  reader->SetFileNames(names->GetFileNames(uids.front()));
  reader->Update();
  return reader->GetOutput()->GetLargestPossibleRegion().GetNumberOfPixels();
}

std::size_t itkNifti(const fs::path& file) {
  auto reader = itk::ImageFileReader<itk::Image<short, 3>>::New();
  reader->SetFileName(file.string());
  reader->Update();
  return reader->GetOutput()->GetLargestPossibleRegion().GetNumberOfPixels();
}

std::size_t libdeflateFloor(const fs::path& file, std::size_t outBytes) {
  const int fd = ::open(file.c_str(), O_RDONLY);
  struct stat st {};
  ::fstat(fd, &st);
  void* in = ::mmap(nullptr, std::size_t(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  std::vector<unsigned char> out(outBytes + 4096);
  libdeflate_decompressor* d = libdeflate_alloc_decompressor();
  std::size_t got = 0;
  libdeflate_gzip_decompress(d, in, std::size_t(st.st_size), out.data(), out.size(), &got);
  libdeflate_free_decompressor(d);
  ::munmap(in, std::size_t(st.st_size));
  return got;
}

// What `delineate-cli info` does: scan the folder, summarise each series from its headers.
std::size_t oursList(const fs::path& dir) {
  core::NullProgress progress;
  const core::DicomScanResult scan = core::scanDicomFolder(dir, progress);
  std::size_t slices = 0;
  for (const core::DicomSeries* s : scan.allSeries()) {
    const core::DicomSeriesSummary summary = core::summarizeDicomSeries(*s, progress);
    slices += summary.geometry.size[2] * summary.frameCount;
  }
  return slices;
}

std::size_t ours(const fs::path& path) {
  core::NullProgress progress;
  return core::openPath(path, progress).volume->voxels().count();
}

int childMain(const std::string& what, const fs::path& path, std::size_t extra) {
  std::size_t n = 0;
  if (what == "ours") {
    n = ours(path);
  } else if (what == "ours-list") {
    n = oursList(path);
  } else if (what == "dcmtk-parse") {
    n = dcmtkFloor(path, false);
  } else if (what == "dcmtk-decode") {
    n = dcmtkFloor(path, true);
  } else if (what == "itk-gdcm") {
    n = itkGdcm(path);
  } else if (what == "itk-nifti") {
    n = itkNifti(path);
  } else if (what == "libdeflate") {
    n = libdeflateFloor(path, extra);
  }
  return n > 0 ? 0 : 3;
}

using Measurement = bench::ChildRun;

Measurement runChild(const std::vector<std::string>& argv,
                     const std::map<std::string, std::string>& env = {}) {
  return bench::runMeasured(argv, env);
}

Measurement best(int repeat, const std::vector<std::string>& argv,
                 const std::map<std::string, std::string>& env = {}) {
  Measurement b;
  for (int r = 0; r < repeat; ++r) {
    const Measurement m = runChild(argv, env);
    if (r == 0 || (m.ok && m.seconds < b.seconds)) {
      b = m;
    }
  }
  return b;
}

json toJson(const Measurement& m) {
  return json{{"seconds", std::round(m.seconds * 1000) / 1000},
              {"peak_rss_mb", std::round(m.peakMb)},
              {"ok", m.ok}};
}

void prepare(const fs::path& dir, const core::Size3& size) {
  if (fs::exists(dir / ".complete-v2")) {
    if (!fs::exists(dir / "ct.nii")) {
      core::NullProgress quiet;
      core::writeVolumeFile(*core::readVolumeFile(dir / "ct.nii.gz", quiet), dir / "ct.nii");
    }
    return;
  }
  std::fprintf(stderr, "preparing %zux%zux%zu CT in %s ...\n", size[0], size[1], size[2],
               dir.c_str());
  fs::create_directories(dir);
  const auto ct = core::sample::makeAbdomenCt(7, size);
  core::NullProgress progress;
  for (auto [name, syntax] : {std::pair{"ct-raw", core::DicomTransferSyntax::ExplicitLittleEndian},
                              std::pair{"ct-jls", core::DicomTransferSyntax::JpegLsLossless}}) {
    fs::remove_all(dir / name);
    fs::create_directories(dir / name);
    core::DicomWriteOptions options;
    options.syntax = syntax;
    core::writeDicomSeries(*ct.image, dir / name, options, progress);
  }
  core::writeVolumeFile(*ct.image, dir / "ct.nii.gz");
  core::writeVolumeFile(*ct.image, dir / "ct.nii");
  // 10 000 files: 20 series of 500 slices of 64x64.
  const auto small = core::sample::makeAbdomenCt(11, {64, 64, 500});
  for (int series = 0; series < 20; ++series) {
    core::VolumeInfo info = small.image->info();
    info.seriesInstanceUid = "1.2.826.0.1.3680043.10.99." + std::to_string(series + 1);
    info.seriesNumber = series + 1;
    const core::Volume copy(small.image->geometry(),
                            std::const_pointer_cast<core::VoxelBuffer>(small.image->sharedVoxels()),
                            info);
    core::DicomWriteOptions options;
    options.filePrefix = "s" + std::to_string(series) + "_";
    core::writeDicomSeries(copy, dir / "many", options, progress);
  }
  std::FILE* f = std::fopen((dir / ".complete-v2").c_str(), "w");
  std::fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 3 && std::string(argv[1]) == "--child") {
    return childMain(argv[2], argv[3], argc > 4 ? std::stoull(argv[4]) : 0);
  }
  const bench::VolumeBenchArgs args =
      bench::parseVolumeBenchArgs(argc, argv, "delineate-bench-load");
  const fs::path dir = args.dir;
  const core::Size3 size = args.size;
  const int repeat = args.repeat;
  // Prepare in a child too, so this process stays small for the forks that follow.
  bench::runInChild([&] { prepare(dir, size); });
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  const std::size_t rawBytes = size[0] * size[1] * size[2] * 2;
  const double rawMb = double(rawBytes) / (1024.0 * 1024.0);
  auto child = [&](const std::string& what, const fs::path& p) {
    return std::vector<std::string>{self, "--child", what, p.string(),
                                    std::to_string(rawBytes + 352)};
  };
  const bool haveDcm2niix = std::system("command -v dcm2niix >/dev/null 2>&1") == 0;
  const fs::path outTmp = dir / "dcm2niix-out";
  fs::create_directories(outTmp);
  auto dcm2niix = [&](const fs::path& in) {
    return std::vector<std::string>{"dcm2niix",      "-z",       "n", "-f", "bench", "-o",
                                    outTmp.string(), in.string()};
  };
  // dcm2niix's nearest to a listing: parse every header, write only the JSON sidecars.
  auto dcm2niixSidecars = [&](const fs::path& in) {
    return std::vector<std::string>{"dcm2niix",      "-b",       "o", "-f", "%s_%p", "-o",
                                    outTmp.string(), in.string()};
  };

  json results;
  for (const char* series : {"ct-raw", "ct-jls"}) {
    const fs::path in = dir / series;
    json r;
    r["ours"] = toJson(best(repeat, child("ours", in)));
    r["ours_1_thread"] = toJson(best(repeat, child("ours", in), {{"DELINEATE_THREADS", "1"}}));
    r["dcmtk_parse_floor"] = toJson(best(repeat, child("dcmtk-parse", in)));
    r["dcmtk_decode_1_thread"] = toJson(best(repeat, child("dcmtk-decode", in)));
    r["itk_gdcm"] = toJson(best(repeat, child("itk-gdcm", in)));
    if (haveDcm2niix) {
      r["dcm2niix"] = toJson(best(repeat, dcm2niix(in)));
    }
    results[series] = r;
  }
  for (const char* folder : {"ct-raw", "many"}) {
    json r;
    r["ours_info_headers_only"] = toJson(best(repeat, child("ours-list", dir / folder)));
    if (haveDcm2niix) {
      r["dcm2niix_sidecars_only"] = toJson(best(repeat, dcm2niixSidecars(dir / folder)));
    }
    r["files"] = std::distance(fs::recursive_directory_iterator(dir / folder),
                               fs::recursive_directory_iterator{});
    results[std::string("list-") + folder] = r;
  }
  {
    const fs::path in = dir / "ct.nii.gz";
    json r;
    r["ours"] = toJson(best(repeat, child("ours", in)));
    r["itk_nifti_zlib"] = toJson(best(repeat, child("itk-nifti", in)));
    r["libdeflate_floor"] = toJson(best(repeat, child("libdeflate", in)));
    r["file_mb"] = std::round(double(fs::file_size(in)) / (1024.0 * 1024.0));
    results["ct.nii.gz"] = r;
  }
  {
    // Uncompressed: read straight into the voxel buffer (ITK holds a second copy while reading).
    const fs::path in = dir / "ct.nii";
    json r;
    r["ours"] = toJson(best(repeat, child("ours", in)));
    r["itk_nifti"] = toJson(best(repeat, child("itk-nifti", in)));
    results["ct.nii"] = r;
  }
  fs::remove_all(outTmp);

  auto ratio = [&](const char* s, const char* a, const char* b) {
    const double x = results[s][a]["seconds"], y = results[s][b]["seconds"];
    return y > 0 ? std::round(x / y * 100) / 100 : 0.0;
  };
  json ratios{
      {"raw_ours_vs_dcmtk_parse_floor (target <= 1.5)",
       ratio("ct-raw", "ours", "dcmtk_parse_floor")},
      {"raw_ours_vs_itk_gdcm (target < 1)", ratio("ct-raw", "ours", "itk_gdcm")},
      {"raw_ours_vs_dcm2niix (target <= 1)", ratio("ct-raw", "ours", "dcm2niix")},
      {"list_10000_files_ours_vs_dcm2niix_sidecars",
       ratio("list-many", "ours_info_headers_only", "dcm2niix_sidecars_only")},
      {"jls_ours_vs_1_thread_decode (target <= 0.65)",
       ratio("ct-jls", "ours", "dcmtk_decode_1_thread")},
      {"jls_ours_vs_itk_gdcm", ratio("ct-jls", "ours", "itk_gdcm")},
      {"niigz_ours_vs_libdeflate_floor (target <= 1.3)",
       ratio("ct.nii.gz", "ours", "libdeflate_floor")},
      {"niigz_ours_vs_itk", ratio("ct.nii.gz", "ours", "itk_nifti_zlib")},
      {"raw_peak_rss_vs_voxels (target <= 1.3)",
       std::round(double(results["ct-raw"]["ours"]["peak_rss_mb"]) / rawMb * 100) / 100},
      {"jls_peak_rss_vs_voxels (target <= 1.3)",
       std::round(double(results["ct-jls"]["ours"]["peak_rss_mb"]) / rawMb * 100) / 100},
      {"nii_ours_vs_itk", ratio("ct.nii", "ours", "itk_nifti")},
      {"nii_peak_rss_vs_voxels (target <= 1.3)",
       std::round(double(results["ct.nii"]["ours"]["peak_rss_mb"]) / rawMb * 100) / 100},
      {"niigz_peak_rss_vs_voxels (target <= 1.3)",
       std::round(double(results["ct.nii.gz"]["ours"]["peak_rss_mb"]) / rawMb * 100) / 100}};
  json out{{"benchmark", "load"},
           {"volume", {{"size", {size[0], size[1], size[2]}}, {"voxel_mb", std::round(rawMb)}}},
           {"cpus", ::sysconf(_SC_NPROCESSORS_ONLN)},
           {"repeat", repeat},
           {"results", results},
           {"ratios", ratios}};
  std::printf("%s\n", out.dump(2).c_str());
  return 0;
}
