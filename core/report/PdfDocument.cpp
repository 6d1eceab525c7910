#include "core/report/PdfDocument.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <ctime>

#include "core/Error.h"
#include "core/io/AtomicFile.h"

namespace delineate::core::report {

namespace {

// Advance widths (1/1000 em) from Adobe's Helvetica and Helvetica-Bold AFM files, for the
// WinAnsiEncoding codes 32..126 and 160..255 (code 39 is quotesingle, 96 grave in WinAnsi).
constexpr std::array<short, 95> kHelveticaAscii = {
    278,  278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,  // 32..47
    556,  556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,  // 48..63
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,  // 64..79
    667,  778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,  // 80..95
    333,  556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,  // 96..111
    556,  556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584};      // 112..126
constexpr std::array<short, 95> kBoldAscii = {
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278,  // 32..47
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611,  // 48..63
    975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778,  // 64..79
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556,  // 80..95
    333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611,  // 96..111
    611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584};      // 112..126
constexpr std::array<short, 96> kHelveticaLatin1 = {
    278, 333, 556, 556, 556, 556, 260,  556, 333, 737, 370, 556, 584, 333, 737, 333,   // 160..175
    400, 584, 333, 333, 333, 556, 537,  278, 333, 333, 365, 556, 834, 834, 834, 611,   // 176..191
    667, 667, 667, 667, 667, 667, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278,   // 192..207
    722, 722, 778, 778, 778, 778, 778,  584, 778, 722, 722, 722, 722, 667, 667, 611,   // 208..223
    556, 556, 556, 556, 556, 556, 889,  500, 556, 556, 556, 556, 278, 278, 278, 278,   // 224..239
    556, 556, 556, 556, 556, 556, 556,  584, 611, 556, 556, 556, 556, 500, 556, 500};  // 240..255
constexpr std::array<short, 96> kBoldLatin1 = {
    278, 333, 556, 556, 556, 556, 280,  556, 333, 737, 370, 556, 584, 333, 737, 333,   // 160..175
    400, 584, 333, 333, 333, 611, 556,  278, 333, 333, 365, 556, 834, 834, 834, 611,   // 176..191
    722, 722, 722, 722, 722, 722, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278,   // 192..207
    722, 722, 778, 778, 778, 778, 778,  584, 778, 722, 722, 722, 722, 667, 667, 611,   // 208..223
    556, 556, 556, 556, 556, 556, 889,  556, 556, 556, 556, 556, 278, 278, 278, 278,   // 224..239
    611, 611, 611, 611, 611, 611, 611,  584, 611, 611, 611, 611, 611, 556, 611, 556};  // 240..255

// The WinAnsi punctuation outside Latin-1 that reports use: code point, byte, widths.
struct WinAnsiExtra {
  char32_t codePoint;
  unsigned char code;
  short helvetica, bold;
};
constexpr std::array<WinAnsiExtra, 10> kExtras = {{
    {0x20AC, 0x80, 556, 556},    // Euro
    {0x2026, 0x85, 1000, 1000},  // ellipsis
    {0x2018, 0x91, 222, 278},    // quoteleft
    {0x2019, 0x92, 222, 278},    // quoteright
    {0x201C, 0x93, 333, 500},    // quotedblleft
    {0x201D, 0x94, 333, 500},    // quotedblright
    {0x2022, 0x95, 350, 350},    // bullet
    {0x2013, 0x96, 556, 556},    // endash
    {0x2014, 0x97, 1000, 1000},  // emdash
    {0x2122, 0x99, 1000, 1000},  // trademark
}};

int glyphWidth(unsigned char code, PdfFont font) {
  const bool bold = font == PdfFont::HelveticaBold;
  if (code >= 32 && code <= 126) {
    return (bold ? kBoldAscii : kHelveticaAscii)[code - 32];
  }
  if (code >= 160) {
    return (bold ? kBoldLatin1 : kHelveticaLatin1)[code - 160];
  }
  for (const WinAnsiExtra& e : kExtras) {
    if (e.code == code) {
      return bold ? e.bold : e.helvetica;
    }
  }
  return (bold ? kBoldAscii : kHelveticaAscii)['?' - 32];
}

// Decodes UTF-8; malformed bytes give U+FFFD.
std::u32string codePoints(std::string_view s) {
  std::u32string out;
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    int extra = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
    if (extra < 0 || i + static_cast<std::size_t>(extra) >= s.size() + (extra == 0 ? 1 : 0)) {
      out.push_back(0xFFFD);
      ++i;
      continue;
    }
    char32_t cp = extra == 0 ? c : c & (0x3F >> extra);
    bool ok = true;
    for (int k = 1; k <= extra; ++k) {
      const auto d = static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)]);
      ok = ok && (d & 0xC0) == 0x80;
      cp = (cp << 6) | (d & 0x3F);
    }
    out.push_back(ok ? cp : 0xFFFD);
    i += ok ? static_cast<std::size_t>(extra) + 1 : 1;
  }
  return out;
}

char winAnsiByte(char32_t cp) {
  if (cp < 32 || cp == 127) {
    return ' ';
  }
  if (cp < 127 || (cp >= 160 && cp <= 255)) {
    return static_cast<char>(cp);
  }
  for (const WinAnsiExtra& e : kExtras) {
    if (e.codePoint == cp) {
      return static_cast<char>(e.code);
    }
  }
  return '?';
}

// A number for a content stream: at most 3 decimals, no trailing zeros.
std::string num(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.3f", std::abs(v) < 5e-4 ? 0.0 : v);
  std::string s = buffer;
  s.erase(s.find_last_not_of('0') + 1);
  if (s.back() == '.') {
    s.pop_back();
  }
  return s;
}

std::string colorOp(PdfColor c, const char* op) {
  return num(c.r) + " " + num(c.g) + " " + num(c.b) + " " + op + "\n";
}

// A PDF literal string of WinAnsi bytes.
std::string literal(std::string_view bytes) {
  std::string out = "(";
  for (const char ch : bytes) {
    const auto c = static_cast<unsigned char>(ch);
    if (ch == '(' || ch == ')' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 32 || c > 126) {
      char octal[8];
      std::snprintf(octal, sizeof octal, "\\%03o", c);
      out += octal;
    } else {
      out += ch;
    }
  }
  return out + ")";
}

// A text string for the document information: UTF-16BE with its byte order mark, in hex.
std::string textString(std::string_view utf8) {
  std::string out = "<FEFF";
  char hex[8];
  for (char32_t cp : codePoints(utf8)) {
    if (cp > 0x10FFFF) {
      cp = 0xFFFD;
    }
    if (cp >= 0x10000) {
      const char32_t v = cp - 0x10000;
      std::snprintf(hex, sizeof hex, "%04X", static_cast<unsigned>(0xD800 + (v >> 10)));
      out += hex;
      cp = 0xDC00 + (v & 0x3FF);
    }
    std::snprintf(hex, sizeof hex, "%04X", static_cast<unsigned>(cp));
    out += hex;
  }
  return out + ">";
}

std::string deflate(const std::uint8_t* data, std::size_t size) {
  uLongf length = compressBound(static_cast<uLong>(size));
  std::string out(length, '\0');
  if (compress2(reinterpret_cast<Bytef*>(out.data()), &length, data, static_cast<uLong>(size),
                Z_DEFAULT_COMPRESSION) != Z_OK) {
    throw Error(ErrorKind::Internal, {}, "cannot compress a PDF image");
  }
  out.resize(length);
  return out;
}

std::string nowPdfDate() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[32];
  std::strftime(buffer, sizeof buffer, "D:%Y%m%d%H%M%SZ", &tm);
  return buffer;
}

}  // namespace

PdfDocument::PdfDocument(std::string title) : title_(std::move(title)) {}

void PdfDocument::addPage() {
  pages_.emplace_back();
  currentPage_ = pages_.size() - 1;
}

void PdfDocument::setPage(std::size_t index) {
  if (index >= pages_.size()) {
    throw Error(ErrorKind::Internal, {},
                "PDF page " + std::to_string(index + 1) + " of " + std::to_string(pages_.size()));
  }
  currentPage_ = index;
}

PdfDocument::Page& PdfDocument::current() {
  if (pages_.empty()) {
    addPage();
  }
  return pages_[currentPage_];
}

void PdfDocument::text(double x, double y, std::string_view text, PdfFont font, double size,
                       PdfColor color) {
  const std::string bytes = winAnsi(text);
  if (bytes.empty()) {
    return;
  }
  Page& page = current();
  page.content += "BT\n" + colorOp(color, "rg");
  page.content += std::string(font == PdfFont::HelveticaBold ? "/F2 " : "/F1 ") + num(size) +
                  " Tf\n" + num(x) + " " + num(kPageHeight - y) + " Td\n" + literal(bytes) +
                  " Tj\nET\n";
}

void PdfDocument::line(double x0, double y0, double x1, double y1, double width, PdfColor color) {
  current().content += colorOp(color, "RG") + num(width) + " w\n" + num(x0) + " " +
                       num(kPageHeight - y0) + " m " + num(x1) + " " + num(kPageHeight - y1) +
                       " l S\n";
}

void PdfDocument::fillRect(double x, double y, double width, double height, PdfColor color) {
  current().content += colorOp(color, "rg") + num(x) + " " + num(kPageHeight - y - height) + " " +
                       num(width) + " " + num(height) + " re f\n";
}

void PdfDocument::strokeRect(double x, double y, double width, double height, double lineWidth,
                             PdfColor color) {
  current().content += colorOp(color, "RG") + num(lineWidth) + " w\n" + num(x) + " " +
                       num(kPageHeight - y - height) + " " + num(width) + " " + num(height) +
                       " re S\n";
}

void PdfDocument::image(const std::vector<std::uint8_t>& rgb, int pixelWidth, int pixelHeight,
                        double x, double y, double width, double height) {
  if (pixelWidth <= 0 || pixelHeight <= 0 ||
      rgb.size() !=
          static_cast<std::size_t>(pixelWidth) * static_cast<std::size_t>(pixelHeight) * 3) {
    throw Error(ErrorKind::InvalidInput, {},
                "a PDF image of " + std::to_string(pixelWidth) + " x " +
                    std::to_string(pixelHeight) + " pixels needs width * height * 3 bytes, not " +
                    std::to_string(rgb.size()));
  }
  Page& page = current();
  images_.push_back({pixelWidth, pixelHeight, deflate(rgb.data(), rgb.size())});
  const std::size_t index = images_.size() - 1;
  page.images.push_back(index);
  page.content += "q\n" + num(width) + " 0 0 " + num(height) + " " + num(x) + " " +
                  num(kPageHeight - y - height) + " cm\n/Im" + std::to_string(index + 1) +
                  " Do\nQ\n";
}

std::string PdfDocument::winAnsi(std::string_view utf8) {
  std::string out;
  for (const char32_t cp : codePoints(utf8)) {
    out += winAnsiByte(cp);
  }
  return out;
}

double PdfDocument::textWidth(std::string_view text, PdfFont font, double size) {
  long units = 0;
  for (const char c : winAnsi(text)) {
    units += glyphWidth(static_cast<unsigned char>(c), font);
  }
  return static_cast<double>(units) * size / 1000.0;
}

std::vector<std::string> PdfDocument::wrap(std::string_view text, PdfFont font, double size,
                                           double width) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size() && !text.empty()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view paragraph = text.substr(start, end - start);
    std::string line;
    std::size_t i = 0;
    while (i < paragraph.size()) {
      const std::size_t wordEnd = std::min(paragraph.find(' ', i), paragraph.size());
      std::string word(paragraph.substr(i, wordEnd - i));
      i = wordEnd + 1;
      if (word.empty()) {
        continue;
      }
      const std::string candidate = line.empty() ? word : line + " " + word;
      if (textWidth(candidate, font, size) <= width) {
        line = candidate;
        continue;
      }
      if (!line.empty()) {
        lines.push_back(line);
        line.clear();
      }
      // A word wider than the line: break it between characters (UTF-8 sequences kept whole).
      while (textWidth(word, font, size) > width) {
        std::size_t cut = 0;
        for (std::size_t k = 1; k <= word.size(); ++k) {
          if (k < word.size() && (static_cast<unsigned char>(word[k]) & 0xC0) == 0x80) {
            continue;
          }
          if (textWidth(word.substr(0, k), font, size) > width) {
            break;
          }
          cut = k;
        }
        cut = std::max<std::size_t>(cut, 1);
        lines.push_back(word.substr(0, cut));
        word.erase(0, cut);
      }
      line = word;
    }
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

std::string PdfDocument::bytes(const std::string& creationDate) const {
  std::vector<Page> pages = pages_;
  if (pages.empty()) {
    pages.emplace_back();
  }
  // Objects: 1 catalog, 2 page tree, 3 and 4 fonts, 5 information, then the images, then each
  // page followed by its content stream.
  const int firstImage = 6;
  const int firstPage = firstImage + static_cast<int>(images_.size());
  const int objectCount = firstPage + 2 * static_cast<int>(pages.size()) - 1;
  std::vector<std::size_t> offsets(static_cast<std::size_t>(objectCount) + 1, 0);
  std::string out = "%PDF-1.4\n%\xE2\xE3\xCF\xD3\n";
  const auto begin = [&](int object) {
    offsets[static_cast<std::size_t>(object)] = out.size();
    out += std::to_string(object) + " 0 obj\n";
  };
  const auto stream = [&](const std::string& dictionary, const std::string& data) {
    out += "<< " + dictionary + "/Length " + std::to_string(data.size()) + " >>\nstream\n";
    out += data;
    out += "\nendstream\nendobj\n";
  };

  begin(1);
  out += "<< /Type /Catalog /Pages 2 0 R >>\nendobj\n";
  begin(2);
  out += "<< /Type /Pages /Kids [";
  for (std::size_t p = 0; p < pages.size(); ++p) {
    out += (p ? " " : "") + std::to_string(firstPage + 2 * static_cast<int>(p)) + " 0 R";
  }
  out += "] /Count " + std::to_string(pages.size()) + " >>\nendobj\n";
  for (const auto& [object, name] : {std::pair{3, "Helvetica"}, std::pair{4, "Helvetica-Bold"}}) {
    begin(object);
    out += std::string("<< /Type /Font /Subtype /Type1 /BaseFont /") + name +
           " /Encoding /WinAnsiEncoding >>\nendobj\n";
  }
  begin(5);
  out += "<< /Title " + textString(title_) + " /Producer " + textString("Delineate") +
         " /CreationDate " + literal(creationDate.empty() ? nowPdfDate() : creationDate) +
         " >>\nendobj\n";
  for (std::size_t i = 0; i < images_.size(); ++i) {
    begin(firstImage + static_cast<int>(i));
    stream("/Type /XObject /Subtype /Image /Width " + std::to_string(images_[i].width) +
               " /Height " + std::to_string(images_[i].height) +
               " /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode ",
           images_[i].deflated);
  }
  for (std::size_t p = 0; p < pages.size(); ++p) {
    const int object = firstPage + 2 * static_cast<int>(p);
    begin(object);
    out += "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 " + num(kPageWidth) + " " +
           num(kPageHeight) + "] /Resources << /Font << /F1 3 0 R /F2 4 0 R >>";
    if (!pages[p].images.empty()) {
      out += " /XObject <<";
      for (const std::size_t i : pages[p].images) {
        out += " /Im" + std::to_string(i + 1) + " " +
               std::to_string(firstImage + static_cast<int>(i)) + " 0 R";
      }
      out += " >>";
    }
    out += " >> /Contents " + std::to_string(object + 1) + " 0 R >>\nendobj\n";
    begin(object + 1);
    stream("", pages[p].content);
  }
  const std::size_t xref = out.size();
  out += "xref\n0 " + std::to_string(objectCount + 1) + "\n0000000000 65535 f \n";
  for (int object = 1; object <= objectCount; ++object) {
    char entry[32];
    std::snprintf(entry, sizeof entry, "%010zu 00000 n \n",
                  offsets[static_cast<std::size_t>(object)]);
    out += entry;
  }
  out += "trailer\n<< /Size " + std::to_string(objectCount + 1) +
         " /Root 1 0 R /Info 5 0 R >>\nstartxref\n" + std::to_string(xref) + "\n%%EOF\n";
  return out;
}

void PdfDocument::write(const std::filesystem::path& file) const {
  writeTextAtomically(file, bytes(), "PDF report");
}

}  // namespace delineate::core::report
