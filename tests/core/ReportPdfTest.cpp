// The reports as PDF: rendered with poppler (pdftoppm, pdftotext) and checked for their text (the
// signature or the draft mark, the demonstration banner, a finding's values, page numbers) and
// pixels (a key image placed where the layout puts it); the PDF writer's metrics and file
// structure; an unwritable path. Set DELINEATE_KEEP_REPORT_PDF to a folder to keep the PDFs and
// their rendered pages there.
#include <gtest/gtest.h>
#include <png.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>

#include "ReportTestSupport.h"
#include "RunCommand.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/report/MammographyDraft.h"
#include "core/report/PdfDocument.h"
#include "core/report/ReportPdf.h"
#include "core/report/ReportPdfLayout.h"

using namespace delineate::core;
using namespace delineate::core::report;
namespace fs = std::filesystem;

namespace {

struct Png {
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;
  std::array<int, 3> at(int x, int y) const {
    const std::size_t i = (std::size_t(y) * std::size_t(width) + std::size_t(x)) * 3;
    return {rgb[i], rgb[i + 1], rgb[i + 2]};
  }
};

Png readPng(const fs::path& file) {
  png_image image{};
  image.version = PNG_IMAGE_VERSION;
  Png out;
  if (!png_image_begin_read_from_file(&image, file.c_str())) {
    ADD_FAILURE() << "cannot read " << file << ": " << image.message;
    return out;
  }
  image.format = PNG_FORMAT_RGB;
  out.width = int(image.width);
  out.height = int(image.height);
  out.rgb.resize(PNG_IMAGE_SIZE(image));
  EXPECT_TRUE(png_image_finish_read(&image, nullptr, out.rgb.data(), 0, nullptr)) << file;
  return out;
}

struct Rendered {
  std::string text;             // pdftotext -layout, pages separated by form feeds
  std::vector<fs::path> pages;  // pdftoppm -r 72 -png: one PNG per page, 1 pixel per point
};

Rendered render(const fs::path& pdf) {
  Rendered r;
  std::string output;
  EXPECT_EQ(delineate::test::runCommand("pdftotext -layout '" + pdf.string() + "' -", &output), 0)
      << output;
  r.text = output;
  EXPECT_EQ(output.find("Error"), std::string::npos) << output;  // poppler's syntax errors
  const fs::path prefix = pdf.parent_path() / (pdf.stem().string() + "-page");
  EXPECT_EQ(delineate::test::runCommand(
                "pdftoppm -r 72 -png '" + pdf.string() + "' '" + prefix.string() + "'", &output),
            0)
      << output;
  for (const auto& entry : fs::directory_iterator(pdf.parent_path())) {
    if (entry.path().filename().string().rfind(prefix.filename().string(), 0) == 0 &&
        entry.path().extension() == ".png") {
      r.pages.push_back(entry.path());
    }
  }
  std::sort(r.pages.begin(), r.pages.end());
  if (const char* keep = std::getenv("DELINEATE_KEEP_REPORT_PDF")) {
    fs::create_directories(keep);
    fs::copy_file(pdf, fs::path(keep) / pdf.filename(), fs::copy_options::overwrite_existing);
    for (const fs::path& page : r.pages) {
      fs::copy_file(page, fs::path(keep) / page.filename(), fs::copy_options::overwrite_existing);
    }
  }
  return r;
}

ReportSubject subject() {
  return {"DOE^JANE", "PID-4711", "19650304", "1.2.826.0.1.3680043.2.1125.1", "ACC-2026-0042"};
}

// The left-breast demonstration draft of ReportTestSupport.h with the reader's work done: every
// proposal accepted, composition b, F1's shape entered, F2's size changed from the AI's 6 mm.
MammographyReport reviewedReport() {
  MammographyReport report =
      draftFromFindings(delineate::test::leftStudyFindings(), delineate::test::leftStudyFacts());
  report.setSubject(subject());
  report.edit("reader", "2026-01-02T03:00:00Z", [](MammographyContent& c) {
    acceptAllProposals(c);
    c.composition.set(BreastComposition::B);
    c.findings[0].massShape.set(MassShape::Irregular);
    c.findings[1].sizeMm.set(7.0);
  });
  return report;
}

// The line of `text` holding `needle`, "" when none.
std::string lineWith(const std::string& text, const std::string& needle) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.find(needle) != std::string::npos) {
      return line;
    }
  }
  return {};
}

bool contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

}  // namespace

TEST(ReportPdf, SignedMammographyReportShowsSignatureAddendaAndFindingValues) {
  delineate::test::TempDir dir;
  MammographyReport report = reviewedReport();
  report.sign("Dr. Ada Reader", "2026-01-02T03:04:05Z");
  report.addAddendum("Prior films from 2024 reviewed: the mass is new.", "Dr. Ada Reader",
                     "2026-01-03T10:00:00Z");
  const fs::path pdf = dir / "mammography-signed.pdf";
  writeMammographyReportPdf(report, {}, pdf);
  const Rendered r = render(pdf);

  EXPECT_TRUE(contains(r.text, "Signed by Dr. Ada Reader at 2026-01-02 03:04:05 UTC")) << r.text;
  EXPECT_TRUE(contains(r.text, "Prior films from 2024 reviewed: the mass is new.")) << r.text;
  EXPECT_TRUE(contains(r.text, "Signed by Dr. Ada Reader at 2026-01-03 10:00:00 UTC")) << r.text;
  EXPECT_FALSE(contains(r.text, "DRAFT")) << r.text;
  EXPECT_TRUE(contains(r.text, "DEMONSTRATION FINDINGS, NOT A DIAGNOSIS")) << r.text;
  // The subject, for the patient record.
  for (const char* s : {"DOE, JANE", "PID-4711", "1965-03-04", "ACC-2026-0042"}) {
    EXPECT_TRUE(contains(r.text, s)) << s;
  }
  // F1's row: kind, laterality, clock, depth, size, AI score; then the provenance line under it.
  const std::string f1 = lineWith(r.text, "F1 ");
  for (const char* s : {"Mass", "Left breast", "2 o'clock", "Anterior", "10.0", "0.81"}) {
    EXPECT_TRUE(contains(f1, s)) << s << " not in: " << f1;
  }
  EXPECT_TRUE(contains(r.text, "Shape: Irregular [reader]")) << r.text;
  EXPECT_TRUE(contains(r.text, "edited (AI:")) << r.text;  // F2's size: 7.0, the AI said 6.0
  EXPECT_TRUE(contains(r.text, "AI, accepted")) << r.text;
  EXPECT_TRUE(contains(r.text, "BI-RADS 0: Incomplete")) << r.text;
  EXPECT_TRUE(contains(r.text, "There are scattered areas of fibroglandular density")) << r.text;
  EXPECT_TRUE(contains(r.text, "Page 1 of " + std::to_string(r.pages.size()))) << r.text;
}

TEST(ReportPdf, UnsignedReportIsMarkedDraftAndShowsUnreviewedProposals) {
  delineate::test::TempDir dir;
  MammographyReport report =
      draftFromFindings(delineate::test::leftStudyFindings(), delineate::test::leftStudyFacts());
  report.setSubject(subject());
  const fs::path pdf = dir / "mammography-draft.pdf";
  writeMammographyReportPdf(report, {}, pdf);
  const Rendered r = render(pdf);
  EXPECT_TRUE(contains(r.text, "DRAFT")) << r.text;
  EXPECT_TRUE(contains(r.text, "NOT SIGNED")) << r.text;
  EXPECT_FALSE(contains(r.text, "Signed by")) << r.text;
  // An unreviewed proposal is marked "AI" alone: "AI, accepted" only in the legend, and under F1's
  // row kind, laterality, clock, depth and size each say "AI".
  EXPECT_EQ(r.text.find("AI, accepted"), r.text.rfind("AI, accepted")) << r.text;
  const std::size_t f1 = r.text.find(lineWith(r.text, "F1 "));
  ASSERT_NE(f1, std::string::npos);
  const std::size_t notesStart = r.text.find('\n', f1) + 1;
  const std::string notes = r.text.substr(notesStart, r.text.find('\n', notesStart) - notesStart);
  const std::regex ai("\\bAI\\b");
  EXPECT_EQ(
      std::distance(std::sregex_iterator(notes.begin(), notes.end(), ai), std::sregex_iterator()),
      5)
      << notes;

  // The draft mark is drawn in red under the title: saturated red pixels near the page's top.
  ASSERT_GE(r.pages.size(), 1u);
  const Png page = readPng(r.pages[0]);
  int red = 0;
  for (int y = 0; y < 200; ++y) {
    for (int x = 0; x < page.width; ++x) {
      const auto p = page.at(x, y);
      red += p[0] > 180 && p[1] < 60 && p[2] < 60;
    }
  }
  EXPECT_GT(red, 2000);
}

TEST(ReportPdf, KeyImageIsDrawnWhereTheLayoutPlacesIt) {
  delineate::test::TempDir dir;
  // 200 x 100 grey picture, a saturated red 40 x 40 square in its top-left corner and a green one
  // in its bottom-right corner.
  KeyImage key;
  key.width = 200;
  key.height = 100;
  key.rgb.assign(200 * 100 * 3, 90);
  for (int y = 0; y < 40; ++y) {
    for (int x = 0; x < 40; ++x) {
      key.setPixel(x, y, {255, 0, 0});
      key.setPixel(199 - x, 99 - y, {0, 255, 0});
    }
  }
  key.caption = "Synthetic key image with two marked corners";
  MeasurementRow row;
  row.name = "Lesion";
  row.label = 1;
  row.volumeMl = 1.25;
  const MeasurementReport report =
      MeasurementReport::restore(subject(), {row}, {}, ReportSignOff{});
  const fs::path pdf = dir / "key-image.pdf";
  writeMeasurementReportPdf(report, {key}, pdf);
  const Rendered r = render(pdf);
  EXPECT_TRUE(contains(r.text, key.caption)) << r.text;
  ASSERT_EQ(r.pages.size(), 1u);
  const Png page = readPng(r.pages[0]);
  // Bounding boxes of the red and the green pixels.
  const auto box = [&](auto match) {
    std::array<int, 4> b{page.width, page.height, -1, -1};
    for (int y = 0; y < page.height; ++y) {
      for (int x = 0; x < page.width; ++x) {
        if (match(page.at(x, y))) {
          b = {std::min(b[0], x), std::min(b[1], y), std::max(b[2], x), std::max(b[3], y)};
        }
      }
    }
    return b;
  };
  const auto red = box([](auto p) { return p[0] > 230 && p[1] < 30 && p[2] < 30; });
  const auto green = box([](auto p) { return p[1] > 230 && p[0] < 30 && p[2] < 30; });
  ASSERT_GE(red[2], 0);
  ASSERT_GE(green[2], 0);
  // Two to a row: the image is scaled to half the text width less the gap, at the left margin.
  const double scale = (PdfDocument::kPageWidth - 2 * ReportLayout::kMargin - 16) / 2 / key.width;
  EXPECT_NEAR(red[0], ReportLayout::kMargin, 1.5);
  EXPECT_NEAR(red[2] - red[0] + 1, 40 * scale, 2);
  EXPECT_NEAR(red[3] - red[1] + 1, 40 * scale, 2);
  EXPECT_NEAR(green[2] - red[0] + 1, 200 * scale, 2);  // opposite corners of one picture
  EXPECT_NEAR(green[3] - red[1] + 1, 100 * scale, 2);
  EXPECT_GT(red[1], 150);  // under the title, subject and table
}

TEST(ReportPdf, LongMeasurementReportRunsOntoANumberedSecondPage) {
  delineate::test::TempDir dir;
  std::vector<MeasurementRow> rows;
  for (int i = 1; i <= 33; ++i) {
    MeasurementRow row;
    row.name = "Lesion " + std::to_string(i);
    row.label = std::uint16_t(i);
    row.voxels = std::size_t(100 * i);
    row.volumeMl = 0.1 * i;
    row.mean = 50.0 + i;
    row.sd = 3.5;
    row.largestDiameterMm = 4.0 + i;
    row.link = ReportLink::toSegment("lesions", std::uint16_t(i));
    row.link.broken = i == 33;
    rows.push_back(row);
  }
  MeasurementNotes notes;
  notes.impression = ReportField<std::string>::manual("Thirty-three lesions, unchanged.");
  MeasurementReport report = MeasurementReport::restore(subject(), rows, notes, ReportSignOff{});
  report.sign("Dr. Bo Reader", "2026-02-03T04:05:06Z");
  const fs::path pdf = dir / "measurement-long.pdf";
  writeMeasurementReportPdf(report, {}, pdf);
  const Rendered r = render(pdf);
  EXPECT_EQ(r.pages.size(), 2u);
  EXPECT_TRUE(contains(r.text, "Page 1 of 2")) << r.text;
  EXPECT_TRUE(contains(r.text, "Page 2 of 2")) << r.text;
  EXPECT_FALSE(contains(r.text, "Page 3")) << r.text;
  const std::string l7 = lineWith(r.text, "Lesion 7 ");
  for (const char* s : {"700", "0.70", "57.0", "3.5", "11.0"}) {
    EXPECT_TRUE(contains(l7, s)) << s << " not in: " << l7;
  }
  EXPECT_TRUE(contains(r.text, "BROKEN LINK")) << r.text;
  EXPECT_TRUE(contains(r.text, "Signed by Dr. Bo Reader at 2026-02-03 04:05:06 UTC")) << r.text;
  EXPECT_FALSE(contains(r.text, "DRAFT")) << r.text;
}

TEST(ReportPdf, UnwritablePathGivesAnErrorNamingIt) {
  delineate::test::TempDir dir;
  std::ofstream(dir / "not-a-folder") << "x";
  const fs::path pdf = dir / "not-a-folder" / "report.pdf";
  try {
    writeMeasurementReportPdf(MeasurementReport{}, {}, pdf);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Io);
    EXPECT_TRUE(contains(e.what(), pdf.string())) << e.what();
  }
  EXPECT_FALSE(fs::exists(pdf));
}

TEST(ReportPdf, WriterUsesHelveticaMetricsWinAnsiAndExactOffsets) {
  // AFM widths: H 722, e 556, l 222, o 556 (Helvetica); bold H 722, e 556, l 278, o 611.
  EXPECT_NEAR(PdfDocument::textWidth("Hello", PdfFont::Helvetica, 10), 22.78, 1e-9);
  EXPECT_NEAR(PdfDocument::textWidth("Hello", PdfFont::HelveticaBold, 10), 24.45, 1e-9);
  EXPECT_NEAR(PdfDocument::textWidth("\u00E9\u2014", PdfFont::Helvetica, 1), 1.556, 1e-9);
  EXPECT_EQ(PdfDocument::winAnsi("D\u00E9j\u00E0 \u2014 \u4E2D\u20AC"), "D\xE9j\xE0 \x97 ?\x80");
  const auto lines = PdfDocument::wrap("one two three four\nfive", PdfFont::Helvetica, 10,
                                       61);  // "one two three" is 60.59
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_EQ(lines[0], "one two three");
  EXPECT_EQ(lines[1], "four");
  EXPECT_EQ(lines[2], "five");
  for (const std::string& l :
       PdfDocument::wrap("Supercalifragilistic", PdfFont::Helvetica, 10, 30)) {
    EXPECT_LE(PdfDocument::textWidth(l, PdfFont::Helvetica, 10), 30) << l;
  }

  PdfDocument pdf("T\u00EFtle");
  pdf.text(50, 50, "(x) \\ y", PdfFont::Helvetica, 12);
  pdf.image(std::vector<std::uint8_t>(6 * 4 * 3, 200), 6, 4, 50, 60, 60, 40);
  pdf.addPage();
  const std::string bytes = pdf.bytes("D:20260102030405Z");
  EXPECT_EQ(bytes.rfind("%PDF-1.4\n", 0), 0u);
  EXPECT_TRUE(contains(bytes, "(\\(x\\) \\\\ y) Tj"));
  EXPECT_TRUE(contains(bytes, "/Filter /FlateDecode"));
  // Every xref entry is the byte offset of its "N 0 obj".
  const std::size_t xref = bytes.rfind("\nxref\n") + 1;
  std::istringstream table(bytes.substr(xref));
  std::string word;
  int first = 0, count = 0;
  table >> word >> first >> count;
  ASSERT_EQ(count, 11);  // free entry, catalog, pages, 2 fonts, info, 1 image, 2 pages x 2
  for (int n = 0; n < count; ++n) {
    std::size_t offset = 0;
    int generation = 0;
    std::string use;
    table >> offset >> generation >> use;
    if (n > 0) {
      EXPECT_EQ(bytes.compare(offset, std::to_string(n).size() + 6, std::to_string(n) + " 0 obj"),
                0)
          << "object " << n;
    }
  }
  EXPECT_TRUE(contains(bytes, "startxref\n" + std::to_string(xref) + "\n%%EOF"));

  delineate::test::TempDir dir;
  pdf.write(dir / "small.pdf");
  std::string info;
  ASSERT_EQ(delineate::test::runCommand("pdfinfo '" + (dir / "small.pdf").string() + "'", &info),
            0);
  EXPECT_TRUE(std::regex_search(info, std::regex("Title: +T\u00EFtle"))) << info;
  EXPECT_TRUE(std::regex_search(info, std::regex("Producer: +Delineate"))) << info;
  EXPECT_TRUE(std::regex_search(info, std::regex("Pages: +2"))) << info;
  EXPECT_TRUE(contains(info, "2026")) << info;
  EXPECT_FALSE(contains(info, "Error")) << info;
}
