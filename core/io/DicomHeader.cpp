#include "core/io/DicomHeader.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcelem.h>
#include <dcmtk/dcmdata/dcfilefo.h>
#include <dcmtk/dcmdata/dcitem.h>
#include <dcmtk/dcmdata/dcmetinf.h>
#include <dcmtk/dcmdata/dcsequen.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <dcmtk/dcmdata/dcvr.h>
#include <dcmtk/dcmdata/dcxfer.h>
#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>

#include "core/Error.h"
#include "core/io/DicomCodecs.h"
#include "core/io/DicomColourHeader.h"
#include "core/io/DicomCondition.h"
#include "core/io/DicomFrameKeysReader.h"
#include "core/io/DicomModalityLut.h"
#include "core/io/DicomVoiLut.h"

namespace delineate::core {

namespace {

std::string trim(const OFString& in) {
  std::string s(in.c_str(), in.length());
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) {
    return {};
  }
  const auto last = s.find_last_not_of(" \t\r\n");
  return s.substr(first, last - first + 1);
}

std::string text(DcmItem& item, const DcmTagKey& tag) {
  OFString s;
  if (item.findAndGetOFStringArray(tag, s).bad()) {
    return {};
  }
  return trim(s);
}

std::optional<double> number(DcmItem& item, const DcmTagKey& tag, unsigned long pos = 0) {
  OFString s;
  if (item.findAndGetOFString(tag, s, pos).bad()) {
    return std::nullopt;
  }
  const std::string t = trim(s);
  if (t.empty()) {
    return std::nullopt;
  }
  char* end = nullptr;
  const double v = std::strtod(t.c_str(), &end);
  if (end != t.c_str() + t.size() || !std::isfinite(v)) {
    return std::nullopt;
  }
  return v;
}

template <std::size_t N>
std::optional<std::array<double, N>> numbers(DcmItem& item, const DcmTagKey& tag) {
  std::array<double, N> out{};
  for (std::size_t i = 0; i < N; ++i) {
    const auto v = number(item, tag, i);
    if (!v) {
      return std::nullopt;
    }
    out[i] = *v;
  }
  return out;
}

// Reads an unsigned count attribute; rejects negative or absurd values.
std::size_t count(DcmItem& item, const DcmTagKey& tag, std::size_t fallback,
                  const std::string& path, const char* name) {
  const auto v = number(item, tag);
  if (!v) {
    return fallback;
  }
  if (*v < 0 || *v > 4294967295.0 || std::floor(*v) != *v) {
    throw Error(ErrorKind::InvalidInput, path,
                std::string(name) + " has an invalid value (" + std::to_string(*v) + ")");
  }
  return static_cast<std::size_t>(*v);
}

DcmItem* firstItem(DcmItem* item, const DcmTagKey& sequence) {
  if (!item) {
    return nullptr;
  }
  DcmItem* out = nullptr;
  if (item->findAndGetSequenceItem(sequence, out, 0).bad()) {
    return nullptr;
  }
  return out;
}

std::optional<std::array<double, 6>> validOrientation(
    const std::optional<std::array<double, 6>>& o) {
  if (!o) {
    return std::nullopt;
  }
  const Vec3 r{(*o)[0], (*o)[1], (*o)[2]};
  const Vec3 c{(*o)[3], (*o)[4], (*o)[5]};
  const double lr = std::sqrt(dot(r, r));
  const double lc = std::sqrt(dot(c, c));
  const Vec3 n = cross(r, c);
  // Unit vectors (loosely: some writers round to 4 digits) that are not parallel.
  if (std::abs(lr - 1) > 0.05 || std::abs(lc - 1) > 0.05 || std::sqrt(dot(n, n)) < 0.5) {
    return std::nullopt;
  }
  const Vec3 rn = normalized(r);
  const Vec3 cn = normalized(c);
  return std::array<double, 6>{rn[0], rn[1], rn[2], cn[0], cn[1], cn[2]};
}

// Reads the plane and pixel-value macros of one functional group item (or a plain dataset) into f.
// Returns true when it set the pixel spacing.
bool readFrameMacros(DcmItem* group, DicomFrameHeader& f, bool functionalGroup) {
  bool spacingSet = false;
  if (!group) {
    return spacingSet;
  }
  DcmItem* position = functionalGroup ? firstItem(group, DCM_PlanePositionSequence) : group;
  DcmItem* orientation = functionalGroup ? firstItem(group, DCM_PlaneOrientationSequence) : group;
  DcmItem* measures = functionalGroup ? firstItem(group, DCM_PixelMeasuresSequence) : group;
  DcmItem* transform =
      functionalGroup ? firstItem(group, DCM_PixelValueTransformationSequence) : group;
  if (functionalGroup) {
    readFunctionalGroupKeys(*group, f.keys);
  }
  if (position) {
    if (auto p = numbers<3>(*position, DCM_ImagePositionPatient)) {
      f.position = Vec3{(*p)[0], (*p)[1], (*p)[2]};
    }
  }
  if (orientation) {
    if (auto o = validOrientation(numbers<6>(*orientation, DCM_ImageOrientationPatient))) {
      f.orientation = o;
    }
  }
  if (measures) {
    auto s = numbers<2>(*measures, DCM_PixelSpacing);
    if (!s && !functionalGroup) {
      s = numbers<2>(*measures, DCM_ImagerPixelSpacing);
    }
    if (!s && !functionalGroup) {
      s = numbers<2>(*measures, DCM_NominalScannedPixelSpacing);
    }
    if (s && (*s)[0] > 0 && (*s)[1] > 0) {
      f.pixelSpacing = s;
      spacingSet = true;
    }
    if (auto t = number(*measures, DCM_SliceThickness); t && *t > 0) {
      f.sliceThickness = *t;
    }
  }
  if (transform) {
    const auto slope = number(*transform, DCM_RescaleSlope);
    const auto intercept = number(*transform, DCM_RescaleIntercept);
    if (slope && *slope != 0) {
      f.slope = *slope;
    }
    if (intercept) {
      f.intercept = *intercept;
    }
  }
  return spacingSet;
}

std::vector<WindowPreset> readWindows(DcmItem* item) {
  std::vector<WindowPreset> out;
  if (!item) {
    return out;
  }
  for (unsigned long i = 0; i < 16; ++i) {
    const auto c = number(*item, DCM_WindowCenter, i);
    const auto w = number(*item, DCM_WindowWidth, i);
    if (!c || !w) {
      break;
    }
    if (*w <= 0) {
      continue;
    }
    OFString name;
    std::string label;
    if (item->findAndGetOFString(DCM_WindowCenterWidthExplanation, name, i).good()) {
      label = trim(name);
    }
    if (label.empty()) {
      label = i == 0 ? "File" : "File " + std::to_string(i + 1);
    }
    out.push_back({label, *c, *w});
  }
  return out;
}

// The VOI LUT attributes of a dataset or of a Frame VOI LUT Sequence item.
struct VoiAttributes {
  std::vector<WindowPreset> windows;
  std::string function;
  std::vector<VoiLutTable> luts;
};

VoiAttributes readVoi(DcmItem* item, bool pixelSigned, const std::string& path,
                      std::vector<std::string>& warnings) {
  VoiAttributes v;
  if (item == nullptr) {
    return v;
  }
  v.windows = readWindows(item);
  v.function = readVoiFunction(*item, path, warnings);
  v.luts = readVoiLuts(*item, pixelSigned, path, warnings);
  return v;
}

std::string shortNumber(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// DX/MG/CR: Pixel Spacing (calibrated) wins; else Imager Pixel Spacing (at the detector) divided
// by the Estimated Radiographic Magnification Factor when there is one.
void readProjectionSpacing(DcmItem& ds, DicomFileHeader& h) {
  auto valid = [](const std::optional<std::array<double, 2>>& s) {
    return s && (*s)[0] > 0 && (*s)[1] > 0;
  };
  if (auto ps = numbers<2>(ds, DCM_PixelSpacing); valid(ps)) {
    h.shared.pixelSpacing = ps;
    h.spacingSource = "Pixel Spacing";
    return;
  }
  if (auto ips = numbers<2>(ds, DCM_ImagerPixelSpacing); valid(ips)) {
    const auto m = number(ds, DCM_EstimatedRadiographicMagnificationFactor);
    if (m && *m > 0) {
      (*ips)[0] /= *m;
      (*ips)[1] /= *m;
      h.spacingSource = "Imager Pixel Spacing / magnification " + shortNumber(*m) +
                        (h.modality == "MG" ? " (at the breast)" : " (at the patient)");
    } else {
      h.spacingSource = "Imager Pixel Spacing (at the detector)";
    }
    h.shared.pixelSpacing = ips;
    return;
  }
  if (h.shared.pixelSpacing) {
    h.spacingSource = "Nominal Scanned Pixel Spacing";
  }
}

bool hasDicomMagic(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char b[132] = {};
  in.read(b, sizeof b);
  return in.gcount() == sizeof b && std::memcmp(b + 128, "DICM", 4) == 0;
}

}  // namespace

bool isJpeg2000Syntax(const std::string& uid) {
  return uid == UID_JPEG2000LosslessOnlyTransferSyntax || uid == UID_JPEG2000TransferSyntax ||
         uid == UID_JPEG2000Part2MulticomponentImageCompressionLosslessOnlyTransferSyntax ||
         uid == UID_JPEG2000Part2MulticomponentImageCompressionTransferSyntax;
}

bool isNativeSyntax(const std::string& uid) {
  return uid == UID_LittleEndianImplicitTransferSyntax ||
         uid == UID_LittleEndianExplicitTransferSyntax ||
         uid == UID_BigEndianExplicitTransferSyntax;
}

std::size_t physicalMemory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES);
  const long pageSize = ::sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || pageSize <= 0) {
    return std::numeric_limits<std::size_t>::max();
  }
  return static_cast<std::size_t>(pages) * static_cast<std::size_t>(pageSize);
}

DicomFrameHeader DicomFileHeader::frame(std::size_t k) const {
  if (k < perFrame.size()) {
    return perFrame[k];
  }
  DicomFrameHeader f = shared;
  if (frames <= 1) {
    return f;
  }
  if (!f.position || !f.orientation) {
    f.position.reset();
    return f;
  }
  const auto& o = *f.orientation;
  const Vec3 normal = normalized(cross({o[0], o[1], o[2]}, {o[3], o[4], o[5]}));
  double offset = 0;
  if (gridFrameOffsets.size() == frames) {
    // Relative offsets start at 0; the absolute form starts at the first frame's position.
    offset = gridFrameOffsets[k] - (gridFrameOffsets[0] != 0 ? gridFrameOffsets[0] : 0.0);
  } else if (spacingBetweenSlices > 0) {
    offset = spacingBetweenSlices * static_cast<double>(k);
  } else {
    f.position.reset();  // no way to know where this frame lies
    return f;
  }
  const Vec3& p = *f.position;
  f.position =
      Vec3{p[0] + offset * normal[0], p[1] + offset * normal[1], p[2] + offset * normal[2]};
  return f;
}

std::size_t DicomFileHeader::frameBytes() const {
  const std::size_t max = std::numeric_limits<std::size_t>::max();
  const std::size_t bytesPerSample = (bitsAllocated + 7) / 8;
  std::size_t n = rows;
  std::size_t perRow = columns;
  std::size_t samples = samplesPerPixel;
  if (isNativeSyntax(transferSyntaxUid) &&
      (photometric == "YBR_FULL_422" || photometric == "YBR_PARTIAL_422") && samples == 3) {
    perRow = (columns + 1) / 2 * 2;  // 4:2:2 stored as is: Y1 Y2 Cb Cr for each pair of pixels
    samples = 2;
  }
  for (std::size_t factor : {perRow, samples, bytesPerSample}) {
    if (factor != 0 && n > max / factor) {
      throw Error(ErrorKind::TooLarge, path, "image size overflows");
    }
    n *= factor;
  }
  return n;
}

void DicomFileHeader::checkSizeAgainstFile(std::uintmax_t fileBytes) const {
  const std::size_t perFrameBytes = frameBytes();
  const std::string claim = std::to_string(columns) + "x" + std::to_string(rows) + "x" +
                            std::to_string(frames) + " pixels of " + std::to_string(bitsAllocated) +
                            " bits";
  if (frames != 0 && perFrameBytes > std::numeric_limits<std::size_t>::max() / frames) {
    throw Error(ErrorKind::TooLarge, path, "header claims " + claim + ": size overflows");
  }
  const double needed = static_cast<double>(perFrameBytes) * static_cast<double>(frames);
  const double have = static_cast<double>(fileBytes);
  // The most a file of this size can expand to, by transfer syntax.
  const double mib = 1024.0 * 1024.0;
  const std::string& ts = transferSyntaxUid;
  double allowed = have;  // native: the pixels are in the file verbatim
  if (ts == UID_DeflatedExplicitVRLittleEndianTransferSyntax) {
    allowed = have * 1100.0 + mib;  // deflate cannot beat ~1032:1
  } else if (ts == UID_RLELosslessTransferSyntax) {
    allowed = have * 200.0 + mib;  // a 128-byte run takes 2 bytes
  } else if (ts == UID_JPEGProcess14TransferSyntax || ts == UID_JPEGProcess14SV1TransferSyntax) {
    allowed = have * 64.0 + mib;  // Huffman: at least one bit per sample
  } else if (ts == UID_JPEGProcess1TransferSyntax || ts == UID_JPEGProcess2_4TransferSyntax) {
    allowed = have * 1000.0 + mib;  // at least a few bits per 8x8 block
  } else if (!isNativeSyntax(ts)) {
    // JPEG-LS run mode and JPEG 2000 squeeze blank images very hard: a generous ratio, but
    // never gigabytes from a few bytes.
    allowed = std::max(have * 2000.0, 256.0 * mib);
  }
  if (needed > allowed) {
    throw Error(ErrorKind::InvalidInput, path,
                "header claims " + claim + " (" +
                    std::to_string(static_cast<std::uint64_t>(needed)) +
                    " bytes) but the file holds only " + std::to_string(fileBytes) +
                    " bytes: truncated or corrupt");
  }
  if (needed > static_cast<double>(physicalMemory()) * 0.8) {
    throw Error(ErrorKind::TooLarge, path,
                "header claims " + claim + ", more than this machine's memory");
  }
}

namespace {

// View Code Sequence, View Modifier Code Sequence (spot compression, magnification), Presentation
// Intent Type and the time of the image (for choosing the latest of duplicate views).
void readMammographyView(DcmItem& ds, DicomFileHeader& h) {
  DcmItem* view = nullptr;
  if (ds.findAndGetSequenceItem(DCM_ViewCodeSequence, view, 0).good() && view != nullptr) {
    h.viewCode = text(*view, DCM_CodeValue);
    DcmItem* modifier = nullptr;
    for (int i = 0;
         view->findAndGetSequenceItem(DCM_ViewModifierCodeSequence, modifier, i).good() &&
         modifier != nullptr;
         ++i) {
      std::string meaning = text(*modifier, DCM_CodeMeaning);
      for (char& c : meaning) {
        c = char(std::tolower(static_cast<unsigned char>(c)));
      }
      h.spotCompression = h.spotCompression || meaning.find("spot") != std::string::npos;
      h.magnification = h.magnification || meaning.find("magnif") != std::string::npos;
    }
  }
  h.presentationIntent = text(ds, DCM_PresentationIntentType);
  h.acquisitionTime = text(ds, DCM_AcquisitionTime);
  if (h.acquisitionTime.empty()) {
    h.acquisitionTime = text(ds, DCM_ContentTime);
  }
}

}  // namespace

DicomFileHeader parseDicomHeader(DcmItem& ds, const std::string& transferSyntaxUid,
                                 const std::string& path) {
  DicomFileHeader h;
  h.path = path;
  h.transferSyntaxUid = transferSyntaxUid;
  {
    DcmXfer xfer(transferSyntaxUid.c_str());
    h.transferSyntaxName = xfer.getXfer() != EXS_Unknown ? xfer.getXferName() : transferSyntaxUid;
    if (isJpeg2000Syntax(transferSyntaxUid)) {
      h.transferSyntaxName = transferSyntaxUid == UID_JPEG2000LosslessOnlyTransferSyntax
                                 ? "JPEG 2000 (Lossless only)"
                                 : "JPEG 2000";
    }
  }
  h.sopClassUid = text(ds, DCM_SOPClassUID);
  h.sopInstanceUid = text(ds, DCM_SOPInstanceUID);
  h.patientName = text(ds, DCM_PatientName);
  h.patientId = text(ds, DCM_PatientID);
  h.patientBirthDate = text(ds, DCM_PatientBirthDate);
  h.patientSex = text(ds, DCM_PatientSex);
  h.studyInstanceUid = text(ds, DCM_StudyInstanceUID);
  h.studyDate = text(ds, DCM_StudyDate);
  h.studyDescription = text(ds, DCM_StudyDescription);
  h.accessionNumber = text(ds, DCM_AccessionNumber);
  h.seriesInstanceUid = text(ds, DCM_SeriesInstanceUID);
  h.seriesDescription = text(ds, DCM_SeriesDescription);
  h.modality = text(ds, DCM_Modality);
  h.frameOfReferenceUid = text(ds, DCM_FrameOfReferenceUID);
  h.burnedInAnnotation = text(ds, DCM_BurnedInAnnotation);
  for (char& c : h.burnedInAnnotation) {
    c = char(std::toupper(static_cast<unsigned char>(c)));
  }
  h.viewPosition = text(ds, DCM_ViewPosition);
  readMammographyView(ds, h);
  h.laterality = text(ds, DCM_ImageLaterality);
  if (h.laterality.empty()) {
    h.laterality = text(ds, DCM_Laterality);
  }
  if (auto n = number(ds, DCM_SeriesNumber); n && std::abs(*n) < 2e9) {
    h.seriesNumber = static_cast<int>(*n);
  }
  if (auto n = number(ds, DCM_InstanceNumber); n && std::abs(*n) < 2e9) {
    h.instanceNumber = static_cast<int>(*n);
  }

  h.rows = count(ds, DCM_Rows, 0, path, "Rows");
  h.columns = count(ds, DCM_Columns, 0, path, "Columns");
  h.isImage = ds.tagExists(DCM_Rows) && ds.tagExists(DCM_Columns);
  h.frames = count(ds, DCM_NumberOfFrames, 1, path, "NumberOfFrames");
  h.samplesPerPixel =
      static_cast<unsigned>(count(ds, DCM_SamplesPerPixel, 1, path, "SamplesPerPixel"));
  h.bitsAllocated = static_cast<unsigned>(count(ds, DCM_BitsAllocated, 0, path, "BitsAllocated"));
  h.bitsStored =
      static_cast<unsigned>(count(ds, DCM_BitsStored, h.bitsAllocated, path, "BitsStored"));
  h.highBit = static_cast<unsigned>(
      count(ds, DCM_HighBit, h.bitsStored > 0 ? h.bitsStored - 1 : 0, path, "HighBit"));
  h.pixelSigned = count(ds, DCM_PixelRepresentation, 0, path, "PixelRepresentation") == 1;
  h.photometric = text(ds, DCM_PhotometricInterpretation);
  readColourAttributes(ds, h);
  if (h.isImage) {
    if (h.rows == 0 || h.columns == 0 || h.frames == 0) {
      throw Error(ErrorKind::InvalidInput, path,
                  "image has no pixels (Rows " + std::to_string(h.rows) + ", Columns " +
                      std::to_string(h.columns) + ", NumberOfFrames " + std::to_string(h.frames) +
                      ")");
    }
    if (h.rows > 65535 || h.columns > 65535) {
      throw Error(ErrorKind::InvalidInput, path, "Rows or Columns exceed 65535");
    }
  }

  if (auto t = number(ds, DCM_GantryDetectorTilt)) {
    h.gantryTilt = *t;
  }
  if (auto s = number(ds, DCM_SpacingBetweenSlices); s && *s > 0) {
    h.spacingBetweenSlices = *s;
  }
  if (h.frames > 1) {
    for (unsigned long i = 0; i < h.frames; ++i) {
      const auto v = number(ds, DCM_GridFrameOffsetVector, i);
      if (!v) {
        break;
      }
      h.gridFrameOffsets.push_back(*v);
    }
  }
  h.frameKeys.temporalPosition = number(ds, DCM_TemporalPositionIdentifier);
  h.frameKeys.bValue = number(ds, DCM_DiffusionBValue);
  readDiffusionGradient(ds, h.frameKeys);
  h.frameKeys.echoTime = number(ds, DCM_EchoTime);
  h.frameKeys.triggerTime = number(ds, DCM_TriggerTime);
  h.frameKeys.acquisitionSeconds = dicomTimeSeconds(h.acquisitionTime);
  h.hasModalityLutSequence = ds.tagExists(DCM_ModalityLUTSequence);
  if (h.hasModalityLutSequence) {
    readModalityLut(ds, h);
  }
  // RT Dose: stored values times Dose Grid Scaling are the dose in the Dose Units (Gy).
  if (h.modality == "RTDOSE") {
    if (auto scaling = number(ds, DCM_DoseGridScaling); scaling && *scaling > 0) {
      h.doseGridScaling = *scaling;
    }
  }

  // Plain (single-frame or legacy multi-frame) attributes first, then functional groups on top.
  readFrameMacros(&ds, h.shared, false);
  if (!h.shared.pixelSpacing) {
    readUltrasoundRegionSpacing(ds, h);  // ultrasound calibrates its regions instead
  }
  const bool projection = h.modality == "DX" || h.modality == "MG" || h.modality == "CR";
  if (projection) {
    readProjectionSpacing(ds, h);
  }
  {
    VoiAttributes voi = readVoi(&ds, h.pixelSigned, path, h.warnings);
    h.windows = std::move(voi.windows);
    h.voiFunction = std::move(voi.function);
    h.voiLuts = std::move(voi.luts);
  }

  DcmItem* sharedGroups = firstItem(&ds, DCM_SharedFunctionalGroupsSequence);
  DcmSequenceOfItems* perFrameSeq = nullptr;
  if (ds.findAndGetSequence(DCM_PerFrameFunctionalGroupsSequence, perFrameSeq).good() &&
      perFrameSeq) {
    h.enhanced = true;
  }
  if (sharedGroups) {
    if (readFrameMacros(sharedGroups, h.shared, true) && projection) {
      h.spacingSource = "Pixel Spacing (Pixel Measures Sequence)";
    }
    VoiAttributes voi =
        readVoi(firstItem(sharedGroups, DCM_FrameVOILUTSequence), h.pixelSigned, path, h.warnings);
    if (!voi.windows.empty()) {
      h.windows = std::move(voi.windows);
      h.voiFunction = std::move(voi.function);
    }
    if (!voi.luts.empty()) {
      h.voiLuts = std::move(voi.luts);
    }
    if (DcmItem* anatomy = firstItem(sharedGroups, DCM_FrameAnatomySequence)) {
      if (auto lat = text(*anatomy, DCM_FrameLaterality); !lat.empty() && h.laterality.empty()) {
        h.laterality = lat;
      }
    }
  }
  if (h.enhanced) {
    const unsigned long items = perFrameSeq->card();
    if (items < h.frames) {
      throw Error(ErrorKind::InvalidInput, path,
                  "PerFrameFunctionalGroupsSequence has " + std::to_string(items) + " items for " +
                      std::to_string(h.frames) +
                      " frames: the frames without one cannot be placed");
    }
    if (items > h.frames) {
      // Extra items describe no frame: the first NumberOfFrames place every frame there is.
      h.warnings.push_back(path + ": PerFrameFunctionalGroupsSequence has " +
                           std::to_string(items) + " items for " + std::to_string(h.frames) +
                           " frame(s); the first " + std::to_string(h.frames) + " were used");
    }
    h.perFrame.reserve(h.frames);
    DcmObject* obj = nullptr;
    while ((obj = perFrameSeq->nextInContainer(obj)) != nullptr && h.perFrame.size() < h.frames) {
      auto* group = dynamic_cast<DcmItem*>(obj);
      DicomFrameHeader f = h.shared;
      if (readFrameMacros(group, f, true) && projection && h.perFrame.empty()) {
        h.spacingSource = "Pixel Spacing (Pixel Measures Sequence)";
      }
      if (h.perFrame.empty() && (h.windows.empty() || h.voiLuts.empty())) {
        VoiAttributes voi =
            readVoi(firstItem(group, DCM_FrameVOILUTSequence), h.pixelSigned, path, h.warnings);
        if (h.windows.empty()) {
          h.windows = std::move(voi.windows);
          h.voiFunction = std::move(voi.function);
        }
        if (h.voiLuts.empty()) {
          h.voiLuts = std::move(voi.luts);
        }
      }
      h.perFrame.push_back(f);
    }
  }
  if (h.doseGridScaling > 0) {
    h.shared.slope *= h.doseGridScaling;
    for (DicomFrameHeader& f : h.perFrame) {
      f.slope *= h.doseGridScaling;
    }
  }
  return h;
}

DicomFileHeader readDicomHeader(const std::string& path) {
  ensureDicomCodecs();
  DcmFileFormat file;
  const OFCondition status = file.loadFileUntilTag(
      path.c_str(), EXS_Unknown, EGL_noChange, DCM_MaxReadLength, ERM_autoDetect, DCM_PixelData);
  if (status.bad()) {
    throw dicomError(status, path,
                     hasDicomMagic(path) ? "reading the DICOM header"
                                         : "not a DICOM file (no DICM marker), reading failed");
  }
  DcmDataset* ds = file.getDataset();
  OFString uid;
  if (file.getMetaInfo()->findAndGetOFString(DCM_TransferSyntaxUID, uid).bad() || uid.empty()) {
    uid = DcmXfer(ds->getOriginalXfer()).getXferID();
  }
  return parseDicomHeader(*ds, trim(uid), path);
}

}  // namespace delineate::core
