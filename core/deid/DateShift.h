#pragma once
// Moving DICOM dates by a whole number of days (the Retain Longitudinal Temporal Information with
// Modified Dates option): intervals between a patient's dates survive, the calendar dates do not.
#include <optional>
#include <string>
#include <string_view>

namespace delineate::core::deid {

// A DA value ("YYYYMMDD", possibly several separated by '\') moved by `days`; nullopt when a value
// is not a complete valid date (partial and range values cannot be shifted reliably).
std::optional<std::string> shiftDicomDate(std::string_view value, int days);

// A DT value ("YYYYMMDD[HHMMSS[.FFFFFF]][&ZZXX]", possibly several) with its date part moved by
// `days` and the rest kept; nullopt when a value does not start with a complete valid date.
std::optional<std::string> shiftDicomDateTime(std::string_view value, int days);

}  // namespace delineate::core::deid
