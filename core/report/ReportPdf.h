#pragma once
// The reports as PDF documents for the patient record (so, unlike the audit trail, they carry the
// patient's name, id and birth date): title, subject, the AI origin (a demonstration AI under a
// "DEMONSTRATION FINDINGS, NOT A DIAGNOSIS" banner), the report's content with the provenance of
// every value ("AI", "AI, accepted", "edited", "reader"), the key images with their captions
// (KeyImage.h), and at the end "Signed by <name> at <time>" with the signed addenda, or a
// "DRAFT - NOT SIGNED" mark (also under the title) while unsigned. As many A4 pages as needed,
// numbered "Page i of n". Written atomically; Error(Io) naming the file when it cannot be written.
#include <filesystem>
#include <vector>

#include "core/report/KeyImage.h"
#include "core/report/MammographyReport.h"
#include "core/report/MeasurementReport.h"

namespace delineate::core::report {

// Composition, findings (name, kind, laterality, clock, depth, size, descriptors, AI score),
// assessment per breast and overall with their BI-RADS names, management, impression.
void writeMammographyReportPdf(const MammographyReport& report,
                               const std::vector<KeyImage>& keyImages,
                               const std::filesystem::path& file);

// The measurement table (segment, label, volume mL, mean, SD, largest diameter mm; rows whose
// segment was deleted marked so), impression and recommendations.
void writeMeasurementReportPdf(const MeasurementReport& report,
                               const std::vector<KeyImage>& keyImages,
                               const std::filesystem::path& file);

}  // namespace delineate::core::report
