#pragma once
// A structured measurement report for MR/CT: one row per segment of a label map (name, label
// value, volume, mean and SD of the image inside, largest diameter), computed by
// core/measure's measureSegments, never typed; an impression and recommendations; sign-off as for
// every report. A row keeps its link to the segment; when the segment is deleted, update() marks
// the link broken and keeps the row's values.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMap.h"
#include "core/model/Volume.h"
#include "core/report/AuditEntry.h"
#include "core/report/FieldListing.h"
#include "core/report/ReportField.h"
#include "core/report/ReportLink.h"
#include "core/report/ReportSignOff.h"
#include "core/report/ReportSubject.h"

namespace delineate::core::report {

struct MeasurementRow {
  std::string name;
  std::uint16_t label = 0;
  std::size_t voxels = 0;
  double volumeMl = 0;
  std::optional<double> mean, sd;  // none when measured without an image
  double largestDiameterMm = 0;
  ReportLink link;  // label map name + label value
  bool operator==(const MeasurementRow&) const = default;
};

struct MeasurementNotes {  // what the reader writes
  ReportField<std::string> impression;
  ReportField<std::string> recommendations;
  bool operator==(const MeasurementNotes&) const = default;
};

class MeasurementReport {
 public:
  MeasurementReport() = default;
  // One row per segment of `labels` (empty segments too), measured over `image` (may be null:
  // no intensities; else on the label map's grid, as measureSegments requires).
  static MeasurementReport measure(const LabelMap& labels, const Volume* image,
                                   ProgressSink& progress);
  static MeasurementReport restore(ReportSubject subject, std::vector<MeasurementRow> rows,
                                   MeasurementNotes notes, ReportSignOff signOff);

  const ReportSubject& subject() const { return subject_; }
  void setSubject(ReportSubject subject);
  const std::vector<MeasurementRow>& rows() const { return rows_; }
  const MeasurementNotes& notes() const { return notes_; }
  const ReportSignOff& signOff() const { return signOff_; }
  bool locked() const { return signOff_.locked(); }

  // Re-measures the rows linked to segments of `labels` (same label map name): rows of segments
  // that still exist get the new values (and a repaired link), rows of deleted segments are marked
  // broken and keep their values, new segments get rows. Returns the audit of what changed.
  // Throws ReportLockedError when signed.
  std::vector<AuditEntry> update(const std::string& user, const std::string& time,
                                 const LabelMap& labels, const Volume* image,
                                 ProgressSink& progress);
  std::vector<AuditEntry> edit(const std::string& user, const std::string& time,
                               const std::function<void(MeasurementNotes&)>& change);

  // "impression" when empty. Rows with a broken link may be signed: they show the values
  // measured before the segment was deleted, marked as such.
  std::vector<std::string> missingForSignature() const;
  AuditEntry sign(const std::string& name, const std::string& time);
  AuditEntry addAddendum(const std::string& text, const std::string& name, const std::string& time);

  bool operator==(const MeasurementReport&) const = default;

 private:
  ReportSubject subject_;
  std::vector<MeasurementRow> rows_;
  MeasurementNotes notes_;
  ReportSignOff signOff_;
};

// Paths "rows/<label map>#<label>/<name|volumeMl|mean|sd|largestDiameterMm|link>",
// "impression", "recommendations".
FieldListing listFields(const std::vector<MeasurementRow>& rows, const MeasurementNotes& notes);

}  // namespace delineate::core::report
