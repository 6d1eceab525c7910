// The MR/CT measurement report as PDF (ReportPdf.h).
#include <cstdio>

#include "core/report/ReportPdf.h"
#include "core/report/ReportPdfLayout.h"

namespace delineate::core::report {

namespace {

std::vector<TableCell> measurementRow(const MeasurementRow& row) {
  TableCell name{row.name.empty() ? "Segment " + std::to_string(row.label) : row.name, ""};
  if (row.link.kind == ReportLink::Kind::Segment) {
    name.note = row.link.labelMap;
  }
  if (row.link.broken) {
    name.note += (name.note.empty() ? "" : "; ") +
                 std::string("BROKEN LINK: segment deleted, values as measured before");
    name.alert = true;
  }
  return {name,
          {std::to_string(row.label), ""},
          {std::to_string(row.voxels), ""},
          {fixedText(row.volumeMl, 2), ""},
          {row.mean ? fixedText(*row.mean, 1) : "-", ""},
          {row.sd ? fixedText(*row.sd, 1) : "-", ""},
          {fixedText(row.largestDiameterMm, 1), ""}};
}

void notesParagraph(ReportLayout& layout, const ReportField<std::string>& field) {
  if (!field.value() || field.value()->empty()) {
    layout.paragraph("-");
    return;
  }
  layout.paragraph(*field.value());
  if (field.aiValue()) {
    layout.paragraph("[" + std::string(provenanceMark(field.provenance())) + "]",
                     PdfFont::Helvetica, 8, PdfColor::rgb(90, 90, 90));
  }
}

}  // namespace

void writeMeasurementReportPdf(const MeasurementReport& report,
                               const std::vector<KeyImage>& keyImages,
                               const std::filesystem::path& file) {
  const ReportSubject& subject = report.subject();
  const std::string kind = "Measurement report";
  PdfDocument pdf(documentTitle(kind, subject));
  ReportLayout layout(pdf, runningHeader(kind, subject));
  reportOpening(layout, kind, "Segment volumes and intensities (MR/CT)", report.signOff());
  layout.heading("Patient and study");
  subjectFields(layout, subject);

  layout.heading("Measurements", 60);
  if (report.rows().empty()) {
    layout.paragraph("No segments were measured.");
  } else {
    std::vector<std::vector<TableCell>> rows;
    bool broken = false;
    for (const MeasurementRow& row : report.rows()) {
      rows.push_back(measurementRow(row));
      broken = broken || row.link.broken;
    }
    layout.table({{"Segment", 2.4},
                  {"Label", 0.6, true},
                  {"Voxels", 0.9, true},
                  {"Volume mL", 0.9, true},
                  {"Mean", 0.8, true},
                  {"SD", 0.7, true},
                  {"Largest diameter mm", 1.1, true}},
                 rows);
    layout.paragraph(
        "Values are computed from the segmentation, not typed. Mean and SD are of the image values "
        "inside the segment (none when measured without an image)." +
            std::string(broken ? " Rows marked BROKEN LINK keep the values measured before their "
                                 "segment was deleted."
                               : ""),
        PdfFont::Helvetica, 8, PdfColor::rgb(90, 90, 90));
  }

  layout.heading("Impression");
  notesParagraph(layout, report.notes().impression);
  layout.heading("Recommendations");
  notesParagraph(layout, report.notes().recommendations);

  layout.keyImages(keyImages, "Key images");
  signOffSection(layout, report.signOff());
  layout.finish(footerText("Measurement report"));
  pdf.write(file);
}

}  // namespace delineate::core::report
