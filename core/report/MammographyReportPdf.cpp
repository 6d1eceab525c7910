// The mammography report as PDF (ReportPdf.h).
#include <cstdio>

#include "core/report/ReportPdf.h"
#include "core/report/ReportPdfLayout.h"

namespace delineate::core::report {

namespace {

template <class T>
std::string cellText(const T& value) {
  if constexpr (std::is_same_v<T, std::string>) {
    return value;
  } else if constexpr (std::is_same_v<T, int>) {
    return std::to_string(value) + " o'clock";
  } else if constexpr (std::is_same_v<T, double>) {
    return fixedText(value, 1);
  } else {
    return nameOf(value);
  }
}

// A field's value, and its provenance as the note (with the AI's value when the reader changed
// it).
template <class T>
TableCell cell(const ReportField<T>& field) {
  TableCell c{field.value() ? cellText(*field.value()) : "-", ""};
  if (field.value() || field.aiValue()) {
    c.note = provenanceMark(field.provenance());
    if (field.provenance() == Provenance::Edited && field.aiValue()) {
      c.note += " (AI: " + cellText(*field.aiValue()) + ")";
    }
  }
  return c;
}

template <class T>
void descriptor(std::string& out, const char* label, const ReportField<T>& field) {
  if (!field.value() && !field.aiValue()) {
    return;
  }
  out += (out.empty() ? "" : "\n") + std::string(label) + ": " +
         (field.value() ? cellText(*field.value()) : "-") + " [" +
         provenanceMark(field.provenance()) + "]";
}

std::vector<TableCell> findingRow(const MammoFinding& f) {
  TableCell name{findingName(f.id), ""};
  if (f.view != mammo::ViewCode::Unknown) {
    name.note = std::string(mammo::toString(f.view)) + " view";
  }
  if (f.otherViewFinding) {
    name.note +=
        (name.note.empty() ? "" : "; ") + ("same lesion as " + findingName(f.otherViewFinding));
  }
  if (f.link.broken) {
    name.note += (name.note.empty() ? "" : "; ") + std::string("CAD mark deleted");
    name.alert = true;
  }
  std::string descriptors;
  descriptor(descriptors, "Description", f.description);
  descriptor(descriptors, "Shape", f.massShape);
  descriptor(descriptors, "Margin", f.massMargin);
  descriptor(descriptors, "Density", f.massDensity);
  descriptor(descriptors, "Morphology", f.calcificationMorphology);
  descriptor(descriptors, "Distribution", f.calcificationDistribution);
  return {name,
          cell(f.kind),
          cell(f.laterality),
          cell(f.clockPosition),
          cell(f.depth),
          cell(f.sizeMm),
          {descriptors.empty() ? "-" : descriptors, ""},
          {f.aiScore ? fixedText(*f.aiScore, 2) : "-", ""}};
}

std::vector<TableCell> assessmentRow(const std::string& what,
                                     const ReportField<AssessmentCategory>& field) {
  // The AI's category by its number only: its full name is in the category column's history.
  std::string provenance =
      field.value() || field.aiValue() ? provenanceMark(field.provenance()) : "-";
  if (field.provenance() == Provenance::Edited && field.aiValue()) {
    provenance += " (AI: BI-RADS " + std::string(keyOf(*field.aiValue())) + ")";
  }
  return {{what, ""}, {cell(field).text, ""}, {provenance, ""}};
}

}  // namespace

void writeMammographyReportPdf(const MammographyReport& report,
                               const std::vector<KeyImage>& keyImages,
                               const std::filesystem::path& file) {
  const ReportSubject& subject = report.subject();
  const MammographyContent& content = report.content();
  const std::string kind = "Mammography report";
  PdfDocument pdf(documentTitle(kind, subject));
  ReportLayout layout(pdf, runningHeader(kind, subject));
  reportOpening(layout, kind, "BI-RADS assessment (ACR BI-RADS Atlas, 5th edition)",
                report.signOff());
  const auto& origin = report.aiOrigin();
  if (origin && origin->demonstration) {
    layout.banner("DEMONSTRATION FINDINGS, NOT A DIAGNOSIS", PdfColor::rgb(235, 125, 0),
                  PdfColor{1, 1, 1}, 13);
  }

  layout.heading("Patient and study");
  subjectFields(layout, subject);

  layout.heading("AI");
  if (origin) {
    layout.fields({{"Source", origin->source},
                   {"Case score", origin->riskScore ? fixedText(*origin->riskScore, 2) : "-"}});
    layout.paragraph(
        "Provenance of each value: AI = proposed by the AI, not reviewed; AI, accepted = the AI's "
        "value accepted unchanged by the reader; edited = changed by the reader (the AI's value "
        "in brackets); reader = entered by the reader.",
        PdfFont::Helvetica, 8, PdfColor::rgb(90, 90, 90));
  } else {
    layout.paragraph("None: read without AI.");
  }
  const ReadFirstRecord& readFirst = report.readFirst();
  if (readFirst.enabled) {
    layout.fields(
        {{"Read first", readFirst.ownAssessment
                            ? std::string(nameOf(*readFirst.ownAssessment)) + ", recorded by " +
                                  readFirst.ownAssessmentUser + " at " +
                                  formatTime(readFirst.ownAssessmentTime) +
                                  " before the AI was shown"
                            : "no own assessment recorded"},
         {"AI revealed", readFirst.revealTime.empty() ? "not yet"
                                                      : "by " + readFirst.revealUser + " at " +
                                                            formatTime(readFirst.revealTime)}});
  }

  layout.heading("Breast composition");
  const TableCell composition = cell(content.composition);
  layout.fields(
      {{"Composition", content.composition.value()
                           ? "Category " + std::string(keyOf(*content.composition.value())) + ": " +
                                 composition.text + " [" + composition.note + "]"
                           : "-"}});

  layout.heading("Findings", 60);
  if (content.findings.empty()) {
    layout.paragraph("No findings.");
  } else {
    std::vector<std::vector<TableCell>> rows;
    for (const MammoFinding& f : content.findings) {
      rows.push_back(findingRow(f));
    }
    layout.table({{"Finding", 0.75},
                  {"Kind", 0.95},
                  {"Laterality", 0.85},
                  {"Clock", 0.75},
                  {"Depth", 0.95},
                  {"Size mm", 0.8, true},
                  {"Descriptors", 1.75},
                  {"AI score", 0.75, true}},
                 rows);
  }

  layout.heading("Assessment", 60);
  layout.table({{"Breast", 1}, {"BI-RADS assessment category", 3.6}, {"Provenance", 1.6}},
               {assessmentRow("Right", content.assessmentRight),
                assessmentRow("Left", content.assessmentLeft),
                assessmentRow("Overall", content.assessmentOverall)});

  layout.heading("Management");
  const TableCell management = cell(content.management);
  layout.paragraph(management.text);
  if (!management.note.empty()) {
    layout.paragraph("[" + management.note + "]", PdfFont::Helvetica, 8, PdfColor::rgb(90, 90, 90));
  }
  layout.heading("Impression");
  const TableCell impression = cell(content.impression);
  layout.paragraph(impression.text);
  if (!impression.note.empty()) {
    layout.paragraph("[" + impression.note + "]", PdfFont::Helvetica, 8, PdfColor::rgb(90, 90, 90));
  }

  layout.keyImages(keyImages, "Key images");
  signOffSection(layout, report.signOff());
  layout.finish(footerText("Mammography report"));
  pdf.write(file);
}

}  // namespace delineate::core::report
