// Writes seed inputs for the fuzzers, all made in code: small DICOM files in every transfer
// syntax (single- and multi-frame content) and colour models (ColourFuzzSeeds.h), NIfTI files,
// MONAI Label server answers (two selector bytes + body, see MonaiResponseFuzzer; among them a
// mammography findings file and a detection model's result) and mammography report SRs (a signed
// report with an addendum, an AI draft). Usage: make_fuzz_seeds <folder>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "ColourFuzzSeeds.h"
#include "core/Error.h"
#include "core/ai/Blosc2Chunk.h"
#include "core/ai/Multipart.h"
#include "core/ai/PackedArray.h"
#include "core/io/DicomSeriesWriter.h"
#include "core/io/VolumeFileIO.h"
#include "core/model/FrameSeries.h"
#include "core/report/MammographyReportSr.h"

using namespace delineate::core;
namespace fs = std::filesystem;

namespace {

// One MonaiResponseFuzzer input: content-type selector, status selector, body.
void writeMonaiSeed(const fs::path& file, char contentType, char status, const std::string& body) {
  std::ofstream out(file, std::ios::binary);
  out << contentType << status << body;
}

void writeMonaiSeeds(const fs::path& folder) {
  fs::create_directories(folder);
  const std::string params =
      R"({"label_names": {"spleen": 1, "background": 0}, "latencies": {"pre": 0.5, )"
      R"("infer": 2.25, "invert": 0.1, "post": 0.2, "write": "0.05", "total": 3.1}})";
  const std::string image("\x1f\x8b\x08\0\0\0\0\0\0\x03\r\n--x\0", 15);
  for (const auto& [selector, boundary] :
       {std::pair<char, std::string>{0, "b"}, {1, "0123456789abcdef0123456789abcdef"}}) {
    ai::MultipartEncoder encoder(boundary);
    encoder.addField("params", params);
    encoder.addFile("image", "tmpk2j4.nii.gz", image + "x");
    writeMonaiSeed(folder / ("multipart" + std::to_string(selector)), selector, 0,
                   encoder.finish());
  }
  writeMonaiSeed(folder / "multipart-lf", 2, 0,
                 "multipart/form-data; Boundary=\"q\"\npreamble\n--q\nContent-Disposition: "
                 "form-data; filename=r.nrrd; name=image\nContent-Type: application/octet-stream"
                 "\n\nNRRD0004\n--q\ncontent-disposition: form-data; name=\"params\"\n\n" +
                     params + "\n--q--\nepilogue");
  writeMonaiSeed(folder / "params", 3, 0, params);
  // DICOMweb answers: a QIDO-RS study as Orthanc writes it, and a STOW-RS answer with one
  // stored and one failed instance.
  writeMonaiSeed(folder / "qido-study", 3, 0,
                 R"([{"00080061": {"vr": "CS", "Value": ["CT", "SEG"]}, "00100010": {"vr": "PN", )"
                 R"("Value": [{"Alphabetic": "DOE^JOHN"}]}, "0020000D": {"vr": "UI", "Value": )"
                 R"(["1.2.3"]}, "00201206": {"vr": "IS", "Value": [2]}, "00201208": {"vr": "IS", )"
                 R"("Value": ["42"]}, "00080018": {"vr": "UI", "Value": ["1.2.3.4"]}, )"
                 R"("0020000E": {"vr": "UI", "Value": ["1.2.3.5"]}}])");
  writeMonaiSeed(folder / "stow-answer", 3, 1,
                 R"({"00081199": {"vr": "SQ", "Value": [{"00081155": {"vr": "UI", "Value": )"
                 R"(["1.1"]}}]}, "00081198": {"vr": "SQ", "Value": [{"00081155": {"vr": "UI", )"
                 R"("Value": ["1.2"]}, "00081197": {"vr": "US", "Value": [42752]}}]}})");
  // Returned labels on the 8x8x4 grid the harness reads them onto, gzipped and plain.
  for (const char* name : {"label.nii.gz", "label.nii"}) {
    ImageGeometry g;
    g.size = {8, 8, 4};
    auto voxels = std::make_shared<VoxelBuffer>(ScalarType::UInt8, g.voxelCount());
    voxels->as<std::uint8_t>()[37] = 1;
    const fs::path file = folder / name;
    writeVolumeFile(Volume(g, voxels, {}), file);
    std::ifstream in(file, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), {});
    fs::remove(file);
    writeMonaiSeed(folder / ("returned-" + std::string(name)), 4, 0, bytes);
  }
  writeMonaiSeed(folder / "image", 4, 0, image);
  writeMonaiSeed(folder / "info", 3, 0,
                 R"({"name": "radiology", "version": "0.8.1", "labels": ["a", "b"], "models": )"
                 R"({"seg": {"type": "segmentation", "labels": {"spleen": 1}, "dimension": 3, )"
                 R"("config": {"device": ["cuda", "cpu"], "largest_cc": true}}, "dg": {"type": )"
                 R"("deepgrow", "labels": [], "dimension": 2}}, "trainers": {"seg": {"config": )"
                 R"({"max_epochs": 50}}}, "strategies": {"random": {"description": "r"}}, )"
                 R"("datastore": {"total": 4, "completed": 2, "label_tags": {"final": 2}}})");
  writeMonaiSeed(folder / "aiaa-models", 3, 0,
                 R"([{"name": "clara_ct_annotation_spleen", "type": "annotation", )"
                 R"("labels": ["spleen"], "padding": 20, "roi": [128, 128, 128], "sigma": 3}, )"
                 R"({"name": "dg", "type": "deepgrow", "deepgrow": "2D", "labels": []}])");
  writeMonaiSeed(folder / "hanging", 3, 0,
                 "{\"protocols\": [\n {\"id\": \"x\", \"rows\": 1, \"columns\": 2, "
                 "\"viewports\": [\n  {\"laterality\": \"R\", \"view\": \"CC\"},\n  "
                 "{\"laterality\": \"L\", \"view\": \"MLO\", \"study\": \"prior\", "
                 "\"chestWall\": \"left\"}]}],\n \"sequence\": [\"x\", \"mammo-4up\"]}");
  writeMonaiSeed(folder / "findings", 3, 0,
                 "{\"format\": \"delineate-mammo-findings\", \"version\": 1, \"source\": "
                 "\"d\",\n \"demonstration\": true, \"riskScore\": 0.5, \"images\": [\n"
                 " {\"imageId\": \"1.2\", \"marks\": [{\"kind\": \"mass\", \"column\": 3, "
                 "\"row\": 4.5, \"score\": 0.75, \"box\": [1, 2, 5, 7]}],\n  \"heatmap\": "
                 "{\"columns\": 2, \"rows\": 1, \"step\": 8, \"encoding\": \"base64-float32le\", "
                 "\"values\": \"AAAAAAAAgD8=\"}},\n {\"imageId\": \"1.3\", \"heatmap\": "
                 "{\"columns\": 1, \"rows\": 2, \"values\": [0.25, 1]}}]}");
  writeMonaiSeed(folder / "detection", 3, 0,
                 R"({"boxes": [[10, 20, 50, 60], [5.5, 6, 1, 2]], "scores": [0.9, 0.25], )"
                 R"("labels": [1, "calcification"], "label_names": {"mass": 1}, )"
                 R"("probability": [0.3, 0.7]})");
  writeMonaiSeed(folder / "error500", 6, 11, "Internal Server Error");
  writeMonaiSeed(folder / "error429", 3, 9,
                 R"({"detail": "++++++++++ Train Task is Already Running"})");
  writeMonaiSeed(folder / "error422", 3, 8,
                 R"({"detail": [{"loc": ["query", "output"], "msg": "bad", "type": "t"}]})");
  writeMonaiSeed(folder / "error440", 5, 10,
                 R"({"error": {"message": ["Session expired"], "type": "X"}, "success": false})");
}

// Mammography report SRs for SrDocumentFuzzer: every coded BI-RADS item, text items, an addendum.
// A small NIfTI-2 file (540-byte header, 64-bit sizes): 4x3x2 int16 voxels, 2 frames 0.5 s apart,
// qform and sform set, as nibabel writes one.
void writeNifti2Seed(const fs::path& file) {
  std::string h(544, '\0');  // the header, then four zero bytes: no extensions
  auto put = [&](std::size_t offset, auto value) { std::memcpy(&h[offset], &value, sizeof value); };
  put(0, std::int32_t{540});
  std::memcpy(&h[4], "n+2\0\r\n\032\n", 8);
  put(12, std::int16_t{4});   // datatype int16
  put(14, std::int16_t{16});  // bitpix
  const std::int64_t dims[8] = {4, 4, 3, 2, 2, 1, 1, 1};
  const double pixdim[8] = {1, 0.8, 0.9, 2.5, 0.5, 0, 0, 0};
  for (int i = 0; i < 8; ++i) {
    put(16 + 8 * i, dims[i]);
    put(104 + 8 * i, pixdim[i]);
  }
  put(168, std::int64_t{544});  // vox_offset
  put(176, 1.0);                // scl_slope
  put(344, std::int32_t{1});    // qform_code
  put(348, std::int32_t{1});    // sform_code
  put(376, -10.0);              // qoffset_x
  const double srow[12] = {0.8, 0, 0, -10, 0, 0.9, 0, 20, 0, 0, 2.5, 30};
  for (int i = 0; i < 12; ++i) {
    put(400 + 8 * i, srow[i]);
  }
  put(500, std::int32_t{2 | 8});  // mm, s
  std::ofstream out(file, std::ios::binary);
  out.write(h.data(), static_cast<std::streamsize>(h.size()));
  for (std::int16_t v = 0; v < 4 * 3 * 2 * 2; ++v) {
    out.write(reinterpret_cast<const char*>(&v), sizeof v);
  }
}

void writeSrSeeds(const fs::path& folder) {
  using namespace report;
  fs::create_directories(folder);
  MammographyContent draft;
  MammoFinding& mass = draft.addFinding();
  mass.kind = ReportField<FindingKind>::proposed(FindingKind::Mass);
  mass.laterality = ReportField<mammo::Laterality>::proposed(mammo::Laterality::Left);
  mass.clockPosition = ReportField<int>::proposed(2);
  mass.depth = ReportField<Depth>::proposed(Depth::Middle);
  mass.sizeMm = ReportField<double>::proposed(9.5);
  mass.aiScore = 0.8;
  MammoFinding& calc = draft.addFinding();
  calc.kind = ReportField<FindingKind>::proposed(FindingKind::Calcification);
  calc.laterality = ReportField<mammo::Laterality>::proposed(mammo::Laterality::Right);
  draft.assessmentOverall =
      ReportField<AssessmentCategory>::proposed(AssessmentCategory::Incomplete);
  draft.impression = ReportField<std::string>::proposed("Demonstration findings.");
  MammographyReport ai = MammographyReport::fromAiDraft(draft, {"demo", true, 0.6});
  ai.setSubject({"Seed^Patient", "S1", "19600101", "1.2.3.4.5", "A1"});
  writeMammographyReportSr(ai, {}, folder / "mammo-draft.dcm");

  MammographyReport r = ai;
  r.edit("reader", "2024-05-02T09:00:00Z", [](MammographyContent& c) {
    acceptAllProposals(c);
    c.composition.set(BreastComposition::B);
    c.findings[0].massShape.set(MassShape::Oval);
    c.findings[0].massMargin.set(MassMargin::Obscured);
    c.findings[0].massDensity.set(MassDensity::Low);
    c.findings[1].calcificationMorphology.set(CalcificationMorphology::Amorphous);
    c.findings[1].calcificationDistribution.set(CalcificationDistribution::Linear);
    MammoFinding& other = c.addFinding();
    other.kind.set(FindingKind::Other);
    other.description.set("Skin lesion");
    other.laterality.set(mammo::Laterality::Right);
    c.assessmentRight.set(AssessmentCategory::ProbablyBenign);
    c.assessmentLeft.set(AssessmentCategory::KnownMalignancy);
    c.management.set("Surgical excision");
  });
  r.sign("Dr Seed", "2024-05-02T09:30:00Z");
  r.addAddendum("Addendum text.", "Dr Seed", "2024-05-03T10:00:00Z");
  writeMammographyReportSr(r, {}, folder / "mammo-signed.dcm");
}

}  // namespace

// Packed arrays as nnInteractive sends them (mode byte first: even = array, odd = bare chunk):
// an int16 image with SHUFFLE, a uint8 mask, an all-zero buffer, an LZ4 float image.
void writePackedArraySeeds(const fs::path& folder) {
  fs::create_directories(folder);
  auto write = [&](const std::string& name, char mode, const std::string& bytes) {
    std::ofstream(folder / name, std::ios::binary) << mode << bytes;
  };
  std::string image(2 * 6 * 5 * 4, '\0');
  for (std::size_t n = 0; n < image.size(); ++n) {
    image[n] = static_cast<char>((n * 7) % 13);
  }
  const std::vector<std::int64_t> shape4{1, 4, 5, 6}, shape3{4, 5, 6};
  auto span = [](const std::string& s) {
    return std::span(reinterpret_cast<const std::byte*>(s.data()), s.size());
  };
  write("image-int16", 0,
        delineate::core::ai::packArray(delineate::core::ai::NpDtype::Int16, shape4, span(image),
                                       delineate::core::ai::Blosc2Codec::Zstd, true));
  std::string mask(120, '\0');
  std::fill(mask.begin() + 40, mask.begin() + 70, '\1');
  write("mask-uint8", 0,
        delineate::core::ai::packArray(delineate::core::ai::NpDtype::UInt8, shape3, span(mask)));
  write("zeros", 0,
        delineate::core::ai::packArray(delineate::core::ai::NpDtype::UInt8, shape3,
                                       span(std::string(120, '\0'))));
  std::string floats(4 * 120, '\0');
  for (std::size_t n = 0; n < 120; ++n) {
    const float v = 100.0f + float(n % 17);
    std::memcpy(floats.data() + 4 * n, &v, 4);
  }
  write("float-lz4", 2,
        delineate::core::ai::packArray(delineate::core::ai::NpDtype::Float32, shape3, span(floats),
                                       delineate::core::ai::Blosc2Codec::Lz4, true));
  delineate::core::ai::Blosc2Options o;
  o.typesize = 4;
  o.shuffle = true;
  write("chunk-shuffle", 1, delineate::core::ai::encodeBlosc2Chunk(span(floats), o));
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <seed folder>\n", argv[0]);
    return 2;
  }
  const fs::path root = argv[1];
  try {
    ImageGeometry g;
    g.size = {9, 7, 2};
    g.spacing = {0.8, 0.7, 2.5};
    g.origin = {-3, 4, 5};
    auto voxels = std::make_shared<VoxelBuffer>(ScalarType::Int16, g.voxelCount());
    for (std::size_t n = 0; n < voxels->count(); ++n) {
      voxels->as<std::int16_t>()[n] = static_cast<std::int16_t>(static_cast<int>(n * 37) - 900);
    }
    VolumeInfo info;
    info.modality = "CT";
    info.seriesInstanceUid = "1.2.3.4";
    info.windows = {{"W", 40, 400}};
    const Volume ct(g, voxels, info);
    NullProgress progress;
    for (auto syntax :
         {DicomTransferSyntax::ImplicitLittleEndian, DicomTransferSyntax::ExplicitLittleEndian,
          DicomTransferSyntax::ExplicitBigEndian, DicomTransferSyntax::DeflatedExplicitLittleEndian,
          DicomTransferSyntax::Rle, DicomTransferSyntax::JpegLossless,
          DicomTransferSyntax::JpegLsLossless}) {
      DicomWriteOptions options;
      options.syntax = syntax;
      options.filePrefix = "ts" + std::to_string(static_cast<int>(syntax)) + "_";
      writeDicomSeries(ct, root / "dicom", options, progress);
    }
    auto bytes = std::make_shared<VoxelBuffer>(ScalarType::UInt8, g.voxelCount());
    for (std::size_t n = 0; n < bytes->count(); ++n) {
      bytes->as<std::uint8_t>()[n] = static_cast<std::uint8_t>(n * 3);
    }
    VolumeInfo mg;
    mg.modality = "OT";
    mg.photometric = "MONOCHROME1";
    const Volume eight(g, bytes, mg);
    DicomWriteOptions jpeg;
    jpeg.syntax = DicomTransferSyntax::JpegBaseline;
    jpeg.filePrefix = "jpeg_";
    writeDicomSeries(eight, root / "dicom", jpeg, progress);
    delineate::fuzz::writeColourSeeds(root / "dicom");

    fs::create_directories(root / "nifti");
    writeVolumeFile(ct, root / "nifti" / "ct.nii");
    writeVolumeFile(eight, root / "nifti" / "mg.nii");
    {
      // A 4-D image (two frames of the 8-bit grid) and a NIfTI-2 file.
      auto both = std::make_shared<VoxelBuffer>(ScalarType::UInt8, 2 * g.voxelCount());
      std::memcpy(both->data(), bytes->data(), bytes->bytes());
      std::memcpy(static_cast<unsigned char*>(both->data()) + bytes->bytes(), bytes->data(),
                  bytes->bytes());
      const auto series = FrameSeries::make(g, both, 2, FrameAxis{"time", "s", {0, 2}}, mg);
      writeVolumeFile(*series->frame(0), root / "nifti" / "frames.nii", true, /*allFrames=*/true);
      writeNifti2Seed(root / "nifti" / "nifti2.nii");
    }
    // The harness gzips its input itself; uncompressed seeds serve all three of its paths.

    writeMonaiSeeds(root / "monai");
    writePackedArraySeeds(root / "nnia");
    writeSrSeeds(root / "sr");
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
