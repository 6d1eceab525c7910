#pragma once
// The attributes of one DICOM image file that the scanner and the loader need, parsed once from
// DCMTK's dataset: identity, the image pixel description, per-frame geometry and rescale.
// Internal to core/io; DCMTK types stay out of this header.
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/io/DicomFrameSplit.h"
#include "core/io/DicomPalette.h"
#include "core/model/ImageGeometry.h"
#include "core/model/VolumeInfo.h"

class DcmItem;

namespace delineate::core {

struct DicomFrameHeader {
  std::optional<Vec3> position;                       // ImagePositionPatient
  std::optional<std::array<double, 6>> orientation;   // row cosines, then column cosines
  std::optional<std::array<double, 2>> pixelSpacing;  // between rows, between columns (mm)
  double sliceThickness = 0;                          // 0 when absent
  double slope = 1;
  double intercept = 0;
  // Enhanced multi-frame: what the frame's functional groups say of its time, b-value, echo or
  // cardiac phase (merged over the file's own keys by the loader).
  DicomFrameKeys keys;
};

struct DicomFileHeader {
  std::string path;
  std::string transferSyntaxUid;
  std::string transferSyntaxName;

  std::string sopClassUid;
  std::string sopInstanceUid;
  std::string patientName;
  std::string patientId;
  std::string patientBirthDate;
  std::string patientSex;
  std::string studyInstanceUid;
  std::string studyDate;
  std::string studyDescription;
  std::string accessionNumber;
  std::string seriesInstanceUid;
  std::string seriesDescription;
  int seriesNumber = 0;
  std::optional<int> instanceNumber;
  std::string modality;
  std::string frameOfReferenceUid;
  std::string laterality;
  std::string viewPosition;
  // Mammography (DX/MG): the View Code Sequence's code value (CID 4014) when View Position is
  // empty, spot compression / magnification from the View Modifier Code Sequence, Presentation
  // Intent Type ("FOR PRESENTATION" / "FOR PROCESSING") and the acquisition (else content) time.
  std::string viewCode;
  bool spotCompression = false;
  bool magnification = false;
  std::string presentationIntent;
  std::string imageType;  // (0008,0008) as stored, values joined by backslashes (DX/MG only)
  std::string acquisitionTime;
  std::string burnedInAnnotation;  // (0028,0301) upper case, empty when absent

  // Image Pixel module. isImage is false for objects without Rows/Columns (SR, KO, PR, ...).
  bool isImage = false;
  std::size_t rows = 0;
  std::size_t columns = 0;
  std::size_t frames = 1;  // NumberOfFrames, 1 when absent
  unsigned samplesPerPixel = 1;
  unsigned bitsAllocated = 0;
  unsigned bitsStored = 0;
  unsigned highBit = 0;
  bool pixelSigned = false;
  std::string photometric;
  unsigned planarConfiguration = 0;  // 1: colour planes one after another
  // 32: Float Pixel Data (7FE0,0008), 64: Double Float Pixel Data (7FE0,0009); 0: integer
  // Pixel Data (core/io/DicomFloatPixels.h).
  unsigned floatPixelBits = 0;
  // PALETTE COLOR: the red, green and blue tables (core/io/DicomPalette.h); null otherwise.
  std::shared_ptr<const DicomPalette> palette;
  // Cine (US, XA, ...): Frame Time (0018,1063) in ms, else from Cine Rate / Recommended Display
  // Frame Rate; 0 when absent.
  double frameTimeMs = 0;

  double gantryTilt = 0;                 // degrees, GantryDetectorTilt
  double spacingBetweenSlices = 0;       // 0 when absent
  std::vector<double> gridFrameOffsets;  // RT dose style frame offsets along the normal
  // Modality LUT Sequence (0028,3000), first item: stored value `first` maps to table[0]; values
  // below use table.front(), above table.back(). Empty when absent or unreadable.
  struct ModalityLut {
    std::int64_t first = 0;
    unsigned bits = 16;
    std::vector<std::uint16_t> table;
    bool operator==(const ModalityLut&) const = default;
  };
  bool hasModalityLutSequence = false;
  ModalityLut modalityLut;
  bool enhanced = false;       // per-frame functional groups present
  double doseGridScaling = 0;  // RTDOSE Dose Grid Scaling (3004,000E); 0 when absent
  // What could tell apart slices that repeat at one position (a 4-D series).
  DicomFrameKeys frameKeys;
  std::vector<WindowPreset> windows;
  // VOI LUT Function (0028,1056) of the windows ("" = LINEAR) and the VOI LUT Sequence tables,
  // from the dataset or the (shared, else first per-frame) Frame VOI LUT Sequence.
  std::string voiFunction;
  std::vector<VoiLutTable> voiLuts;
  // DX/MG/CR and US: where the in-plane spacing came from ("Pixel Spacing", "Imager Pixel Spacing /
  // magnification 1.08 (at the breast)", ...); empty for other modalities.
  std::string spacingSource;
  // Things read but not used (a malformed VOI LUT table, ...), each naming the file; the loader
  // passes them on to VolumeInfo::warnings.
  std::vector<std::string> warnings;

  // Geometry and rescale shared by all frames; perFrame (empty or one entry per frame) holds the
  // per-frame functional groups of enhanced multi-frame objects merged over the shared ones.
  DicomFrameHeader shared;
  std::vector<DicomFrameHeader> perFrame;

  // Header of frame k (0-based): perFrame[k] when present, else `shared` with a position
  // derived for legacy multi-frame objects (GridFrameOffsetVector, SpacingBetweenSlices).
  DicomFrameHeader frame(std::size_t k) const;
  // Bytes of one uncompressed frame; throws Error(TooLarge) naming the file on overflow.
  std::size_t frameBytes() const;
  // Throws Error naming the file when the header claims more pixel data than a file of
  // `fileBytes` bytes could hold (given its transfer syntax) or than this machine could hold.
  void checkSizeAgainstFile(std::uintmax_t fileBytes) const;
};

// Parses the dataset of `path` (transfer syntax as read). Throws Error(InvalidInput) naming the
// file when an attribute the loader relies on is malformed.
DicomFileHeader parseDicomHeader(DcmItem& dataset, const std::string& transferSyntaxUid,
                                 const std::string& path);

// Reads only the header of `path` (stops before the pixel data). Throws Error naming the file.
DicomFileHeader readDicomHeader(const std::string& path);

// True for the JPEG 2000 transfer syntaxes, which DCMTK cannot decode (GDCM through ITK does).
bool isJpeg2000Syntax(const std::string& transferSyntaxUid);
// True for syntaxes whose pixel data is stored as is (implicit/explicit little/big endian).
bool isNativeSyntax(const std::string& transferSyntaxUid);

// Physical memory of this machine in bytes (max size_t when unknown).
std::size_t physicalMemory();

}  // namespace delineate::core
