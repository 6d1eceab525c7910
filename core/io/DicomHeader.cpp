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
  h.imageType = text(ds, DCM_ImageType);
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
