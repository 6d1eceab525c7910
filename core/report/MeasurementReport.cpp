// Measurement report rows from core/measure, their links, edits and sign-off.
#include "core/report/MeasurementReport.h"

#include <algorithm>

#include "core/measure/SegmentMeasurements.h"

namespace delineate::core::report {

namespace {

std::vector<MeasurementRow> measuredRows(const LabelMap& labels, const Volume* image,
                                         ProgressSink& progress) {
  std::vector<MeasurementRow> rows;
  for (const SegmentMeasurement& m : measureSegments(labels, image, progress)) {
    MeasurementRow r;
    r.name = m.name;
    r.label = m.label;
    r.voxels = m.voxels;
    r.volumeMl = m.volumeMl;
    if (image) {
      r.mean = m.mean;
      r.sd = m.sd;
    }
    r.largestDiameterMm = m.largestDiameterMm;
    r.link = ReportLink::toSegment(labels.name(), m.label);
    rows.push_back(std::move(r));
  }
  return rows;
}

std::string optionalText(const std::optional<double>& v) {
  return v ? valueText(*v) : std::string();
}

}  // namespace

FieldListing listFields(const std::vector<MeasurementRow>& rows, const MeasurementNotes& notes) {
  FieldListing out;
  for (const MeasurementRow& r : rows) {
    const std::string base = "rows/" + r.link.labelMap + "#" + std::to_string(r.label) + "/";
    listPlain(out, base + "name", r.name);
    listPlain(out, base + "volumeMl", valueText(r.volumeMl));
    listPlain(out, base + "mean", optionalText(r.mean));
    listPlain(out, base + "sd", optionalText(r.sd));
    listPlain(out, base + "largestDiameterMm", valueText(r.largestDiameterMm));
    listPlain(out, base + "link", r.link.text());
  }
  listField(out, "impression", notes.impression);
  listField(out, "recommendations", notes.recommendations);
  return out;
}

MeasurementReport MeasurementReport::measure(const LabelMap& labels, const Volume* image,
                                             ProgressSink& progress) {
  MeasurementReport r;
  r.rows_ = measuredRows(labels, image, progress);
  return r;
}

MeasurementReport MeasurementReport::restore(ReportSubject subject,
                                             std::vector<MeasurementRow> rows,
                                             MeasurementNotes notes, ReportSignOff signOff) {
  MeasurementReport r;
  r.subject_ = std::move(subject);
  r.rows_ = std::move(rows);
  r.notes_ = std::move(notes);
  r.signOff_ = std::move(signOff);
  return r;
}

void MeasurementReport::setSubject(ReportSubject subject) {
  signOff_.requireUnlocked("change the patient and study");
  subject_ = std::move(subject);
}

std::vector<AuditEntry> MeasurementReport::update(const std::string& user, const std::string& time,
                                                  const LabelMap& labels, const Volume* image,
                                                  ProgressSink& progress) {
  signOff_.requireUnlocked("update the measurements");
  const std::vector<MeasurementRow> fresh = measuredRows(labels, image, progress);
  const FieldListing before = listFields(rows_, notes_);
  std::vector<MeasurementRow> rows = rows_;
  for (MeasurementRow& row : rows) {
    if (row.link.kind != ReportLink::Kind::Segment || row.link.labelMap != labels.name()) {
      continue;
    }
    const auto it = std::find_if(fresh.begin(), fresh.end(), [&](const MeasurementRow& f) {
      return f.label == row.link.segment;
    });
    if (it == fresh.end()) {
      row.link.broken = true;  // the values stay as last measured
    } else {
      row = *it;
    }
  }
  for (const MeasurementRow& f : fresh) {
    const bool known = std::any_of(rows.begin(), rows.end(), [&](const MeasurementRow& r) {
      return r.link.kind == ReportLink::Kind::Segment && r.link.labelMap == f.link.labelMap &&
             r.link.segment == f.label;
    });
    if (!known) {
      rows.push_back(f);
    }
  }
  rows_ = std::move(rows);
  return changesBetween(before, listFields(rows_, notes_), user, time);
}

std::vector<AuditEntry> MeasurementReport::edit(
    const std::string& user, const std::string& time,
    const std::function<void(MeasurementNotes&)>& change) {
  signOff_.requireUnlocked("edit the report");
  const FieldListing before = listFields(rows_, notes_);
  MeasurementNotes changed = notes_;
  change(changed);
  notes_ = std::move(changed);
  return changesBetween(before, listFields(rows_, notes_), user, time);
}

std::vector<std::string> MeasurementReport::missingForSignature() const {
  std::vector<std::string> missing;
  if (notes_.impression.empty()) {
    missing.push_back("impression");
  }
  return missing;
}

AuditEntry MeasurementReport::sign(const std::string& name, const std::string& time) {
  return signOff_.sign({name, time}, missingForSignature());
}

AuditEntry MeasurementReport::addAddendum(const std::string& text, const std::string& name,
                                          const std::string& time) {
  return signOff_.addAddendum(text, {name, time});
}

}  // namespace delineate::core::report
