#pragma once
// Where a report field's value came from, derived from the value, the AI's proposal and whether a
// radiologist has reviewed the field (see ReportField).
#include "core/report/EnumTable.h"

namespace delineate::core::report {

enum class Provenance {
  AiProposed,         // the AI's value, not yet reviewed
  AcceptedUnchanged,  // reviewed; equals the AI's value
  Edited,             // reviewed; differs from the AI's value (or was cleared)
  Manual,             // no AI value: entered or computed by the workstation
};

// Keys "ai-proposed", "accepted-unchanged", "edited", "manual".
template <>
std::span<const EnumEntry<Provenance>> enumEntries<Provenance>();

}  // namespace delineate::core::report
