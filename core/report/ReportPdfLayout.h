#pragma once
// The page layout both report PDFs share (MammographyReportPdf.cpp, MeasurementReportPdf.cpp): a
// cursor moving down A4 pages with margins, starting a new page when the next block does not fit;
// a title, section headings, wrapped paragraphs, label/value lines, coloured banners, tables
// whose cells wrap (each cell may carry a small grey note under its text, e.g. the provenance)
// and whose header row repeats on every page, key images two to a row with their captions, and a
// running header and "Page i of n" footer on every page.
#include <string>
#include <utility>
#include <vector>

#include "core/report/KeyImage.h"
#include "core/report/PdfDocument.h"
#include "core/report/ReportSignOff.h"
#include "core/report/ReportSubject.h"

namespace delineate::core::report {

struct TableCell {
  std::string text;
  std::string note;    // small grey line(s) under the text; "" for none
  bool alert = false;  // the note in red (e.g. a broken link)
};

struct TableColumn {
  std::string title;
  double weight = 1;   // share of the table's width
  bool right = false;  // right-aligned (numbers)
};

class ReportLayout {
 public:
  static constexpr double kMargin = 48;
  static constexpr double kBodySize = 9.5;

  // `runningHeader` is printed at the top of every page ("Mammography report - DOE^JANE").
  ReportLayout(PdfDocument& pdf, std::string runningHeader);

  double width() const { return PdfDocument::kPageWidth - 2 * kMargin; }
  // Starts a new page when less than `height` points are left on this one.
  void ensure(double height);
  void space(double points) { y_ += points; }

  void title(const std::string& text, const std::string& subtitle);
  // A section heading kept on one page with at least `keepWithNext` points of what follows.
  void heading(const std::string& text, double keepWithNext = 40);
  void paragraph(const std::string& text, PdfFont font = PdfFont::Helvetica,
                 double size = kBodySize, PdfColor color = {});
  // Label/value lines, labels in bold in a column `labelWidth` wide.
  void fields(const std::vector<std::pair<std::string, std::string>>& lines,
              double labelWidth = 110);
  // A full-width box filled with `fill`, `text` centred in bold.
  void banner(const std::string& text, PdfColor fill, PdfColor textColor, double size = 12);
  void table(const std::vector<TableColumn>& columns,
             const std::vector<std::vector<TableCell>>& rows);
  // Two to a row, each scaled into half the width (at most 300 points high), captions under them;
  // `heading` (if not empty) is kept on the page of the first row.
  void keyImages(const std::vector<KeyImage>& images, const std::string& heading);

  // Draws the running header and "Page i of n" footer on every page; call once, at the end.
  void finish(const std::string& footer);

 private:
  void newPage();
  double tableRowHeight(const std::vector<double>& widths, const std::vector<TableCell>& row,
                        PdfFont font) const;
  void tableRow(const std::vector<double>& widths, const std::vector<bool>& right,
                const std::vector<TableCell>& row, PdfFont font, PdfColor background);

  PdfDocument& pdf_;
  std::string runningHeader_;
  double y_ = 0;
};

// A DICOM person name "DOE^JANE^M^DR" as "DOE, JANE M, DR" (other text unchanged).
std::string formatPersonName(const std::string& name);
// `value` with `decimals` digits after the point ("12.5").
std::string fixedText(double value, int decimals);
// "20240102" as "2024-01-02" (other text unchanged).
std::string formatDate(const std::string& yyyymmdd);
// "2024-01-02T03:04:05Z" as "2024-01-02 03:04:05 UTC" (other text unchanged).
std::string formatTime(const std::string& iso);
// "AI", "AI, accepted", "edited", "reader": a field's provenance as the PDFs mark it.
const char* provenanceMark(Provenance provenance);

// The parts both reports share: the subject (patient, study) as label/value lines; the red
// "DRAFT - NOT SIGNED" banner; the sign-off section ("Signed by <name> at <time>" and each addendum
// with its signature, or the draft banner); the footer text ("Delineate - <kind> - generated ...").
void subjectFields(ReportLayout& layout, const ReportSubject& subject);
// The document title of a report ("<kind> - <patient>") and its running header ("<kind> ·
// <patient> · ID <id>").
std::string documentTitle(const std::string& kind, const ReportSubject& subject);
std::string runningHeader(const std::string& kind, const ReportSubject& subject);
// The first lines of a report: title and subtitle, then the draft or the signed banner.
void reportOpening(ReportLayout& layout, const std::string& kind, const std::string& subtitle,
                   const ReportSignOff& signOff);
void draftBanner(ReportLayout& layout);
// The green "FINAL REPORT - SIGNED" banner of a signed report (nothing when unsigned).
void signedBanner(ReportLayout& layout, const ReportSignOff& signOff);
void signOffSection(ReportLayout& layout, const ReportSignOff& signOff);
std::string footerText(const std::string& kind);

}  // namespace delineate::core::report
