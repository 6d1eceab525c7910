#include "ColourFuzzSeeds.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcuid.h>

#include <cstdint>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "core/io/DicomCondition.h"

namespace delineate::fuzz {

namespace {

using core::checkDicom;

struct Seed {
  std::string name;
  std::string photometric;
  unsigned bits = 8;
  unsigned planar = 0;
  unsigned frames = 1;
  std::string modality = "OT";
};

constexpr unsigned kRows = 6, kColumns = 8;

void put(DcmDataset& ds, const DcmTagKey& tag, const std::string& value, const std::string& file) {
  checkDicom(ds.putAndInsertString(tag, value.c_str()), file, "writing a seed attribute");
}

void writeSeed(const std::filesystem::path& folder, const Seed& s) {
  const std::string file = (folder / (s.name + ".dcm")).string();
  DcmFileFormat format;
  DcmDataset& ds = *format.getDataset();
  put(ds, DCM_SOPClassUID, UID_SecondaryCaptureImageStorage, file);
  const std::string id = std::to_string(std::hash<std::string>{}(s.name) % 100000000);
  put(ds, DCM_SOPInstanceUID, "1.2.826.0.1.3680043.10.1." + id, file);
  put(ds, DCM_SeriesInstanceUID, "1.2.826.0.1.3680043.10.2." + id, file);
  put(ds, DCM_Modality, s.modality, file);
  put(ds, DCM_PhotometricInterpretation, s.photometric, file);
  const bool palette = s.photometric == "PALETTE COLOR";
  put(ds, DCM_SamplesPerPixel, palette ? "1" : "3", file);
  if (!palette) {
    put(ds, DCM_PlanarConfiguration, std::to_string(s.planar), file);
  }
  put(ds, DCM_Rows, std::to_string(kRows), file);
  put(ds, DCM_Columns, std::to_string(kColumns), file);
  put(ds, DCM_BitsAllocated, std::to_string(s.bits), file);
  put(ds, DCM_BitsStored, std::to_string(s.bits), file);
  put(ds, DCM_HighBit, std::to_string(s.bits - 1), file);
  put(ds, DCM_PixelRepresentation, "0", file);
  if (s.frames > 1) {
    put(ds, DCM_NumberOfFrames, std::to_string(s.frames), file);
    put(ds, DCM_FrameTime, "40", file);
  }
  const bool subsampled = s.photometric == "YBR_FULL_422";
  const std::size_t samples =
      palette ? 1 : (subsampled ? 2 : 3);  // 4:2:2 as stored: 2 samples a pixel on average
  const std::size_t count = kRows * kColumns * samples * s.frames;
  if (s.bits == 8) {
    std::vector<Uint8> pixels(count);
    for (std::size_t i = 0; i < count; ++i) {
      pixels[i] = static_cast<Uint8>(i * 7);
    }
    checkDicom(ds.putAndInsertUint8Array(DCM_PixelData, pixels.data(), pixels.size()), file,
               "writing PixelData");
  } else {
    std::vector<Uint16> pixels(count);
    for (std::size_t i = 0; i < count; ++i) {
      pixels[i] = static_cast<Uint16>(i * 997);
    }
    checkDicom(ds.putAndInsertUint16Array(DCM_PixelData, pixels.data(), pixels.size()), file,
               "writing PixelData");
  }
  if (palette) {
    const DcmTagKey descriptors[3] = {DCM_RedPaletteColorLookupTableDescriptor,
                                      DCM_GreenPaletteColorLookupTableDescriptor,
                                      DCM_BluePaletteColorLookupTableDescriptor};
    const DcmTagKey plain[3] = {DCM_RedPaletteColorLookupTableData,
                                DCM_GreenPaletteColorLookupTableData,
                                DCM_BluePaletteColorLookupTableData};
    const DcmTagKey segmented[3] = {DCM_SegmentedRedPaletteColorLookupTableData,
                                    DCM_SegmentedGreenPaletteColorLookupTableData,
                                    DCM_SegmentedBluePaletteColorLookupTableData};
    const bool isSegmented = s.name.find("segmented") != std::string::npos;
    for (int c = 0; c < 3; ++c) {
      const Uint16 descriptor[3] = {16, 0, 16};
      checkDicom(ds.putAndInsertUint16Array(descriptors[c], descriptor, 3), file, "descriptor");
      if (isSegmented) {
        // A discrete start, a linear ramp and an indirect copy of the first segment.
        const Uint16 items[] = {0, 2, 0, 100, 1, 12, static_cast<Uint16>(9000 * (c + 1)),
                                2, 1, 0, 0};
        checkDicom(ds.putAndInsertUint16Array(segmented[c], items, std::size(items)), file,
                   "segmented table");
      } else {
        std::vector<Uint16> table(16);
        for (std::size_t i = 0; i < table.size(); ++i) {
          table[i] = static_cast<Uint16>(i * 4000 / (c + 1));
        }
        checkDicom(ds.putAndInsertUint16Array(plain[c], table.data(), table.size()), file, "table");
      }
    }
  }
  checkDicom(format.saveFile(file.c_str(), EXS_LittleEndianExplicit), file, "writing the seed");
}

}  // namespace

void writeColourSeeds(const std::filesystem::path& folder) {
  std::filesystem::create_directories(folder);
  for (const Seed& s :
       {Seed{"colour_rgb", "RGB"}, Seed{"colour_rgb_planar", "RGB", 8, 1},
        Seed{"colour_rgb16", "RGB", 16}, Seed{"colour_ybr_full", "YBR_FULL"},
        Seed{"colour_ybr_422", "YBR_FULL_422"}, Seed{"colour_cine", "RGB", 8, 0, 3, "US"},
        Seed{"colour_palette", "PALETTE COLOR"},
        Seed{"colour_palette_segmented", "PALETTE COLOR"}}) {
    writeSeed(folder, s);
  }
}

}  // namespace delineate::fuzz
