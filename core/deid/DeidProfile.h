#pragma once
// PS3.15 Table E.1-1 (Application Level Confidentiality Profile Attributes) as data: one row per
// attribute of the Basic Profile with its action code and what the supported options change, and
// the rules that turn a row into the one action taken for a given set of options.
#include <cstdint>
#include <span>

#include "core/deid/DeidOptions.h"

namespace delineate::core::deid {

// The Basic Profile column's action codes (Table E.1-1a).
enum class TableCode : std::uint8_t {
  D,    // replace with a non-zero length dummy
  Z,    // replace with a zero length value
  X,    // remove
  U,    // replace with a consistent new UID
  ZD,   // Z unless D is needed for IOD conformance
  XZ,   // X unless Z is needed
  XD,   // X unless D is needed
  XZD,  // X unless Z or D is needed
  XZU,  // X unless Z or replacing the contained UIDs is needed (reference sequences)
};

// What the supported options' columns say for a row; 0 when they leave the Basic Profile action.
enum OptionFlag : std::uint8_t {
  kKeepWithPatientCharacteristics = 1,   // Retain Patient Characteristics: K
  kCleanWithPatientCharacteristics = 2,  // Retain Patient Characteristics: C
  kKeepWithDeviceIdentity = 4,           // Retain Device Identity: K
  kCleanWithDeviceIdentity = 8,          // Retain Device Identity: C
  kCleanWithCleanDescriptors = 16,       // Clean Descriptors: C
};

struct ProfileRow {
  std::uint16_t group;
  std::uint16_t element;
  // 0xFF00 for the repeating groups (curves 50xx, overlays 60xx), else 0xFFFF.
  std::uint16_t groupMask;
  TableCode code;
  std::uint8_t options;
  const char* name;
};

// The one thing done to an attribute.
enum class DeidAction : std::uint8_t {
  Keep,         // value unchanged; sequences are entered and processed item by item
  Remove,       // the attribute goes
  Empty,        // zero length (sequences: no items)
  Dummy,        // a fixed non-identifying value of the VR; sequences: free text in them replaced
  ReplaceUid,   // each UID replaced by its consistent pseudonym
  Clean,        // text kept with the file's identifiers taken out; sequences: the same inside
  ShiftDate,    // dates moved by the patient's shift (DA, DT); times (TM) kept
  ReplaceUids,  // reference sequences: kept, with every UID inside replaced
};

// Every row of the table, sorted by (group, element); repeating-group rows come last.
std::span<const ProfileRow> profileTable();

// The row for an attribute, or nullptr when the table does not list it. Repeating groups match
// any group of their range (60xx: 6000-60FF even).
const ProfileRow* findProfileRow(std::uint16_t group, std::uint16_t element);

// The action for `row` under `options`. `dateOrTime` is true for DA, DT and TM attributes: the
// Retain Longitudinal Temporal Information option applies to all of those but the birth date and
// time. Choices such as X/Z/D resolve to the least retaining action, except where a common IOD
// needs the attribute (Content Date/Time, Device Serial Number, Acquisition Context Sequence,
// Treatment Machine Name).
DeidAction resolveAction(const ProfileRow& row, const DeidOptions& options, bool dateOrTime);

}  // namespace delineate::core::deid
