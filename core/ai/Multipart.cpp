#include "core/ai/Multipart.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <random>
#include <tuple>
#include <utility>

#include "core/Error.h"
#include "core/Text.h"

namespace delineate::core::ai {

namespace {

constexpr std::size_t kMaxBoundaryLength = 200;     // RFC 2046 says 70; accept some slack
constexpr std::size_t kMaxHeaderBytes = 16 * 1024;  // per part
constexpr std::size_t kMaxParts = 10000;
constexpr std::size_t kMaxQuotedInMessage = 60;  // characters of input quoted in errors

[[noreturn]] void fail(const std::string& what) {
  throw Error(ErrorKind::InvalidInput, {}, what);
}

std::string toLower(std::string_view s) {
  std::string out(s);
  for (char& c : out) {
    c = asciiLower(c);
  }
  return out;
}

bool isSpace(char c) {
  return c == ' ' || c == '\t';
}

// Printable excerpt of untrusted text for an error message.
std::string inQuotes(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, kMaxQuotedInMessage)) {
    const auto u = static_cast<unsigned char>(c);
    out += (u >= 0x20 && u < 0x7f) ? c : '?';
  }
  if (s.size() > kMaxQuotedInMessage) {
    out += "...";
  }
  return "'" + out + "'";
}

// A header value split into its leading value and `; key=value` parameters (keys lower-cased,
// quoted values unquoted). Tolerates spaces around `=`, unterminated quotes and empty items.
struct HeaderValue {
  std::string value;
  std::vector<std::pair<std::string, std::string>> params;

  const std::string* param(std::string_view key) const {
    for (const auto& [k, v] : params) {
      if (k == key) {
        return &v;
      }
    }
    return nullptr;
  }
};

HeaderValue parseHeaderValue(std::string_view s) {
  HeaderValue out;
  std::size_t pos = 0;
  auto readItem = [&]() {
    // Up to the next unquoted ';'. Returns key and value of `key=value`, or the item as key.
    std::string key;
    std::string value;
    bool inValue = false;
    bool sawQuote = false;
    std::string* target = &key;
    while (pos < s.size() && s[pos] != ';') {
      const char c = s[pos];
      if (c == '=' && !inValue) {
        inValue = true;
        target = &value;
        ++pos;
        continue;
      }
      if (c == '"' && inValue && !sawQuote && std::string_view(trimWhitespace(value)).empty()) {
        value.clear();
        sawQuote = true;
        ++pos;
        while (pos < s.size() && s[pos] != '"') {
          if (s[pos] == '\\' && pos + 1 < s.size() && (s[pos + 1] == '"' || s[pos + 1] == '\\')) {
            ++pos;
          }
          value += s[pos++];
        }
        if (pos < s.size()) {
          ++pos;  // closing quote
        }
        // Anything between the closing quote and ';' is ignored.
        while (pos < s.size() && s[pos] != ';') {
          ++pos;
        }
        break;
      }
      *target += c;
      ++pos;
    }
    if (pos < s.size()) {
      ++pos;  // ';'
    }
    if (!sawQuote) {
      value = std::string(trimWhitespace(value));
    }
    return std::make_tuple(std::string(trimWhitespace(key)), std::move(value), inValue);
  };
  {
    auto [first, rest, hasEquals] = readItem();
    out.value = hasEquals ? first + "=" + rest : first;
  }
  while (pos < s.size()) {
    auto [key, value, hasEquals] = readItem();
    if (!key.empty()) {
      out.params.emplace_back(toLower(key), hasEquals ? std::move(value) : std::string());
    }
  }
  return out;
}

int hexValue(char c) {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  c = asciiLower(c);
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  return -1;
}

// RFC 5987 ext-value: charset'language'percent-encoded.
std::string decodeExtValue(std::string_view v) {
  const std::size_t first = v.find('\'');
  const std::size_t second = first == std::string_view::npos ? first : v.find('\'', first + 1);
  if (second != std::string_view::npos) {
    v.remove_prefix(second + 1);
  }
  std::string out;
  for (std::size_t n = 0; n < v.size(); ++n) {
    if (v[n] == '%' && n + 2 < v.size()) {
      const int hi = hexValue(v[n + 1]);
      const int lo = hexValue(v[n + 2]);
      if (hi >= 0 && lo >= 0) {
        out += static_cast<char>(hi * 16 + lo);
        n += 2;
        continue;
      }
    }
    out += v[n];
  }
  return out;
}

bool isBoundaryChar(char c) {
  if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
    return true;
  }
  return std::string_view("'()+_,-./:=? ").find(c) != std::string_view::npos;
}

std::string escapeDispositionValue(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '"') {
      out += "%22";
    } else if (c == '\r') {
      out += "%0D";
    } else if (c == '\n') {
      out += "%0A";
    } else {
      out += c;
    }
  }
  return out;
}

// What follows a `--boundary` match at `at`.
enum class AfterDelimiter { Open, Close, EndOfInput, NotDelimiter };

AfterDelimiter classifyAfter(std::string_view body, std::size_t at, std::size_t& next) {
  const std::string_view rest = body.substr(std::min(at, body.size()));
  if (rest.substr(0, 2) == "--") {
    next = body.size();
    return AfterDelimiter::Close;
  }
  if (rest == "-") {
    return AfterDelimiter::EndOfInput;  // a close delimiter cut short
  }
  std::size_t n = 0;
  while (n < rest.size() && isSpace(rest[n])) {
    ++n;
  }
  if (n == rest.size() || rest.substr(n) == "\r") {
    return AfterDelimiter::EndOfInput;
  }
  if (rest.substr(n, 2) == "\r\n") {
    next = at + n + 2;
    return AfterDelimiter::Open;
  }
  if (rest[n] == '\n') {
    next = at + n + 1;
    return AfterDelimiter::Open;
  }
  return AfterDelimiter::NotDelimiter;
}

std::string partLabel(const MultipartPart& part, std::size_t index) {
  return part.name.empty() ? "part " + std::to_string(index + 1) : "part " + inQuotes(part.name);
}

// Reads the header block of a part starting at `pos`; leaves `pos` at the first body byte.
void readPartHeaders(std::string_view body, std::size_t& pos, MultipartPart& part,
                     std::size_t index) {
  const std::size_t start = pos;
  std::vector<std::pair<std::string, std::string>> headers;
  while (true) {
    const std::size_t eol = body.find('\n', pos);
    const std::size_t lineEnd = eol == std::string_view::npos ? body.size() : eol;
    if (lineEnd - start > kMaxHeaderBytes) {
      fail("multipart headers of " + partLabel(part, index) + " are longer than " +
           std::to_string(kMaxHeaderBytes) + " bytes");
    }
    if (eol == std::string_view::npos) {
      fail("multipart body ends inside the headers of " + partLabel(part, index));
    }
    std::string_view line = body.substr(pos, eol - pos);
    pos = eol + 1;
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    if (line.empty()) {
      return;
    }
    if (isSpace(line.front()) && !headers.empty()) {
      headers.back().second += " ";
      headers.back().second += trimWhitespace(line);  // obsolete header folding
    } else {
      const std::size_t colon = line.find(':');
      if (colon == std::string_view::npos) {
        continue;  // not a header; ignore
      }
      headers.emplace_back(toLower(trimWhitespace(line.substr(0, colon))),
                           std::string(trimWhitespace(line.substr(colon + 1))));
    }
    const auto& [key, value] = headers.back();
    if (key == "content-disposition") {
      part.name = headerParameter(value, "name").value_or(std::string());
      part.filename = dispositionFilename(value);
    } else if (key == "content-type") {
      part.contentType = value;
    }
  }
}

}  // namespace

bool MultipartPart::isFile() const {
  return filename.has_value() || mediaTypeIs(contentType, "application", "octet-stream");
}

MultipartEncoder::MultipartEncoder() : boundary_(randomBoundary()) {}

MultipartEncoder::MultipartEncoder(std::string boundary) : boundary_(std::move(boundary)) {
  if (boundary_.empty() || boundary_.size() > 70 || boundary_.back() == ' ' ||
      !std::all_of(boundary_.begin(), boundary_.end(), isBoundaryChar)) {
    fail("multipart boundary " + inQuotes(boundary_) +
         " is not 1 to 70 letters, digits or '()+_,-./:=? (RFC 2046)");
  }
}

std::string MultipartEncoder::randomBoundary() {
  thread_local std::mt19937_64 engine = [] {
    std::random_device device;
    const auto now =
        static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    std::seed_seq seq{device(),
                      device(),
                      device(),
                      device(),
                      static_cast<unsigned>(now),
                      static_cast<unsigned>(now >> 32)};
    return std::mt19937_64(seq);
  }();
  static const char digits[] = "0123456789abcdef";
  std::string out;
  for (int word = 0; word < 2; ++word) {
    std::uint64_t bits = engine();
    for (int n = 0; n < 16; ++n) {
      out += digits[bits & 0xf];
      bits >>= 4;
    }
  }
  return out;
}

std::string MultipartEncoder::contentType() const {
  const bool needsQuotes = std::any_of(boundary_.begin(), boundary_.end(), [](char c) {
    return std::string_view("'()+,/:=? ").find(c) != std::string_view::npos;
  });
  return "multipart/form-data; boundary=" + (needsQuotes ? "\"" + boundary_ + "\"" : boundary_);
}

void MultipartEncoder::beginPart(std::string_view name, const std::string* filename,
                                 std::string_view contentType) {
  if (contentType.find_first_of("\r\n") != std::string_view::npos) {
    fail("multipart content type " + inQuotes(contentType) + " contains a line break");
  }
  body_ += "--";
  body_ += boundary_;
  body_ += "\r\nContent-Disposition: form-data; name=\"";
  body_ += escapeDispositionValue(name);
  body_ += '"';
  if (filename != nullptr) {
    body_ += "; filename=\"";
    body_ += escapeDispositionValue(*filename);
    body_ += '"';
  }
  body_ += "\r\n";
  if (!contentType.empty()) {
    body_ += "Content-Type: ";
    body_ += contentType;
    body_ += "\r\n";
  }
  body_ += "\r\n";
}

void MultipartEncoder::appendBody(std::string_view bytes) {
  const std::string delimiter = "--" + boundary_;
  if (bytes.find(delimiter) != std::string_view::npos) {
    fail("multipart part contains its boundary " + inQuotes(boundary_) + "; use another boundary");
  }
  body_ += bytes;
  body_ += "\r\n";
}

void MultipartEncoder::addField(std::string_view name, std::string_view value) {
  beginPart(name, nullptr, {});
  appendBody(value);
}

void MultipartEncoder::addFile(std::string_view name, std::string_view filename,
                               std::string_view bytes, std::string_view contentType) {
  const std::string file(filename);
  beginPart(name, &file, contentType);
  appendBody(bytes);
}

std::string MultipartEncoder::finish() {
  body_ += "--";
  body_ += boundary_;
  body_ += "--\r\n";
  std::string out = std::move(body_);
  body_.clear();
  return out;
}

std::optional<std::string> multipartBoundary(std::string_view contentTypeHeader) {
  if (!mediaTypeIs(contentTypeHeader, "multipart", "*")) {
    return std::nullopt;
  }
  const std::optional<std::string> boundary = headerParameter(contentTypeHeader, "boundary");
  if (!boundary || boundary->empty() || boundary->size() > kMaxBoundaryLength ||
      boundary->find_first_of("\r\n") != std::string::npos) {
    return std::nullopt;
  }
  return *boundary;
}

bool mediaTypeIs(std::string_view contentTypeHeader, std::string_view type,
                 std::string_view subtype) {
  std::string_view media = contentTypeHeader.substr(0, contentTypeHeader.find(';'));
  media = trimWhitespace(media);
  const std::size_t slash = media.find('/');
  if (slash == std::string_view::npos) {
    return false;
  }
  return equalsIgnoreCase(trimWhitespace(media.substr(0, slash)), type) &&
         (subtype == "*" || equalsIgnoreCase(trimWhitespace(media.substr(slash + 1)), subtype));
}

std::optional<std::string> headerParameter(std::string_view headerValue, std::string_view key) {
  const HeaderValue value = parseHeaderValue(headerValue);
  if (const std::string* found = value.param(toLower(key))) {
    return *found;
  }
  return std::nullopt;
}

std::optional<std::string> dispositionFilename(std::string_view contentDisposition) {
  const HeaderValue value = parseHeaderValue(contentDisposition);
  if (const std::string* ext = value.param("filename*")) {
    return decodeExtValue(*ext);
  }
  if (const std::string* filename = value.param("filename")) {
    return *filename;
  }
  return std::nullopt;
}

std::vector<MultipartPart> parseMultipart(std::string_view contentTypeHeader,
                                          std::string_view body) {
  if (!mediaTypeIs(contentTypeHeader, "multipart", "*")) {
    fail("Content-Type " + inQuotes(contentTypeHeader) + " is not multipart");
  }
  const std::optional<std::string> boundary = multipartBoundary(contentTypeHeader);
  if (!boundary) {
    fail("Content-Type " + inQuotes(contentTypeHeader) + " has no usable boundary parameter");
  }
  return parseMultipartWithBoundary(*boundary, body);
}

std::vector<MultipartPart> parseMultipartWithBoundary(std::string_view boundary,
                                                      std::string_view body) {
  if (boundary.empty() || boundary.size() > kMaxBoundaryLength) {
    fail("multipart boundary " + inQuotes(boundary) + " is empty or too long");
  }
  const std::string delimiter = "--" + std::string(boundary);
  std::vector<MultipartPart> parts;

  // The first delimiter line; everything before it is preamble.
  std::size_t pos = 0;
  for (std::size_t from = 0;;) {
    const std::size_t at = body.find(delimiter, from);
    if (at == std::string_view::npos) {
      fail(body.empty() ? "multipart body is empty"
                        : "multipart body has no boundary line " + inQuotes(delimiter));
    }
    from = at + 1;
    if (at != 0 && body[at - 1] != '\n') {
      continue;
    }
    const AfterDelimiter kind = classifyAfter(body, at + delimiter.size(), pos);
    if (kind == AfterDelimiter::Close) {
      return parts;
    }
    if (kind == AfterDelimiter::EndOfInput) {
      fail("multipart body ends after its first boundary line; no closing boundary");
    }
    if (kind == AfterDelimiter::Open) {
      if (pos == body.size()) {
        fail("multipart body ends after its first boundary line; no closing boundary");
      }
      break;
    }
  }

  const std::string needle = "\n" + delimiter;
  while (true) {
    if (parts.size() == kMaxParts) {
      fail("multipart body has more than " + std::to_string(kMaxParts) + " parts");
    }
    MultipartPart part;
    const std::size_t index = parts.size();
    readPartHeaders(body, pos, part, index);
    const std::size_t bodyStart = pos;  // body[bodyStart - 1] is the blank line's '\n'
    for (std::size_t from = bodyStart - 1;;) {
      const std::size_t at = body.find(needle, from);
      if (at == std::string_view::npos) {
        fail("multipart body ends inside " + partLabel(part, index) + " after " +
             std::to_string(body.size() - bodyStart) + " bytes; no boundary follows it");
      }
      std::size_t next = 0;
      const AfterDelimiter kind = classifyAfter(body, at + needle.size(), next);
      if (kind == AfterDelimiter::NotDelimiter) {
        from = at + 1;
        continue;
      }
      std::size_t end = at;
      if (end > bodyStart && body[end - 1] == '\r') {
        --end;
      }
      part.body = end > bodyStart ? body.substr(bodyStart, end - bodyStart) : std::string_view();
      const std::string label = partLabel(part, index);
      parts.push_back(std::move(part));
      if (kind == AfterDelimiter::Close) {
        return parts;  // the rest is epilogue
      }
      if (kind == AfterDelimiter::EndOfInput || next == body.size()) {
        fail("multipart body has no closing boundary " + inQuotes(delimiter + "--") +
             "; it ends after " + label);
      }
      pos = next;
      break;
    }
  }
}

const MultipartPart* findPart(const std::vector<MultipartPart>& parts, std::string_view name) {
  for (const MultipartPart& part : parts) {
    if (part.name == name) {
      return &part;
    }
  }
  for (const MultipartPart& part : parts) {
    if (equalsIgnoreCase(part.name, name)) {
      return &part;
    }
  }
  return nullptr;
}

}  // namespace delineate::core::ai
