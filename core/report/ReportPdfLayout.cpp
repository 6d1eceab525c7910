#include "core/report/ReportPdfLayout.h"
#include "core/Text.h"

#include <cstdio>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <numeric>

namespace delineate::core::report {

namespace {

constexpr double kHeaderY = 30;  // running header baseline
constexpr double kTop = 52;      // where the body starts
constexpr double kBottom = PdfDocument::kPageHeight - 46;
constexpr double kCellPad = 4;
constexpr double kCellSize = 8.5;
constexpr double kNoteSize = 7;

const PdfColor kGrey = PdfColor::rgb(110, 110, 110);
const PdfColor kRule = PdfColor::rgb(190, 190, 190);
const PdfColor kAccent = PdfColor::rgb(30, 60, 110);

double lineHeight(double size) {
  return size * 1.3;
}

}  // namespace

std::string formatPersonName(const std::string& name) {
  if (name.find('^') == std::string::npos) {
    return name;
  }
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (start <= name.size()) {
    const std::size_t end = std::min(name.find('^', start), name.size());
    parts.push_back(name.substr(start, end - start));
    start = end + 1;
  }
  parts.resize(5);
  std::string given = parts[3];  // prefix, given, middle
  for (const std::string& p : {parts[1], parts[2]}) {
    given += (given.empty() || p.empty() ? "" : " ") + p;
  }
  std::string out = parts[0];
  for (const std::string& p : {given, parts[4]}) {
    out += (out.empty() || p.empty() ? "" : ", ") + p;
  }
  return out;
}

std::string formatDate(const std::string& d) {
  return core::isoDateOfDicom(d);
}

const char* provenanceMark(Provenance provenance) {
  switch (provenance) {
    case Provenance::AiProposed:
      return "AI";
    case Provenance::AcceptedUnchanged:
      return "AI, accepted";
    case Provenance::Edited:
      return "edited";
    case Provenance::Manual:
      return "reader";
  }
  return "?";
}

ReportLayout::ReportLayout(PdfDocument& pdf, std::string runningHeader)
    : pdf_(pdf), runningHeader_(std::move(runningHeader)) {
  newPage();
}

void ReportLayout::newPage() {
  pdf_.addPage();
  y_ = kTop;
}

void ReportLayout::ensure(double height) {
  if (y_ + height > kBottom && y_ > kTop) {
    newPage();
  }
}

void ReportLayout::title(const std::string& text, const std::string& subtitle) {
  pdf_.text(kMargin, y_ + 18, text, PdfFont::HelveticaBold, 20, kAccent);
  y_ += 26;
  if (!subtitle.empty()) {
    pdf_.text(kMargin, y_ + 10, subtitle, PdfFont::Helvetica, 9.5, kGrey);
    y_ += 14;
  }
  pdf_.line(kMargin, y_ + 4, kMargin + width(), y_ + 4, 1.2, kAccent);
  y_ += 14;
}

void ReportLayout::heading(const std::string& text, double keepWithNext) {
  ensure(30 + keepWithNext);
  y_ += 8;
  pdf_.text(kMargin, y_ + 11, text, PdfFont::HelveticaBold, 11.5, kAccent);
  y_ += 15;
  pdf_.line(kMargin, y_, kMargin + width(), y_, 0.5, kRule);
  y_ += 7;
}

void ReportLayout::paragraph(const std::string& text, PdfFont font, double size, PdfColor color) {
  for (const std::string& line : PdfDocument::wrap(text, font, size, width())) {
    ensure(lineHeight(size));
    pdf_.text(kMargin, y_ + size, line, font, size, color);
    y_ += lineHeight(size);
  }
  y_ += 3;
}

void ReportLayout::fields(const std::vector<std::pair<std::string, std::string>>& lines,
                          double labelWidth) {
  const double lh = lineHeight(kBodySize);
  for (const auto& [label, value] : lines) {
    const auto wrapped = PdfDocument::wrap(value.empty() ? "-" : value, PdfFont::Helvetica,
                                           kBodySize, width() - labelWidth);
    ensure(lh * static_cast<double>(std::max<std::size_t>(wrapped.size(), 1)));
    pdf_.text(kMargin, y_ + kBodySize, label, PdfFont::HelveticaBold, kBodySize);
    for (const std::string& line : wrapped) {
      pdf_.text(kMargin + labelWidth, y_ + kBodySize, line, PdfFont::Helvetica, kBodySize);
      y_ += lh;
    }
  }
  y_ += 3;
}

void ReportLayout::banner(const std::string& text, PdfColor fill, PdfColor textColor, double size) {
  const auto lines = PdfDocument::wrap(text, PdfFont::HelveticaBold, size, width() - 16);
  const double height = lineHeight(size) * static_cast<double>(lines.size()) + 10;
  ensure(height + 6);
  pdf_.fillRect(kMargin, y_, width(), height, fill);
  double y = y_ + 5 + size;
  for (const std::string& line : lines) {
    const double w = PdfDocument::textWidth(line, PdfFont::HelveticaBold, size);
    pdf_.text(kMargin + (width() - w) / 2, y, line, PdfFont::HelveticaBold, size, textColor);
    y += lineHeight(size);
  }
  y_ += height + 8;
}

double ReportLayout::tableRowHeight(const std::vector<double>& widths,
                                    const std::vector<TableCell>& row, PdfFont font) const {
  double height = 0;
  for (std::size_t c = 0; c < widths.size() && c < row.size(); ++c) {
    const double w = widths[c] - 2 * kCellPad;
    const double text =
        static_cast<double>(PdfDocument::wrap(row[c].text, font, kCellSize, w).size()) *
        lineHeight(kCellSize);
    const double note =
        static_cast<double>(
            PdfDocument::wrap(row[c].note, PdfFont::Helvetica, kNoteSize, w).size()) *
        lineHeight(kNoteSize);
    height = std::max(height, text + note);
  }
  return height + 2 * kCellPad;
}

void ReportLayout::tableRow(const std::vector<double>& widths, const std::vector<bool>& right,
                            const std::vector<TableCell>& row, PdfFont font, PdfColor background) {
  const double height = tableRowHeight(widths, row, font);
  pdf_.fillRect(kMargin, y_, width(), height, background);
  pdf_.line(kMargin, y_, kMargin + width(), y_, 0.4, kRule);
  double x = kMargin;
  for (std::size_t c = 0; c < widths.size() && c < row.size(); ++c) {
    const double w = widths[c] - 2 * kCellPad;
    double y = y_ + kCellPad + kCellSize;
    const auto left = [&](const std::string& line, PdfFont f, double size) {
      return x + kCellPad + (right[c] ? w - PdfDocument::textWidth(line, f, size) : 0);
    };
    for (const std::string& line : PdfDocument::wrap(row[c].text, font, kCellSize, w)) {
      pdf_.text(left(line, font, kCellSize), y, line, font, kCellSize);
      y += lineHeight(kCellSize);
    }
    y += kNoteSize - kCellSize;
    for (const std::string& line :
         PdfDocument::wrap(row[c].note, PdfFont::Helvetica, kNoteSize, w)) {
      pdf_.text(left(line, PdfFont::Helvetica, kNoteSize), y, line, PdfFont::Helvetica, kNoteSize,
                row[c].alert ? PdfColor::rgb(190, 20, 20) : kGrey);
      y += lineHeight(kNoteSize);
    }
    x += widths[c];
  }
  y_ += height;
}

void ReportLayout::table(const std::vector<TableColumn>& columns,
                         const std::vector<std::vector<TableCell>>& rows) {
  const double total = std::accumulate(columns.begin(), columns.end(), 0.0,
                                       [](double s, const TableColumn& c) { return s + c.weight; });
  std::vector<double> widths;
  std::vector<bool> right;
  std::vector<TableCell> header;
  for (const TableColumn& c : columns) {
    right.push_back(c.right);
    widths.push_back(width() * c.weight / total);
    header.push_back({c.title, ""});
  }
  const auto drawHeader = [&] {
    tableRow(widths, right, header, PdfFont::HelveticaBold, PdfColor::rgb(222, 228, 238));
  };
  ensure(tableRowHeight(widths, header, PdfFont::HelveticaBold) +
         (rows.empty() ? 0 : tableRowHeight(widths, rows.front(), PdfFont::Helvetica)));
  drawHeader();
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const double height = tableRowHeight(widths, rows[r], PdfFont::Helvetica);
    if (y_ + height > kBottom) {
      newPage();
      drawHeader();
    }
    tableRow(widths, right, rows[r], PdfFont::Helvetica,
             r % 2 ? PdfColor::rgb(246, 247, 250) : PdfColor{1, 1, 1});
  }
  pdf_.line(kMargin, y_, kMargin + width(), y_, 0.6, kRule);
  y_ += 6;
}

void ReportLayout::keyImages(const std::vector<KeyImage>& images, const std::string& heading) {
  constexpr double kGap = 16;
  constexpr double kMaxHeight = 300;
  const double columnWidth = (width() - kGap) / 2;
  struct Placed {
    const KeyImage* image;
    double w, h;
    std::vector<std::string> caption;
  };
  bool first = true;
  for (std::size_t i = 0; i < images.size(); i += 2) {
    std::vector<Placed> row;
    double rowHeight = 0;
    for (std::size_t k = i; k < std::min(i + 2, images.size()); ++k) {
      const KeyImage& image = images[k];
      if (image.width <= 0 || image.height <= 0) {
        continue;
      }
      const double s = std::min(columnWidth / image.width, kMaxHeight / image.height);
      Placed p{&image, image.width * s, image.height * s,
               PdfDocument::wrap(image.caption, PdfFont::Helvetica, kCellSize, columnWidth)};
      rowHeight = std::max(rowHeight,
                           p.h + 6 + static_cast<double>(p.caption.size()) * lineHeight(kCellSize));
      row.push_back(std::move(p));
    }
    if (first && !heading.empty()) {
      this->heading(heading, rowHeight + 10);
    }
    first = false;
    ensure(rowHeight + 10);
    for (std::size_t k = 0; k < row.size(); ++k) {
      const double x = kMargin + static_cast<double>(k) * (columnWidth + kGap);
      const Placed& p = row[k];
      pdf_.fillRect(x, y_, columnWidth, p.h, PdfColor{0, 0, 0});
      pdf_.image(p.image->rgb, p.image->width, p.image->height, x + (columnWidth - p.w) / 2, y_,
                 p.w, p.h);
      double y = y_ + p.h + 6 + kCellSize;
      for (const std::string& line : p.caption) {
        pdf_.text(x, y, line, PdfFont::Helvetica, kCellSize);
        y += lineHeight(kCellSize);
      }
    }
    y_ += rowHeight + 10;
  }
}

void ReportLayout::finish(const std::string& footer) {
  const std::size_t n = pdf_.pageCount();
  for (std::size_t p = 0; p < n; ++p) {
    pdf_.setPage(p);
    pdf_.text(kMargin, kHeaderY, runningHeader_, PdfFont::Helvetica, 8, kGrey);
    pdf_.line(kMargin, kHeaderY + 5, kMargin + width(), kHeaderY + 5, 0.4, kRule);
    const double y = PdfDocument::kPageHeight - 26;
    pdf_.line(kMargin, y - 11, kMargin + width(), y - 11, 0.4, kRule);
    pdf_.text(kMargin, y, footer, PdfFont::Helvetica, 8, kGrey);
    const std::string page = "Page " + std::to_string(p + 1) + " of " + std::to_string(n);
    pdf_.text(kMargin + width() - PdfDocument::textWidth(page, PdfFont::Helvetica, 8), y, page,
              PdfFont::Helvetica, 8, kGrey);
  }
}

std::string formatTime(const std::string& iso) {
  if (iso.size() >= 19 && iso[10] == 'T') {
    std::string t = iso.substr(0, 10) + " " + iso.substr(11, 8);
    const std::string zone = iso.substr(19);
    return t + (zone == "Z" ? " UTC" : zone.empty() ? "" : " " + zone);
  }
  return iso;
}

void subjectFields(ReportLayout& layout, const ReportSubject& subject) {
  layout.fields({{"Patient name", formatPersonName(subject.patientName)},
                 {"Patient ID", subject.patientId},
                 {"Birth date", formatDate(subject.birthDate)},
                 {"Accession number", subject.accessionNumber},
                 {"Study UID", subject.studyInstanceUid}});
}

std::string documentTitle(const std::string& kind, const ReportSubject& subject) {
  return kind + (subject.patientName.empty() ? "" : " - " + formatPersonName(subject.patientName));
}

std::string runningHeader(const std::string& kind, const ReportSubject& subject) {
  return kind + " \u00B7 " + formatPersonName(subject.patientName) + " \u00B7 ID " +
         subject.patientId;
}

void reportOpening(ReportLayout& layout, const std::string& kind, const std::string& subtitle,
                   const ReportSignOff& signOff) {
  layout.title(kind, subtitle);
  if (!signOff.signature()) {
    draftBanner(layout);
  }
  signedBanner(layout, signOff);
}

void draftBanner(ReportLayout& layout) {
  layout.banner("DRAFT \u2014 NOT SIGNED", PdfColor::rgb(200, 30, 30), PdfColor{1, 1, 1}, 13);
}

void signedBanner(ReportLayout& layout, const ReportSignOff& signOff) {
  if (signOff.signature()) {
    layout.banner("FINAL REPORT \u2014 SIGNED", PdfColor::rgb(30, 120, 60), PdfColor{1, 1, 1}, 13);
  }
}

void signOffSection(ReportLayout& layout, const ReportSignOff& signOff) {
  layout.heading("Sign-off");
  if (!signOff.signature()) {
    layout.paragraph("This report has not been signed. It is not a final report.");
    draftBanner(layout);
    return;
  }
  const Signature& s = *signOff.signature();
  layout.paragraph("Signed by " + s.name + " at " + formatTime(s.time), PdfFont::HelveticaBold,
                   10.5);
  int n = 0;
  for (const Addendum& a : signOff.addenda()) {
    layout.space(4);
    layout.paragraph("Addendum " + std::to_string(++n), PdfFont::HelveticaBold);
    layout.paragraph(a.text);
    layout.paragraph("Signed by " + a.signature.name + " at " + formatTime(a.signature.time),
                     PdfFont::Helvetica, ReportLayout::kBodySize, PdfColor::rgb(80, 80, 80));
  }
}

std::string footerText(const std::string& kind) {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "%Y-%m-%d %H:%M UTC", &tm);
  return "Delineate \u00B7 " + kind + " \u00B7 generated " + buffer;
}

std::string fixedText(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

}  // namespace delineate::core::report
