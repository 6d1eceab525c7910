#pragma once
// multipart/form-data as MONAI Label and Clara AIAA speak it (docs/ai-protocol.md, "Multipart" and
// "/infer answers and errors"): an encoder for requests (`params` JSON field; `file`, `label`,
// `files` uploads) and a parser for /infer answers that finds parts by their Content-Disposition
// name, whatever their order, header spelling or line endings. Both work on bytes held in
// std::string / std::string_view.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace delineate::core::ai {

// One part of a parsed multipart body. `body` points into the buffer given to parseMultipart():
// copy it before that buffer goes away.
struct MultipartPart {
  std::string name;                     // Content-Disposition `name`; empty when absent
  std::optional<std::string> filename;  // Content-Disposition `filename` (or `filename*`)
  std::string contentType;              // the part's Content-Type value, trimmed; may be empty
  std::string_view body;                // the part's bytes, binary-safe

  // A file part: it has a filename or an octet-stream content type (the AIAA client's rule).
  bool isFile() const;
};

// Builds a multipart/form-data request body part by part, with a random boundary (32 lowercase
// hex digits, like the server's) or a given one. Names and file names are quoted; `"`, CR and LF
// in them are percent-encoded as browsers do.
class MultipartEncoder {
 public:
  MultipartEncoder();
  // Throws Error(InvalidInput) when `boundary` is not 1..70 characters of RFC 2046 bchars.
  explicit MultipartEncoder(std::string boundary);

  // A plain field, e.g. addField("params", R"({"label":"spleen"})").
  void addField(std::string_view name, std::string_view value);
  // A file, e.g. addFile("file", "image.nii.gz", bytes).
  void addFile(std::string_view name, std::string_view filename, std::string_view bytes,
               std::string_view contentType = "application/octet-stream");

  const std::string& boundary() const { return boundary_; }
  // The value for the request's Content-Type header.
  std::string contentType() const;
  // The finished body (closing boundary appended); the encoder is empty afterwards. Throws
  // Error(InvalidInput) when a part's bytes contain the boundary delimiter.
  std::string finish();

  static std::string randomBoundary();

 private:
  void beginPart(std::string_view name, const std::string* filename, std::string_view contentType);
  void appendBody(std::string_view bytes);

  std::string boundary_;
  std::string body_;
};

// The boundary parameter of a multipart Content-Type header value (any case of `boundary`,
// quoted or not); nullopt when the media type is not multipart/* or has no usable boundary.
std::optional<std::string> multipartBoundary(std::string_view contentTypeHeader);

// True when the media type of a Content-Type header value is `type/subtype` (case-insensitive,
// parameters ignored). `subtype` "*" matches any subtype.
bool mediaTypeIs(std::string_view contentTypeHeader, std::string_view type,
                 std::string_view subtype);

// The value of parameter `key` (case-insensitive) in a header value such as
// `form-data; name="params"` or `attachment; filename=x.nii.gz`, unquoted; nullopt when absent.
std::optional<std::string> headerParameter(std::string_view headerValue, std::string_view key);

// The file name of a Content-Disposition header value (`filename*` preferred over `filename`).
std::optional<std::string> dispositionFilename(std::string_view contentDisposition);

// Parses a multipart body whose Content-Type header value is `contentTypeHeader`. CRLF or bare
// LF framing; preamble and epilogue ignored; part headers matched case-insensitively. Throws
// Error(InvalidInput) naming the problem for a missing boundary, a truncated body ("multipart
// body ends inside part 'image' after 1234 bytes"), a missing closing boundary, or oversized
// part headers. Never reads outside `body`; memory use is bounded by the body's size.
std::vector<MultipartPart> parseMultipart(std::string_view contentTypeHeader,
                                          std::string_view body);
std::vector<MultipartPart> parseMultipartWithBoundary(std::string_view boundary,
                                                      std::string_view body);
// The parts point into `body`: a temporary string would leave them dangling.
std::vector<MultipartPart> parseMultipart(std::string_view, std::string&&) = delete;
std::vector<MultipartPart> parseMultipartWithBoundary(std::string_view, std::string&&) = delete;
template <std::size_t N>
std::vector<MultipartPart> parseMultipart(std::string_view contentTypeHeader,
                                          const char (&body)[N]) {
  return parseMultipart(contentTypeHeader, std::string_view(body, N - 1));
}

// The first part named `name` (exact match first, then ignoring case); nullptr when none.
const MultipartPart* findPart(const std::vector<MultipartPart>& parts, std::string_view name);

}  // namespace delineate::core::ai
