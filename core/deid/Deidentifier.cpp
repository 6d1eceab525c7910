#include "core/deid/Deidentifier.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcitem.h>
#include <dcmtk/dcmdata/dcsequen.h>

#include <array>
#include <vector>

#include "core/Error.h"
#include "core/deid/DateShift.h"
#include "core/deid/DeidProfile.h"
#include "core/deid/HoldBackPolicy.h"
#include "core/deid/ReidentificationMap.h"
#include "core/deid/TextScrubber.h"
#include "core/io/DicomCondition.h"

namespace delineate::core::deid {

namespace {

constexpr const char* kDummyText = "DEIDENTIFIED";
constexpr const char* kDummyDate = "20000101";
constexpr const char* kDummyDateTime = "20000101000000";
constexpr const char* kDummyTime = "000000";

// How the attributes inside a sequence are treated, set by the action on the sequence.
enum class Mode {
  Normal,  // the table and the defaults
  Dummy,   // a "D" sequence (Content Sequence, Graphic Annotation Sequence, ...): free text too
  Clean,   // a "C" sequence: free text cleaned
};

struct Context {
  const DeidOptions& options;
  ReidentificationMap& map;
  TextScrubber scrubber;
  PatientPseudonym patient;
  std::string where;
};

bool isTextVr(DcmEVR vr) {
  switch (vr) {
    case EVR_AE:
    case EVR_LO:
    case EVR_LT:
    case EVR_PN:
    case EVR_SH:
    case EVR_ST:
    case EVR_UC:
    case EVR_UR:
    case EVR_UT:
      return true;
    default:
      return false;
  }
}

bool isDateOrTimeVr(DcmEVR vr) {
  return vr == EVR_DA || vr == EVR_DT || vr == EVR_TM;
}

// The longest value a text VR holds (PS3.5 Table 6.2-1); 0: no practical limit.
std::size_t maxLength(DcmEVR vr) {
  switch (vr) {
    case EVR_AE:
    case EVR_SH:
    case EVR_CS:
      return 16;
    case EVR_LO:
    case EVR_PN:
      return 64;
    case EVR_ST:
      return 1024;
    case EVR_LT:
      return 10240;
    default:
      return 0;
  }
}

// UI attributes whose values name a kind of thing (a SOP class, a transfer syntax, a coding
// scheme, a template), not an instance: they identify nobody and receivers need them unchanged.
bool isClassUidTag(const DcmTagKey& t) {
  static const std::array<DcmTagKey, 14> kTags = {DCM_SOPClassUID,
                                                  DCM_ReferencedSOPClassUID,
                                                  DCM_RelatedGeneralSOPClassUID,
                                                  DCM_OriginalSpecializedSOPClassUID,
                                                  DCM_SOPClassesInStudy,
                                                  DCM_CodingSchemeUID,
                                                  DCM_ContextUID,
                                                  DCM_MappingResourceUID,
                                                  DCM_ContextGroupExtensionCreatorUID,
                                                  DCM_ReferencedSOPClassUIDInFile,
                                                  DCM_ReferencedTransferSyntaxUIDInFile,
                                                  DCM_MACCalculationTransferSyntaxUID,
                                                  DCM_EncryptedContentTransferSyntaxUID,
                                                  DCM_CreatorVersionUID};
  for (const auto& k : kTags) {
    if (k == t) {
      return true;
    }
  }
  return false;
}

// Attributes of a coded entry: kept inside "D" sequences so that an SR keeps its structure.
bool isCodeAttribute(const DcmTagKey& t) {
  return t.getGroup() == 0x0008 &&
         (t.getElement() == 0x0100 || t.getElement() == 0x0102 || t.getElement() == 0x0103 ||
          t.getElement() == 0x0104 || t.getElement() == 0x0105 || t.getElement() == 0x010F ||
          t.getElement() == 0x0119 || t.getElement() == 0x0120 || t.getElement() == 0x0122);
}

std::string valueOf(DcmElement& element) {
  OFString value;
  if (element.getOFStringArray(value).bad()) {
    return {};
  }
  return value.c_str();
}

void setValue(DcmElement& element, const std::string& value, const Context& ctx) {
  checkDicom(element.putOFStringArray(OFString(value.c_str())), ctx.where,
             "replacing a value while de-identifying");
}

void removeElement(DcmItem& item, DcmElement* element) {
  delete item.remove(element);
}

void replaceUids(DcmElement& element, Context& ctx) {
  const std::string value = valueOf(element);
  if (value.empty()) {
    return;
  }
  std::string out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = value.find('\\', start);
    const std::string uid = value.substr(start, end == std::string::npos ? end : end - start);
    // Standard UIDs (1.2.840.10008...) name classes, syntaxes and coding schemes, never a patient.
    out += uid.empty() || uid.rfind("1.2.840.10008.", 0) == 0 ? uid : ctx.map.uid(uid);
    if (end == std::string::npos) {
      break;
    }
    out += '\\';
    start = end + 1;
  }
  setValue(element, out, ctx);
}

void shiftDate(DcmElement& element, Context& ctx) {
  const DcmEVR vr = element.ident();
  if (vr == EVR_TM) {
    return;  // the option keeps times; only the calendar date identifies
  }
  const std::string value = valueOf(element);
  if (value.empty()) {
    return;
  }
  const auto shifted = vr == EVR_DA ? shiftDicomDate(value, ctx.patient.dateShiftDays)
                                    : shiftDicomDateTime(value, ctx.patient.dateShiftDays);
  if (shifted) {
    setValue(element, *shifted, ctx);
  } else {
    element.clear();  // partial dates and ranges cannot be shifted reliably
  }
}

void cleanText(DcmElement& element, Context& ctx) {
  std::string cleaned = ctx.scrubber.clean(valueOf(element));
  if (const std::size_t max = maxLength(element.ident()); max && cleaned.size() > max) {
    cleaned.resize(max);
  }
  setValue(element, cleaned, ctx);
}

// The "D" replacement: a fixed value of the VR, a shifted date under the longitudinal option, a
// pseudonym for UIDs. Binary values have no meaningful dummy and become empty.
void putDummy(DcmElement& element, Context& ctx) {
  switch (element.ident()) {
    case EVR_UI:
      replaceUids(element, ctx);
      return;
    case EVR_DA:
    case EVR_DT:
      if (ctx.options.retainLongitudinalModifiedDates) {
        shiftDate(element, ctx);
      } else {
        setValue(element, element.ident() == EVR_DA ? kDummyDate : kDummyDateTime, ctx);
      }
      return;
    case EVR_TM:
      if (!ctx.options.retainLongitudinalModifiedDates) {
        setValue(element, kDummyTime, ctx);
      }
      return;
    case EVR_AS:
      setValue(element, "000Y", ctx);
      return;
    case EVR_DS:
    case EVR_IS:
    case EVR_US:
    case EVR_SS:
    case EVR_UL:
    case EVR_SL:
    case EVR_FL:
    case EVR_FD:
    case EVR_SV:
    case EVR_UV:
      setValue(element, "0", ctx);
      return;
    case EVR_AE:
    case EVR_CS:
    case EVR_LO:
    case EVR_LT:
    case EVR_PN:
    case EVR_SH:
    case EVR_ST:
    case EVR_UC:
    case EVR_UT:
      setValue(element, kDummyText, ctx);
      return;
    case EVR_UR:
      setValue(element, "urn:deidentified", ctx);
      return;
    default:
      element.clear();
      return;
  }
}

void processItem(DcmItem& item, Context& ctx, Mode mode);

void processSequence(DcmElement& element, Context& ctx, Mode mode) {
  auto& sequence = static_cast<DcmSequenceOfItems&>(element);
  for (unsigned long i = 0; i < sequence.card(); ++i) {
    processItem(*sequence.getItem(i), ctx, mode);
  }
}

// The action for an attribute the table does not list: sequences are entered, instance UIDs
// replaced, person names emptied; dates and times go (or are shifted under the longitudinal
// option), as PS3.15 advises for the attributes a future edition may add.
DeidAction defaultAction(const DcmTagKey& tag, DcmEVR vr, const Context& ctx, Mode mode) {
  switch (vr) {
    case EVR_SQ:
      return DeidAction::Keep;
    case EVR_UI:
      return isClassUidTag(tag) ? DeidAction::Keep : DeidAction::ReplaceUid;
    case EVR_PN:
      return mode == Mode::Normal ? DeidAction::Empty : DeidAction::Dummy;
    case EVR_DA:
    case EVR_DT:
    case EVR_TM:
      return ctx.options.retainLongitudinalModifiedDates ? DeidAction::ShiftDate
                                                         : DeidAction::Remove;
    default:
      break;
  }
  if (isTextVr(vr) && !isCodeAttribute(tag)) {
    if (mode == Mode::Dummy) {
      return DeidAction::Dummy;
    }
    if (mode == Mode::Clean) {
      return DeidAction::Clean;
    }
  }
  return DeidAction::Keep;
}

void processElement(DcmItem& item, DcmElement* element, Context& ctx, Mode mode) {
  const DcmTagKey tag = element->getTag().getXTag();
  const std::uint16_t group = tag.getGroup();
  const std::uint16_t number = tag.getElement();
  const DcmEVR vr = element->ident();
  // Private attributes (odd groups, with their creators), group lengths, command elements, and
  // the curve (50xx) and overlay (60xx) groups: Table E.1-1 removes Curve Data, Overlay Data and
  // Overlay Comments, and an overlay plane without its data is a broken module, so each of these
  // groups goes as a whole. Overlay bits stored inside Pixel Data (retired) stay with the pixels.
  if ((group & 1) != 0 || group == 0x0000 || number == 0x0000 || (group & 0xFF00) == 0x5000 ||
      (group & 0xFF00) == 0x6000) {
    removeElement(item, element);
    return;
  }
  if (tag == DCM_PixelData || tag == DCM_FloatPixelData || tag == DCM_DoubleFloatPixelData) {
    return;
  }
  if (tag == DCM_PatientID || tag == DCM_PatientName) {
    setValue(*element, ctx.patient.pseudonym, ctx);
    return;
  }
  const ProfileRow* row = findProfileRow(group, number);
  const DeidAction action = row ? resolveAction(*row, ctx.options, isDateOrTimeVr(vr))
                                : defaultAction(tag, vr, ctx, mode);
  const bool sequence = vr == EVR_SQ;
  switch (action) {
    case DeidAction::Keep:
      if (sequence) {
        processSequence(*element, ctx, mode);
      }
      return;
    case DeidAction::Remove:
      removeElement(item, element);
      return;
    case DeidAction::Empty:
      element->clear();
      return;
    case DeidAction::Dummy:
      if (sequence) {
        processSequence(*element, ctx, Mode::Dummy);
      } else {
        putDummy(*element, ctx);
      }
      return;
    case DeidAction::ReplaceUid:
      if (vr == EVR_UI) {
        replaceUids(*element, ctx);
      } else {
        removeElement(item, element);  // a UID row read with another VR: nothing to map
      }
      return;
    case DeidAction::Clean:
      if (sequence) {
        processSequence(*element, ctx, Mode::Clean);
      } else if (isTextVr(vr)) {
        cleanText(*element, ctx);
      } else {
        removeElement(item, element);  // no text to clean (e.g. read as UN): remove instead
      }
      return;
    case DeidAction::ShiftDate:
      if (isDateOrTimeVr(vr)) {
        shiftDate(*element, ctx);
      }
      return;
    case DeidAction::ReplaceUids:
      if (sequence) {
        processSequence(*element, ctx, Mode::Normal);
      }
      return;
  }
}

void processItem(DcmItem& item, Context& ctx, Mode mode) {
  std::vector<DcmElement*> elements;
  for (unsigned long i = 0; i < item.card(); ++i) {
    elements.push_back(item.getElement(i));
  }
  for (DcmElement* element : elements) {
    processElement(item, element, ctx, mode);
  }
}

// Records the identifiers the file holds, before anything is changed, so that text an option
// keeps can be cleaned of them.
void collectIdentifiers(DcmItem& item, Context& ctx) {
  for (unsigned long i = 0; i < item.card(); ++i) {
    DcmElement& element = *item.getElement(i);
    const DcmTagKey tag = element.getTag().getXTag();
    const DcmEVR vr = element.ident();
    if (vr == EVR_SQ) {
      auto& sequence = static_cast<DcmSequenceOfItems&>(element);
      for (unsigned long j = 0; j < sequence.card(); ++j) {
        collectIdentifiers(*sequence.getItem(j), ctx);
      }
      continue;
    }
    if (vr == EVR_PN) {
      ctx.scrubber.addPersonName(valueOf(element));
      continue;
    }
    if (tag == DCM_PatientBirthDate) {
      ctx.scrubber.addDate(valueOf(element));
      continue;
    }
    if ((tag.getGroup() & 1) != 0 ||
        !(vr == EVR_LO || vr == EVR_SH || vr == EVR_AE || vr == EVR_UI)) {
      continue;
    }
    const ProfileRow* row = findProfileRow(tag.getGroup(), tag.getElement());
    const DeidAction action =
        row ? resolveAction(*row, ctx.options, false)
            : (vr == EVR_UI && !isClassUidTag(tag) ? DeidAction::ReplaceUid : DeidAction::Keep);
    if (action != DeidAction::Keep && action != DeidAction::Clean) {
      ctx.scrubber.addValue(valueOf(element));
    }
  }
}

std::string text(DcmItem& item, const DcmTagKey& tag) {
  OFString value;
  item.findAndGetOFStringArray(tag, value);
  std::string s = value.c_str();
  while (!s.empty() && s.back() == ' ') {
    s.pop_back();
  }
  return s;
}

// The identity a patient pseudonym stands for: the Patient ID, else the name and birth date, else
// (nothing identifies the patient) the study. Not the issuer of the ID: SEG and SR writers often
// leave it out, and the derived objects must keep their image's pseudonym.
std::string patientKey(DcmItem& dataset) {
  const std::string id = text(dataset, DCM_PatientID);
  if (!id.empty()) {
    return "id:" + id;
  }
  const std::string name = text(dataset, DCM_PatientName);
  if (!name.empty()) {
    return "name:" + name + "|" + text(dataset, DCM_PatientBirthDate);
  }
  return "study:" + text(dataset, DCM_StudyInstanceUID);
}

void markDeidentified(DcmItem& dataset, const Context& ctx) {
  const std::string& where = ctx.where;
  checkDicom(dataset.putAndInsertString(DCM_PatientIdentityRemoved, "YES"), where,
             "marking the patient identity removed");
  std::string phrases;
  for (const std::string& p : ctx.options.methodPhrases()) {
    phrases += (phrases.empty() ? "" : "\\") + p.substr(0, 64);
  }
  checkDicom(dataset.putAndInsertOFStringArray(DCM_DeidentificationMethod, phrases.c_str()), where,
             "writing the de-identification method");
  dataset.findAndDeleteElement(DCM_DeidentificationMethodCodeSequence);
  const std::vector<std::string> codes = ctx.options.methodCodes();
  const std::vector<std::string> meanings = ctx.options.methodPhrases();
  for (std::size_t i = 0; i < codes.size(); ++i) {
    DcmItem* code = nullptr;
    checkDicom(dataset.findOrCreateSequenceItem(DCM_DeidentificationMethodCodeSequence, code, -2),
               where, "writing the de-identification method codes");
    code->putAndInsertString(DCM_CodeValue, codes[i].c_str());
    code->putAndInsertString(DCM_CodingSchemeDesignator, "DCM");
    code->putAndInsertString(DCM_CodeMeaning, meanings[i].substr(0, 64).c_str());
  }
  checkDicom(dataset.putAndInsertString(
                 DCM_LongitudinalTemporalInformationModified,
                 ctx.options.retainLongitudinalModifiedDates ? "MODIFIED" : "REMOVED"),
             where, "writing Longitudinal Temporal Information Modified");
}

}  // namespace

Deidentifier::Deidentifier(const DeidOptions& options, ReidentificationMap& map)
    : options_(options), map_(map) {}

DatasetOutcome Deidentifier::apply(DcmItem& dataset, const std::string& where) const {
  DatasetOutcome outcome;
  if ((outcome.heldBackReason = holdBackReason(dataset))) {
    return outcome;
  }
  if (text(dataset, DCM_SOPInstanceUID).empty()) {
    throw Error(ErrorKind::InvalidInput, where, "no SOP Instance UID: not a DICOM instance");
  }
  Context ctx{options_, map_, {}, {}, where};
  ctx.patient = map_.patient(patientKey(dataset), text(dataset, DCM_PatientID),
                             text(dataset, DCM_PatientName));
  collectIdentifiers(dataset, ctx);
  processItem(dataset, ctx, Mode::Normal);
  // Patient ID and Name are Type 2 everywhere: present, carrying the pseudonym.
  checkDicom(dataset.putAndInsertString(DCM_PatientID, ctx.patient.pseudonym.c_str()), where,
             "writing the patient pseudonym");
  checkDicom(dataset.putAndInsertString(DCM_PatientName, ctx.patient.pseudonym.c_str()), where,
             "writing the patient pseudonym");
  markDeidentified(dataset, ctx);
  outcome.patientPseudonym = ctx.patient.pseudonym;
  outcome.studyInstanceUid = text(dataset, DCM_StudyInstanceUID);
  outcome.seriesInstanceUid = text(dataset, DCM_SeriesInstanceUID);
  outcome.sopInstanceUid = text(dataset, DCM_SOPInstanceUID);
  return outcome;
}

}  // namespace delineate::core::deid
