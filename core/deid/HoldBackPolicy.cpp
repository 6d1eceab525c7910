#include "core/deid/HoldBackPolicy.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcitem.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <string_view>

namespace delineate::core::deid {

namespace {

// Upper case without spaces, as the rules compare values.
std::string normalized(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), ' '), s.end());
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s;
}

std::string elementText(DcmItem& item, const DcmTagKey& tag) {
  OFString value;
  if (item.findAndGetOFStringArray(tag, value).bad()) {
    return {};
  }
  return normalized(value.c_str());
}

bool startsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// Modalities whose images commonly carry burned-in text (PS3.15 E.3.1 names ultrasound and
// secondary capture; photographs, endoscopy and scanned documents are the same case).
constexpr std::array<std::string_view, 10> kTextProneModalities = {"US", "IVUS", "XC",  "ES", "GM",
                                                                   "OP", "SM",   "DOC", "OT", "SC"};
// Modalities whose image IOD makes Burned In Annotation Type 1.
constexpr std::array<std::string_view, 4> kRequiredModalities = {"MG", "DX", "IO", "PX"};

bool contains(const auto& list, std::string_view value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// The rule for an image (pixels present), shared by files and loaded volumes; the values are
// upper case without spaces.
std::optional<std::string> imageReason(const std::string& sopClass, const std::string& modality,
                                       const std::string& burnedIn) {
  if (burnedIn == "YES") {
    return "Burned In Annotation is YES: the pixels may show identifying text";
  }
  if (!burnedIn.empty()) {
    return std::nullopt;
  }
  const bool secondaryCapture = startsWith(sopClass, "1.2.840.10008.5.1.4.1.1.7");
  const bool visibleLight = startsWith(sopClass, "1.2.840.10008.5.1.4.1.1.77.");
  if (secondaryCapture || visibleLight || contains(kTextProneModalities, modality)) {
    return "Burned In Annotation is absent from an image of a kind that often shows identifying "
           "text in its pixels (" +
           (modality.empty() ? std::string("secondary capture") : modality) + ")";
  }
  if (contains(kRequiredModalities, modality)) {
    return "Burned In Annotation is absent although the " + modality +
           " image's IOD requires it: the pixels may show identifying text";
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> holdBackReason(DcmItem& dataset) {
  const std::string sopClass = elementText(dataset, DCM_SOPClassUID);
  if (sopClass == "1.2.840.10008.1.3.10") {
    return "a DICOMDIR indexes the original files by patient name and is not copied";
  }
  if (dataset.tagExists(DCM_EncapsulatedDocument) ||
      startsWith(sopClass, "1.2.840.10008.5.1.4.1.1.104.")) {
    return "an encapsulated document (PDF, CDA, STL) cannot be de-identified";
  }
  const bool hasPixels = dataset.tagExists(DCM_PixelData) ||
                         dataset.tagExists(DCM_FloatPixelData) ||
                         dataset.tagExists(DCM_DoubleFloatPixelData);
  if (!hasPixels) {
    return std::nullopt;
  }
  return imageReason(sopClass, elementText(dataset, DCM_Modality),
                     elementText(dataset, DCM_BurnedInAnnotation));
}

std::optional<std::string> holdBackReason(const VolumeInfo& info) {
  if (info.sopClassUid.empty() && info.sourceFiles.empty()) {
    return std::nullopt;  // not read from DICOM: no header says what the pixels show
  }
  return imageReason(normalized(info.sopClassUid), normalized(info.modality),
                     normalized(info.burnedInAnnotation));
}

}  // namespace delineate::core::deid
