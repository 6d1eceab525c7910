#pragma once
// A small PDF 1.4 writer for the report PDFs: A4 pages, text in the standard Helvetica and
// Helvetica-Bold fonts (WinAnsiEncoding; characters it cannot encode are written as '?'), text
// widths from the fonts' AFM metrics (so that text can be wrapped and aligned), lines and
// rectangles in RGB, and 8-bit RGB images as Flate-compressed image XObjects. The file gets a
// cross-reference table with exact byte offsets and a document information dictionary (Title,
// Producer "Delineate", CreationDate).
//
// Coordinates are PDF points (1/72 inch) measured from the page's top-left corner, y downward
// (the writer flips them); text is placed by its baseline.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace delineate::core::report {

enum class PdfFont { Helvetica, HelveticaBold };

struct PdfColor {
  double r = 0, g = 0, b = 0;  // 0..1
  static PdfColor rgb(int r, int g, int b) { return {r / 255.0, g / 255.0, b / 255.0}; }
};

class PdfDocument {
 public:
  static constexpr double kPageWidth = 595.276;  // A4, points
  static constexpr double kPageHeight = 841.89;

  explicit PdfDocument(std::string title);

  // Starts a new page; drawing goes to it (and to later pages only after setPage()).
  void addPage();
  std::size_t pageCount() const { return pages_.size(); }
  // Draws on an earlier page (e.g. page numbers once the page count is known).
  void setPage(std::size_t index);

  // `text` is UTF-8, drawn on one line with its baseline at y.
  void text(double x, double y, std::string_view text, PdfFont font, double size,
            PdfColor color = {});
  void line(double x0, double y0, double x1, double y1, double width, PdfColor color = {});
  void fillRect(double x, double y, double width, double height, PdfColor color);
  void strokeRect(double x, double y, double width, double height, double lineWidth,
                  PdfColor color);
  // An RGB image (3 bytes per pixel, row by row from the top) stretched over the rectangle. The
  // pixels are compressed at once; the caller's buffer is not kept. Throws Error(InvalidInput)
  // when the byte count is not width * height * 3 or a side is 0.
  void image(const std::vector<std::uint8_t>& rgb, int pixelWidth, int pixelHeight, double x,
             double y, double width, double height);

  // Width in points of UTF-8 `text` in `font` at `size`.
  static double textWidth(std::string_view text, PdfFont font, double size);
  // `text` broken into lines no wider than `width` (at spaces; a word wider than the line is
  // broken between characters). Newlines in the text start new lines; empty input gives none.
  static std::vector<std::string> wrap(std::string_view text, PdfFont font, double size,
                                       double width);
  // The WinAnsiEncoding bytes of UTF-8 text: Latin-1 and the WinAnsi punctuation (dashes, curly
  // quotes, bullet, ellipsis, euro) mapped, control characters as spaces, anything else '?'.
  static std::string winAnsi(std::string_view utf8);

  // The whole file. `creationDate` is a PDF date ("D:20240102030405Z"); empty: now (UTC).
  std::string bytes(const std::string& creationDate = {}) const;
  // Writes the file atomically. Throws Error(Io) naming `file` when it cannot be written.
  void write(const std::filesystem::path& file) const;

 private:
  struct ImageObject {
    int width = 0, height = 0;
    std::string deflated;
  };
  struct Page {
    std::string content;
    std::vector<std::size_t> images;  // indices into images_
  };
  Page& current();

  std::string title_;
  std::vector<Page> pages_;
  std::vector<ImageObject> images_;
  std::size_t currentPage_ = 0;
};

}  // namespace delineate::core::report
