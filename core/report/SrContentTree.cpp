#include "core/report/SrContentTree.h"

#include <dcmtk/dcmdata/dcuid.h>

#include <cctype>
#include <fstream>
#include <map>
#include <string>

#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>

#include "core/Error.h"
#include "core/io/AtomicFile.h"
#include "core/io/DicomCondition.h"
#include "core/io/DicomUid.h"
#include "core/io/DicomWriterAttributes.h"
#include "core/report/SrCodes.h"

namespace delineate::core::report::sr {

Item container(DSRTypes::E_RelationshipType relation, DSRCodedEntryValue name) {
  Item i;
  i.relation = relation;
  i.type = DSRTypes::VT_Container;
  i.name = std::move(name);
  return i;
}

Item text(DSRTypes::E_RelationshipType relation, DSRCodedEntryValue name, std::string value,
          DSRTypes::E_ValueType type) {
  Item i;
  i.relation = relation;
  i.type = type;
  i.name = std::move(name);
  i.value = [value = std::move(value)](DSRContentItem& item) {
    return item.setStringValue(value.c_str(), OFFalse);
  };
  return i;
}

Item coded(DSRTypes::E_RelationshipType relation, DSRCodedEntryValue name,
           DSRCodedEntryValue value) {
  Item i;
  i.relation = relation;
  i.type = DSRTypes::VT_Code;
  i.name = std::move(name);
  i.value = [value = std::move(value)](DSRContentItem& item) {
    return item.setCodeValue(value, OFFalse);
  };
  return i;
}

Item reference(DSRTypes::E_RelationshipType relation, std::string target) {
  Item i;
  i.relation = relation;
  i.type = DSRTypes::VT_byReference;
  i.referTo = std::move(target);
  return i;
}

Item scoordItem(DSRTypes::E_RelationshipType relation, DSRCodedEntryValue name,
                DSRTypes::E_GraphicType graphic, std::vector<std::pair<float, float>> points) {
  Item i;
  i.relation = relation;
  i.type = DSRTypes::VT_SCoord;
  i.name = std::move(name);
  i.value = [graphic, points = std::move(points)](DSRContentItem& item) {
    DSRSpatialCoordinatesValue coordinates(graphic);
    for (const auto& [x, y] : points) {
      coordinates.getGraphicDataList().addItem(x, y);
    }
    return item.setSpatialCoordinates(coordinates, OFFalse);
  };
  return i;
}

Item imageItem(DSRTypes::E_RelationshipType relation, DSRCodedEntryValue name, std::string sopClass,
               std::string sopInstance, std::optional<std::uint16_t> segment,
               std::optional<std::int32_t> frame) {
  Item i;
  i.relation = relation;
  i.type = DSRTypes::VT_Image;
  i.name = std::move(name);
  i.value = [=](DSRContentItem& item) {
    DSRImageReferenceValue ref(sopClass.c_str(), sopInstance.c_str(), OFFalse);
    if (segment) {
      ref.getSegmentList().addItem(*segment);
    }
    if (frame) {
      ref.getFrameList().addItem(*frame);
    }
    return item.setImageReference(ref, OFFalse);
  };
  return i;
}

Item numItem(DSRCodedEntryValue name, double value, DSRCodedEntryValue unit,
             std::optional<DSRCodedEntryValue> derivation) {
  Item n;
  n.relation = DSRTypes::RT_contains;
  n.type = DSRTypes::VT_Num;
  n.name = std::move(name);
  n.value = [value, unit = std::move(unit)](DSRContentItem& item) {
    DSRNumericMeasurementValue num(decimalString(value).c_str(), unit, OFFalse);
    const OFCondition ok = num.setFloatingPointRepresentation(value, OFFalse);
    return ok.bad() ? ok : item.setNumericValue(num, OFFalse);
  };
  if (derivation) {
    n.add(coded(DSRTypes::RT_hasConceptMod, kDerivation(), *derivation));
  }
  return n;
}

namespace {

using NodeKeys = std::map<std::string, std::size_t>;

void emitChildrenWith(DSRDocumentTree& tree, const Item& parent, const std::string& where,
                      NodeKeys& keys);

void emit(DSRDocumentTree& tree, const Item& item, DSRTypes::E_AddMode mode,
          const std::string& where, NodeKeys& keys) {
  if (tree.addContentItem(item.relation, item.type, mode) == 0) {
    throw Error(ErrorKind::Internal, where,
                std::string("cannot add the SR content item \"") +
                    item.name.getCodeMeaning().c_str() + "\"");
  }
  if (!item.key.empty()) {
    keys[item.key] = tree.getNodeID();
  }
  DSRContentItem& current = tree.getCurrentContentItem();
  if (!item.name.getCodeValue().empty()) {
    checkDicom(current.setConceptName(item.name, OFFalse), where, "setting an SR concept name");
  }
  if (!item.templateId.empty()) {
    checkDicom(current.setTemplateIdentification(item.templateId.c_str(), "DCMR"), where,
               "setting a template identification");
  }
  if (!item.observationDateTime.empty()) {
    checkDicom(current.setObservationDateTime(item.observationDateTime.c_str(), OFFalse), where,
               "setting an observation date and time");
  }
  if (item.value) {
    checkDicom(item.value(current), where,
               std::string("setting the value of \"") + item.name.getCodeMeaning().c_str() + "\"");
  }
  emitChildrenWith(tree, item, where, keys);
}

void emitChildrenWith(DSRDocumentTree& tree, const Item& parent, const std::string& where,
                      NodeKeys& keys) {
  bool first = true;
  for (const Item& child : parent.children) {
    if (child.referTo.empty()) {
      emit(tree, child, first ? DSRTypes::AM_belowCurrent : DSRTypes::AM_afterCurrent, where, keys);
      first = false;
    }
  }
  if (!first) {
    tree.goUp();
  }
  for (const Item& child : parent.children) {
    if (child.referTo.empty()) {
      continue;
    }
    const auto target = keys.find(child.referTo);
    if (target == keys.end() ||
        tree.addByReferenceRelationship(child.relation, target->second) == 0) {
      throw Error(ErrorKind::Internal, where,
                  "cannot add the SR reference to \"" + child.referTo + "\"");
    }
  }
}

}  // namespace

void setReportHeader(DSRDocument& doc, const ReportHeader& h) {
  doc.setPatientName(personName(h.patientName).c_str(), OFFalse);
  doc.setPatientID(h.patientId.substr(0, 64).c_str(), OFFalse);
  doc.setPatientBirthDate(h.birthDate.c_str(), OFFalse);
  doc.setPatientSex(h.sex.c_str(), OFFalse);
  doc.setStudyDate(h.studyDate.c_str(), OFFalse);
  doc.setStudyDescription(h.studyDescription.c_str(), OFFalse);
  doc.setAccessionNumber(h.accessionNumber.substr(0, 16).c_str(), OFFalse);
  doc.setManufacturer("Delineate", OFFalse);
  doc.setSeriesDescription(h.seriesDescription.substr(0, 64).c_str(), OFFalse);
  doc.setSeriesNumber(std::to_string(h.seriesNumber).c_str(), OFFalse);
  doc.setInstanceNumber("1", OFFalse);
}

void emitDocument(DSRDocumentTree& tree, const Item& root, const std::string& where) {
  if (tree.addContentItem(DSRTypes::RT_isRoot, DSRTypes::VT_Container) == 0) {
    throw Error(ErrorKind::Internal, where, "cannot add the SR root container");
  }
  DSRContentItem& current = tree.getCurrentContentItem();
  checkDicom(current.setConceptName(root.name, OFFalse), where, "setting the document title");
  if (!root.templateId.empty()) {
    checkDicom(current.setTemplateIdentification(root.templateId.c_str(), "DCMR"), where,
               "setting the template identification");
  }
  NodeKeys keys;
  emitChildrenWith(tree, root, where, keys);
}

void emitChildren(DSRDocumentTree& tree, const Item& parent, const std::string& where) {
  NodeKeys keys;
  emitChildrenWith(tree, parent, where, keys);
}

Node readNode(DSRDocumentTree& tree) {
  Node n;
  const DSRContentItem& item = tree.getCurrentContentItem();
  n.relation = item.getRelationshipType();
  n.type = item.getValueType();
  n.name = item.getConceptName();
  n.observationDateTime = item.getObservationDateTime().c_str();
  n.id = tree.getNodeID();
  n.referencedId = item.getReferencedNodeID();
  switch (n.type) {
    case DSRTypes::VT_Text:
    case DSRTypes::VT_UIDRef:
    case DSRTypes::VT_PName:
      n.text = item.getStringValue().c_str();
      break;
    case DSRTypes::VT_Code:
      n.code = item.getCodeValue();
      break;
    case DSRTypes::VT_Num:
      n.number = item.getNumericValue();
      break;
    case DSRTypes::VT_Image:
      n.image = item.getImageReference();
      break;
    case DSRTypes::VT_SCoord:
      n.scoord = item.getSpatialCoordinates();
      break;
    default:
      break;
  }
  if (tree.goDown() > 0) {
    do {
      n.children.push_back(readNode(tree));
    } while (tree.gotoNext() > 0);
    tree.goUp();
  }
  return n;
}

double numberOf(const DSRNumericMeasurementValue& num) {
  Float64 exact = 0;
  if (num.getFloatingPointRepresentation(exact).good()) {
    return exact;
  }
  try {
    return std::stod(num.getNumericValue().c_str());
  } catch (const std::exception&) {
    return 0;
  }
}

namespace {

// True when the file has the DICOM Part 10 preamble and "DICM" prefix.
bool hasPart10Prefix(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  char prefix[132] = {};
  in.read(prefix, sizeof prefix);
  return in.gcount() == sizeof prefix && std::string(prefix + 128, 4) == "DICM";
}

}  // namespace

void loadSrDocument(const std::filesystem::path& path, DSRDocument& doc) {
  const std::string where = path.string();
  const bool part10 = hasPart10Prefix(path);
  DcmFileFormat file;
  const OFCondition loaded = file.loadFile(path.c_str());
  if (loaded.bad()) {
    const Error e = dicomError(loaded, where, "reading");
    if (e.kind() == ErrorKind::Io || e.kind() == ErrorKind::TooLarge) {
      throw e;
    }
    throw Error(ErrorKind::InvalidInput, where,
                std::string(part10 ? "truncated or damaged DICOM file" : "not a DICOM file") +
                    " (" + loaded.text() + ")");
  }
  OFString sopClass;
  file.getDataset()->findAndGetOFString(DCM_SOPClassUID, sopClass);
  if (sopClass.empty()) {
    throw Error(ErrorKind::InvalidInput, where,
                part10 ? "not a DICOM structured report: no SOP Class UID" : "not a DICOM file");
  }
  if (DSRTypes::sopClassUIDToDocumentType(sopClass) == DSRTypes::DT_invalid) {
    const char* name = dcmFindNameOfUID(sopClass.c_str());
    throw Error(ErrorKind::InvalidInput, where,
                std::string("not a DICOM structured report but ") +
                    (name ? name : "SOP class " + std::string(sopClass.c_str())));
  }
  const OFCondition read = doc.read(*file.getDataset());
  if (read.bad()) {
    throw Error(ErrorKind::InvalidInput, where,
                std::string("truncated or damaged DICOM structured report (") + read.text() + ")");
  }
}

void saveSrDocument(DSRDocument& doc, const std::filesystem::path& out) {
  const std::string where = out.string();
  DcmFileFormat file;
  DcmDataset& ds = *file.getDataset();
  checkDicom(doc.write(ds), where, "assembling the report");
  // The project's UIDs (2.25 form) rather than DCMTK's.
  checkDicom(ds.putAndInsertString(DCM_SOPInstanceUID, newDicomUid().c_str()), where,
             "setting the SOP instance UID");
  checkDicom(ds.putAndInsertString(DCM_SeriesInstanceUID, newDicomUid().c_str()), where,
             "setting the series UID");
  const std::filesystem::path tmp = temporarySiblingPath(out);
  const OFCondition saved = file.saveFile(tmp.c_str(), EXS_LittleEndianExplicit);
  if (saved.bad()) {
    std::error_code ignored;
    std::filesystem::remove(tmp, ignored);
    throw dicomError(saved, where, "writing the report");
  }
  commitAtomically(tmp, out);
}

std::string dicomDateTime(const std::string& iso) {
  std::string digits;
  std::size_t i = 0;
  for (; i < iso.size() && digits.size() < 14; ++i) {
    const char c = iso[i];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digits += c;
    } else if (c == 'Z' || ((c == '+' || c == '-') && digits.size() >= 8 && iso.find('T') < i)) {
      break;
    }
  }
  if (digits.size() < 8) {
    return "";
  }
  while (i < iso.size() && iso[i] != 'Z' && iso[i] != '+' && iso[i] != '-') {
    ++i;  // fraction of a second
  }
  if (i < iso.size() && iso[i] == 'Z') {
    return digits + "+0000";
  }
  if (i < iso.size() && digits.size() >= 12) {
    std::string offset(1, iso[i]);
    for (++i; i < iso.size() && offset.size() < 5; ++i) {
      if (std::isdigit(static_cast<unsigned char>(iso[i]))) {
        offset += iso[i];
      }
    }
    if (offset.size() == 5) {
      return digits + offset;
    }
  }
  return digits;
}

std::string isoDateTime(const std::string& dt) {
  std::size_t n = 0;
  while (n < dt.size() && std::isdigit(static_cast<unsigned char>(dt[n]))) {
    ++n;
  }
  if (n < 8 || n % 2 != 0 || n > 14) {
    return dt;
  }
  const std::string offset = dt.substr(n);
  if (!offset.empty() && (offset.size() != 5 || (offset[0] != '+' && offset[0] != '-'))) {
    return dt;
  }
  std::string iso = dt.substr(0, 4) + "-" + dt.substr(4, 2) + "-" + dt.substr(6, 2);
  const char* separators[] = {"T", ":", ":"};
  for (std::size_t k = 8, s = 0; k + 2 <= n; k += 2, ++s) {
    iso += separators[s] + dt.substr(k, 2);
  }
  if (offset == "+0000") {
    iso += "Z";
  } else if (!offset.empty()) {
    iso += offset.substr(0, 3) + ":" + offset.substr(3);
  }
  return iso;
}

std::string personName(std::string name) {
  for (char& c : name) {
    if (c == '\\') {
      c = ' ';
    }
  }
  return name.substr(0, 64);
}

}  // namespace delineate::core::report::sr
