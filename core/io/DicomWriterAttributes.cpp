#include "core/io/DicomWriterAttributes.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdatset.h>
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcitem.h>
#include <dcmtk/dcmdata/dctag.h>
#include <dcmtk/dcmdata/dcuid.h>
#include <dcmtk/dcmdata/dcvr.h>
#include <dcmtk/dcmdata/dcvrobow.h>
#include <dcmtk/dcmdata/dcvrss.h>
#include <dcmtk/dcmdata/dcvrus.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>

#include "core/Error.h"
#include "core/io/DicomCondition.h"

namespace delineate::core {

namespace {

// "gggg,eeee" or "(gggg,eeee)", hex digits, spaces allowed around each part.
std::optional<DcmTagKey> parseTagKey(const std::string& key) {
  std::size_t at = 0;
  auto skipSpaces = [&] {
    while (at < key.size() && key[at] == ' ') {
      ++at;
    }
  };
  auto hex4 = [&]() -> std::optional<Uint16> {
    if (key.size() - at < 4) {
      return std::nullopt;
    }
    unsigned v = 0;
    for (std::size_t e = at + 4; at < e; ++at) {
      const char c = key[at];
      const int d = c >= '0' && c <= '9'   ? c - '0'
                    : c >= 'a' && c <= 'f' ? c - 'a' + 10
                    : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                           : -1;
      if (d < 0) {
        return std::nullopt;
      }
      v = v * 16 + unsigned(d);
    }
    return static_cast<Uint16>(v);
  };
  const bool open = !key.empty() && key[0] == '(';
  at = open ? 1 : 0;
  skipSpaces();
  const auto group = hex4();
  skipSpaces();
  if (!group || at >= key.size() || key[at++] != ',') {
    return std::nullopt;
  }
  skipSpaces();
  const auto element = hex4();
  skipSpaces();
  if (!element || (open && (at >= key.size() || key[at++] != ')')) || at != key.size()) {
    return std::nullopt;
  }
  return DcmTagKey(*group, *element);
}

void put(DcmItem& ds, const DcmTagKey& tag, const std::string& value, const std::string& where) {
  checkDicom(ds.putAndInsertString(tag, value.c_str()), where,
             std::string("setting ") + DcmTag(tag).getTagName());
}

void putUs(DcmItem& ds, const DcmTagKey& tag, unsigned value, const std::string& where) {
  checkDicom(ds.putAndInsertUint16(tag, static_cast<Uint16>(value)), where,
             std::string("setting ") + DcmTag(tag).getTagName());
}

DcmItem* putCode(DcmItem& ds, const DcmTagKey& sequence, const char* value, const char* scheme,
                 const char* meaning, const std::string& where) {
  DcmItem* item = nullptr;
  checkDicom(ds.findOrCreateSequenceItem(sequence, item, -2), where,
             std::string("creating ") + DcmTag(sequence).getTagName());
  put(*item, DCM_CodeValue, value, where);
  put(*item, DCM_CodingSchemeDesignator, scheme, where);
  put(*item, DCM_CodeMeaning, meaning, where);
  return item;
}

void putEmptySequence(DcmItem& ds, const DcmTagKey& sequence, const std::string& where) {
  checkDicom(ds.insertEmptyElement(sequence), where,
             std::string("creating ") + DcmTag(sequence).getTagName());
}

std::string multi(const std::vector<std::string>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    out += (i ? "\\" : "") + values[i];
  }
  return out;
}

bool hasNonAscii(const VolumeInfo& info) {
  for (const std::string* s :
       {&info.patientName, &info.patientId, &info.studyDescription, &info.seriesDescription}) {
    for (unsigned char c : *s) {
      if (c >= 0x80) {
        return true;
      }
    }
  }
  return false;
}

// Only digits for DA values; anything else is dropped rather than written invalid.
std::string dateOrEmpty(const std::string& d) {
  if (d.size() != 8) {
    return {};
  }
  for (char c : d) {
    if (c < '0' || c > '9') {
      return {};
    }
  }
  return d;
}

// Inserts (replacing) an element built with an explicit VR; the item owns it on success.
template <class E>
OFCondition insertElement(DcmItem& item, std::unique_ptr<E> element) {
  const OFCondition status = item.insert(element.get(), true);
  if (status.good()) {
    static_cast<void>(element.release());  // now owned by the item
  }
  return status;
}

// A VOI LUT Sequence item: LUT Descriptor (US, or SS for signed pixels), LUT Explanation and
// LUT Data (OW). Tables whose first value does not fit the descriptor are left out.
void putVoiLut(DcmItem& ds, const VoiLutTable& t, bool pixelSigned, const std::string& where) {
  const double lo = pixelSigned ? -32768.0 : 0.0;
  const double hi = pixelSigned ? 32767.0 : 65535.0;
  if (t.data.empty() || t.data.size() > 65536 || t.bits < 8 || t.bits > 16 ||
      std::floor(t.firstValue) != t.firstValue || t.firstValue < lo || t.firstValue > hi) {
    return;
  }
  DcmItem* item = nullptr;
  checkDicom(ds.findOrCreateSequenceItem(DCM_VOILUTSequence, item, -2), where,
             "creating VOILUTSequence");
  const auto entries = static_cast<Uint16>(t.data.size() == 65536 ? 0 : t.data.size());
  const auto bits = static_cast<Uint16>(t.bits);
  OFCondition status;
  if (pixelSigned) {
    auto descriptor = std::make_unique<DcmSignedShort>(DcmTag(DCM_LUTDescriptor, EVR_SS));
    const Sint16 values[3] = {static_cast<Sint16>(entries), static_cast<Sint16>(t.firstValue),
                              static_cast<Sint16>(bits)};
    status = descriptor->putSint16Array(values, 3);
    if (status.good()) {
      status = insertElement(*item, std::move(descriptor));
    }
  } else {
    auto descriptor = std::make_unique<DcmUnsignedShort>(DcmTag(DCM_LUTDescriptor, EVR_US));
    const Uint16 values[3] = {entries, static_cast<Uint16>(t.firstValue), bits};
    status = descriptor->putUint16Array(values, 3);
    if (status.good()) {
      status = insertElement(*item, std::move(descriptor));
    }
  }
  checkDicom(status, where, "setting LUTDescriptor");
  std::string name = t.name.substr(0, 64);
  for (char& c : name) {
    if (c == '\\') {
      c = '/';
    }
  }
  put(*item, DCM_LUTExplanation, name, where);
  auto data = std::make_unique<DcmOtherByteOtherWord>(DcmTag(DCM_LUTData, EVR_OW));
  status = data->putUint16Array(t.data.data(), static_cast<unsigned long>(t.data.size()));
  if (status.good()) {
    status = insertElement(*item, std::move(data));
  }
  checkDicom(status, where, "setting LUTData");
}

void addModalityModule(DcmDataset& ds, const DicomWriteContext& ctx, const std::string& where) {
  const VolumeInfo& info = ctx.volume->info();
  const std::string& sop = ctx.sopClassUid;
  if (sop == UID_CTImageStorage) {
    put(ds, DCM_ImageType, "DERIVED\\SECONDARY\\AXIAL", where);
    put(ds, DCM_KVP, "", where);
    put(ds, DCM_AcquisitionNumber, "", where);
  } else if (sop == UID_MRImageStorage) {
    put(ds, DCM_ImageType, "DERIVED\\SECONDARY\\OTHER", where);
    put(ds, DCM_ScanningSequence, "RM", where);
    put(ds, DCM_SequenceVariant, "NONE", where);
    put(ds, DCM_ScanOptions, "", where);
    put(ds, DCM_MRAcquisitionType, "", where);
    put(ds, DCM_RepetitionTime, "", where);
    put(ds, DCM_EchoTime, "", where);
    put(ds, DCM_EchoTrainLength, "", where);
  } else if (sop == UID_DigitalMammographyXRayImageStorageForPresentation ||
             sop == UID_DigitalXRayImageStorageForPresentation) {
    const bool mammo = sop == UID_DigitalMammographyXRayImageStorageForPresentation;
    put(ds, DCM_ImageType, "DERIVED\\PRIMARY", where);
    put(ds, DCM_PresentationIntentType, "FOR PRESENTATION", where);
    put(ds, DCM_PixelIntensityRelationship, "LOG", where);
    put(ds, DCM_PixelIntensityRelationshipSign, ctx.photometric == "MONOCHROME1" ? "-1" : "1",
        where);
    put(ds, DCM_PresentationLUTShape, ctx.photometric == "MONOCHROME1" ? "INVERSE" : "IDENTITY",
        where);
    put(ds, DCM_RescaleType, "US", where);
    put(ds, DCM_BurnedInAnnotation, "NO", where);
    put(ds, DCM_DetectorType, "DIRECT", where);
    const ImageGeometry& g = ctx.volume->geometry();
    put(ds, DCM_ImagerPixelSpacing,
        decimalString(g.spacing[1]) + "\\" + decimalString(g.spacing[0]), where);
    put(ds, DCM_PatientOrientation,
        std::string(1, patientDirectionLetter(g.axis(0))) + "\\" +
            std::string(1, patientDirectionLetter(g.axis(1))),
        where);
    put(ds, DCM_ImageLaterality, info.laterality.empty() ? "U" : info.laterality, where);
    put(ds, DCM_ViewPosition, info.viewPosition, where);
    if (mammo) {
      put(ds, DCM_PositionerType, "MAMMOGRAPHIC", where);
      put(ds, DCM_BodyPartExamined, "BREAST", where);
      put(ds, DCM_OrganExposed, "BREAST", where);
      putCode(ds, DCM_AnatomicRegionSequence, "76752008", "SCT", "Breast", where);
      putEmptySequence(ds, DCM_AcquisitionContextSequence, where);
      DcmItem* view = nullptr;
      if (info.viewPosition == "CC") {
        view = putCode(ds, DCM_ViewCodeSequence, "399162004", "SCT", "cranio-caudal", where);
      } else if (info.viewPosition == "MLO") {
        view =
            putCode(ds, DCM_ViewCodeSequence, "399368009", "SCT", "medio-lateral oblique", where);
      } else if (info.viewPosition == "ML") {
        view = putCode(ds, DCM_ViewCodeSequence, "399260004", "SCT", "medio-lateral", where);
      } else if (info.viewPosition == "LM") {
        view = putCode(ds, DCM_ViewCodeSequence, "399352003", "SCT", "latero-medial", where);
      }
      if (view) {
        putEmptySequence(*view, DCM_ViewModifierCodeSequence, where);
      }
    }
  } else {
    put(ds, DCM_ConversionType, "WSD", where);
    put(ds, DCM_ImageType, "DERIVED\\SECONDARY", where);
  }
  const bool rescaleRequired = sop == UID_CTImageStorage ||
                               sop == UID_DigitalMammographyXRayImageStorageForPresentation ||
                               sop == UID_DigitalXRayImageStorageForPresentation;
  if (rescaleRequired || ctx.slope != 1 || ctx.intercept != 0) {
    put(ds, DCM_RescaleIntercept, decimalString(ctx.intercept), where);
    put(ds, DCM_RescaleSlope, decimalString(ctx.slope), where);
    if (sop != UID_CTImageStorage && !rescaleRequired) {
      put(ds, DCM_RescaleType, "US", where);
    }
  }
}

}  // namespace

std::string sopClassForModality(const std::string& modality) {
  if (modality == "CT") {
    return UID_CTImageStorage;
  }
  if (modality == "MR") {
    return UID_MRImageStorage;
  }
  if (modality == "MG") {
    return UID_DigitalMammographyXRayImageStorageForPresentation;
  }
  if (modality == "DX") {
    return UID_DigitalXRayImageStorageForPresentation;
  }
  return UID_SecondaryCaptureImageStorage;
}

std::string decimalString(double v) {
  if (std::abs(v) < 1e-12) {
    return "0";
  }
  char buf[32];
  for (int precision = 12; precision > 1; --precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::string(buf).size() <= 16) {
      return buf;
    }
  }
  std::snprintf(buf, sizeof buf, "%.1g", v);
  return buf;
}

void fillDicomDataset(DcmDataset& ds, const DicomWriteContext& ctx, std::size_t slice,
                      const std::string& sopInstanceUid) {
  const std::string& where = ctx.where;
  const VolumeInfo& info = ctx.volume->info();
  const ImageGeometry& g = ctx.volume->geometry();

  if (hasNonAscii(info)) {
    put(ds, DCM_SpecificCharacterSet, "ISO_IR 192", where);
  }
  put(ds, DCM_SOPClassUID, ctx.sopClassUid, where);
  put(ds, DCM_SOPInstanceUID, sopInstanceUid, where);
  // Patient, study, series, frame of reference, equipment.
  put(ds, DCM_PatientName, info.patientName, where);
  put(ds, DCM_PatientID, info.patientId, where);
  put(ds, DCM_PatientBirthDate, dateOrEmpty(info.patientBirthDate), where);
  put(ds, DCM_PatientSex, info.patientSex, where);
  put(ds, DCM_StudyInstanceUID, ctx.studyInstanceUid, where);
  put(ds, DCM_StudyDate, dateOrEmpty(info.studyDate), where);
  put(ds, DCM_StudyTime, "", where);
  put(ds, DCM_ReferringPhysicianName, "", where);
  put(ds, DCM_StudyID, "", where);
  put(ds, DCM_AccessionNumber, info.accessionNumber, where);
  if (!info.studyDescription.empty()) {
    put(ds, DCM_StudyDescription, info.studyDescription, where);
  }
  put(ds, DCM_Modality, ctx.modality, where);
  put(ds, DCM_SeriesInstanceUID, ctx.seriesInstanceUid, where);
  put(ds, DCM_SeriesNumber, std::to_string(info.seriesNumber), where);
  if (!info.seriesDescription.empty()) {
    put(ds, DCM_SeriesDescription, info.seriesDescription, where);
  }
  put(ds, DCM_FrameOfReferenceUID, ctx.frameOfReferenceUid, where);
  put(ds, DCM_PositionReferenceIndicator, "", where);
  put(ds, DCM_Manufacturer, "Delineate", where);
  put(ds, DCM_InstanceNumber, std::to_string(slice + 1), where);
  if (ctx.sopClassUid == UID_CTImageStorage || ctx.sopClassUid == UID_MRImageStorage) {
    put(ds, DCM_PatientPosition, "", where);
  }
  const bool projection =
      ctx.sopClassUid == UID_DigitalMammographyXRayImageStorageForPresentation ||
      ctx.sopClassUid == UID_DigitalXRayImageStorageForPresentation;
  if (!projection) {
    // General Series Laterality (type 2C); projection images carry ImageLaterality instead.
    put(ds, DCM_Laterality, info.laterality, where);
  }

  // Image plane.
  const Vec3 position = g.indexToWorld({0, 0, static_cast<double>(slice)});
  const Vec3 row = g.axis(0);
  const Vec3 col = g.axis(1);
  const Vec3 normal = normalized(cross(row, col));
  const Vec3 step = g.axis(2);
  const double thickness = std::abs(dot(step, normal)) * g.spacing[2];
  put(ds, DCM_ImagePositionPatient,
      multi({decimalString(position[0]), decimalString(position[1]), decimalString(position[2])}),
      where);
  put(ds, DCM_ImageOrientationPatient,
      multi({decimalString(row[0]), decimalString(row[1]), decimalString(row[2]),
             decimalString(col[0]), decimalString(col[1]), decimalString(col[2])}),
      where);
  put(ds, DCM_PixelSpacing, decimalString(g.spacing[1]) + "\\" + decimalString(g.spacing[0]),
      where);
  put(ds, DCM_SliceThickness, decimalString(thickness), where);
  if (g.size[2] > 1) {
    put(ds, DCM_SpacingBetweenSlices, decimalString(thickness), where);
  }
  put(ds, DCM_SliceLocation, decimalString(dot(position, normal)), where);

  // Image pixel description (the pixel data comes later).
  putUs(ds, DCM_SamplesPerPixel, 1, where);
  put(ds, DCM_PhotometricInterpretation, ctx.photometric, where);
  putUs(ds, DCM_Rows, static_cast<unsigned>(g.size[1]), where);
  putUs(ds, DCM_Columns, static_cast<unsigned>(g.size[0]), where);
  putUs(ds, DCM_BitsAllocated, ctx.bitsAllocated, where);
  putUs(ds, DCM_BitsStored, ctx.bitsStored, where);
  putUs(ds, DCM_HighBit, ctx.bitsStored - 1, where);
  putUs(ds, DCM_PixelRepresentation, ctx.pixelSigned ? 1 : 0, where);
  put(ds, DCM_LossyImageCompression, ctx.lossy ? "01" : "00", where);

  addModalityModule(ds, ctx, where);

  // VOI LUT: the volume's windows, in display units (after rescale).
  std::vector<std::string> centers, widths, names;
  std::vector<WindowPreset> windows = info.windows;
  if (windows.empty() && projection) {
    // "For presentation" images must say how to display them.
    const auto [lo, hi] = ctx.volume->valueRange();
    windows.push_back({"Full range", (lo + hi) / 2, std::max(1.0, hi - lo + 1)});
  }
  for (const WindowPreset& w : windows) {
    if (w.width > 0 && centers.size() < 8) {
      centers.push_back(decimalString(w.center));
      widths.push_back(decimalString(w.width));
      std::string name = w.name.substr(0, 64);
      for (char& c : name) {
        if (c == '\\') {
          c = '/';
        }
      }
      names.push_back(name);
    }
  }
  if (!centers.empty()) {
    put(ds, DCM_WindowCenter, multi(centers), where);
    put(ds, DCM_WindowWidth, multi(widths), where);
    put(ds, DCM_WindowCenterWidthExplanation, multi(names), where);
    if (!info.voiFunction.empty() && info.voiFunction != "LINEAR") {
      put(ds, DCM_VOILUTFunction, info.voiFunction, where);
    }
  }
  // The file's VOI LUT tables (DX/MG), in display units like the windows.
  for (const VoiLutTable& t : info.voiLuts) {
    putVoiLut(ds, t, ctx.pixelSigned, where);
  }
}

void applyDicomAttributeOverrides(DcmDataset& ds,
                                  const std::vector<std::pair<std::string, std::string>>& attrs,
                                  const std::string& where) {
  for (const auto& [key, value] : attrs) {
    DcmTag tag;
    if (const auto numeric = parseTagKey(key)) {
      tag = DcmTag(*numeric);
    } else if (DcmTag::findTagFromName(key.c_str(), tag).bad()) {
      throw Error(ErrorKind::InvalidInput, where,
                  "unknown DICOM attribute '" + key + "' (use a keyword or \"gggg,eeee\")");
    }
    const DcmTagKey k(tag.getGroup(), tag.getElement());
    const bool pixelDescription =
        k == DCM_SamplesPerPixel || k == DCM_PhotometricInterpretation || k == DCM_Rows ||
        k == DCM_Columns || k == DCM_BitsAllocated || k == DCM_BitsStored || k == DCM_HighBit ||
        k == DCM_PixelRepresentation || k == DCM_NumberOfFrames || k == DCM_PlanarConfiguration;
    if (tag.getGroup() == 0x0002 || tag.getGroup() == 0x7fe0 || pixelDescription) {
      throw Error(ErrorKind::InvalidInput, where,
                  "attribute " + key + " is set by the writer and cannot be overridden");
    }
    if (tag.getEVR() == EVR_SQ) {
      throw Error(ErrorKind::InvalidInput, where,
                  "attribute " + key + " is a sequence; only plain values can be set");
    }
    checkDicom(ds.putAndInsertString(tag, value.c_str()), where,
               "setting " + key + " to '" + value + "'");
  }
}

}  // namespace delineate::core
