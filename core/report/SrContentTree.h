#pragma once
// The content tree of a DICOM SR as the report writers build it and the readers walk it, over
// DCMTK's dcmsr (internal to core/report: only SR writers and readers include it):
//   Item: a content item built in memory (concept name, a function setting its value, children),
//         added to DCMTK's document tree in document order by emitChildren();
//   Node: DCMTK's tree copied into plain values by readNode();
// and the conversions the writers share: ISO 8601 <-> DICOM DT, person names, exact numbers.
#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmsr/dsrdoc.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace delineate::core::report::sr {

struct Item {
  DSRTypes::E_RelationshipType relation = DSRTypes::RT_contains;
  DSRTypes::E_ValueType type = DSRTypes::VT_Container;
  DSRCodedEntryValue name;
  std::function<OFCondition(DSRContentItem&)> value;
  std::vector<Item> children;
  std::string templateId;           // DCMR template identification, when claimed
  std::string observationDateTime;  // DICOM DT of the item, when given
  // By-reference relationships: an item with a `key` can be the target of a later item whose
  // `referTo` names that key; such an item is only the relationship (`relation`) from its parent
  // to the target, and is added after the parent's by-value children.
  std::string key;
  std::string referTo;

  Item& add(Item child) {
    children.push_back(std::move(child));
    return children.back();
  }
};

Item container(DSRTypes::E_RelationshipType relation, DSRCodedEntryValue name);
// TEXT by default; also UIDREF and PNAME (`type`).
Item text(DSRTypes::E_RelationshipType relation, DSRCodedEntryValue name, std::string value,
          DSRTypes::E_ValueType type = DSRTypes::VT_Text);
Item coded(DSRTypes::E_RelationshipType relation, DSRCodedEntryValue name,
           DSRCodedEntryValue value);
// A by-reference relationship from the parent to the item whose key is `target`.
Item reference(DSRTypes::E_RelationshipType relation, std::string target);
// A 2-D SCOORD (image pixel coordinates, (column, row) pairs, (0, 0) the outer corner of the
// first pixel) of `graphic` type.
Item scoordItem(DSRTypes::E_RelationshipType relation, DSRCodedEntryValue name,
                DSRTypes::E_GraphicType graphic, std::vector<std::pair<float, float>> points);
// An IMAGE reference; `name` may be empty (an image library entry). `segment` adds a Referenced
// Segment Number, `frame` a Referenced Frame Number (1-based).
Item imageItem(DSRTypes::E_RelationshipType relation, DSRCodedEntryValue name, std::string sopClass,
               std::string sopInstance, std::optional<std::uint16_t> segment = {},
               std::optional<std::int32_t> frame = {});
// A CONTAINS NUM written both as DS text and as the exact double (Floating Point Value), with an
// optional (121401, DCM, "Derivation") modifier.
Item numItem(DSRCodedEntryValue name, double value, DSRCodedEntryValue unit,
             std::optional<DSRCodedEntryValue> derivation = {});

// The patient, study and series attributes of a report SR (values longer than DICOM allows are
// cut: ID 64, accession number 16, series description 64 characters).
struct ReportHeader {
  std::string patientName, patientId, birthDate, sex;
  std::string studyDate, studyDescription, accessionNumber;
  std::string seriesDescription;
  int seriesNumber = 0;
};
// Sets them on `doc`, with Manufacturer "Delineate" and Instance Number 1.
void setReportHeader(DSRDocument& doc, const ReportHeader& header);

// Makes `root` (a CONTAINER, with its concept name, template identification and children) the
// content of the empty `tree`. Throws Error naming `where` when DCMTK refuses an item.
void emitDocument(DSRDocumentTree& tree, const Item& root, const std::string& where);

// Adds the children of `parent` below DCMTK's current content item, recursively, in order.
// Throws Error naming `where` when DCMTK refuses an item (a relationship the IOD does not allow).
void emitChildren(DSRDocumentTree& tree, const Item& parent, const std::string& where);

struct Node {
  DSRTypes::E_RelationshipType relation = DSRTypes::RT_unknown;
  DSRTypes::E_ValueType type = DSRTypes::VT_invalid;
  DSRCodedEntryValue name;
  std::string text;  // TEXT, UIDREF, PNAME
  DSRCodedEntryValue code;
  DSRNumericMeasurementValue number;
  DSRImageReferenceValue image;
  DSRSpatialCoordinatesValue scoord;
  std::string observationDateTime;
  std::size_t id = 0;            // DCMTK's node ID
  std::size_t referencedId = 0;  // the target's node ID, for a by-reference relationship
  std::vector<Node> children;
};

// The current content item of `tree` and its descendants (the cursor ends where it started).
Node readNode(DSRDocumentTree& tree);

// The value of a NUM: the exact Floating Point Value when present, else the DS text.
double numberOf(const DSRNumericMeasurementValue& num);

// Reads the DICOM SR file `path` into `doc`. Throws Error(InvalidInput) naming the file when it
// is not a DICOM file, is truncated or damaged, or is not a structured report (another SOP
// class), Error(Io) when it cannot be read.
void loadSrDocument(const std::filesystem::path& path, DSRDocument& doc);

// Assembles `doc` with the project's UIDs (2.25 form) for the SOP instance and the series, and
// saves it atomically as `out` (Explicit VR Little Endian). Throws Error naming `out`.
void saveSrDocument(DSRDocument& doc, const std::filesystem::path& out);

// ISO 8601 ("2024-05-02T09:30:00Z") -> DICOM DT ("20240502093000+0000"); "" when unusable.
std::string dicomDateTime(const std::string& iso);
// DICOM DT -> ISO 8601: "20240502093000+0000" -> "2024-05-02T09:30:00Z", other offsets as
// "+hh:mm", no offset as local time; the input unchanged when it is not a DT.
std::string isoDateTime(const std::string& dt);
// A person name value: no backslash, at most 64 characters.
std::string personName(std::string name);

}  // namespace delineate::core::report::sr
