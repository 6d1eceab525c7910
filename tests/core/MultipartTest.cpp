#include "core/ai/Multipart.h"

#include <gtest/gtest.h>

#include <string>

#include "core/Error.h"

using namespace delineate::core;
using namespace delineate::core::ai;
using namespace std::string_literals;

namespace {

// Bytes that trip naive parsers: NUL, CR, LF, dashes, a near-boundary line.
std::string binaryBytes(std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    s += static_cast<char>((i * 131 + 7) % 256);
  }
  s += std::string("\0\r\n--\r\n--not-the-boundary\r\n\n\r", 29);
  return s;
}

// The shape of a MONAI Label 0.8.1 answer to POST /infer without `output` (docs/ai-protocol.md,
// "/infer answers and errors").
const std::string kServerBoundary = "6e3a9d8c1f2b4a5e9d7c3b1a0f8e6d4c";
std::string serverBody(const std::string& image, const std::string& newline = "\r\n") {
  const std::string b = "--" + kServerBoundary;
  return b + newline + "Content-Disposition: form-data; name=\"params\"" + newline +
         "Content-Type: application/json" + newline + newline +
         R"({"label_names": {"spleen": 1}, "latencies": {"total": 1.5}})" + newline + b + newline +
         "Content-Disposition: form-data; name=\"image\"; filename=\"tmpk2j4.nii.gz\"" + newline +
         "Content-Type: application/octet-stream" + newline + newline + image + newline + b + "--" +
         newline;
}

std::string errorOf(const std::string& contentType, const std::string& body) {
  try {
    parseMultipart(contentType, body);
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST(Multipart, RoundTripKeepsEveryPartByteForByte) {
  const std::string image = binaryBytes(5000);
  const std::string label = binaryBytes(77);
  MultipartEncoder encoder;
  EXPECT_EQ(encoder.boundary().size(), 32u);
  encoder.addField("params", R"({"label": "spleen", "foreground": [[1, 2, 3]]})");
  encoder.addFile("file", "image.nii.gz", image);
  encoder.addFile("label", "label.bin", label, "application/x-raw");
  encoder.addFile("files", "empty.dcm", "");
  const std::string contentType = encoder.contentType();
  const std::string body = encoder.finish();
  EXPECT_EQ(contentType, "multipart/form-data; boundary=" + encoder.boundary());

  const auto parts = parseMultipart(contentType, body);
  ASSERT_EQ(parts.size(), 4u);
  EXPECT_EQ(parts[0].name, "params");
  EXPECT_FALSE(parts[0].filename.has_value());
  EXPECT_FALSE(parts[0].isFile());
  EXPECT_EQ(parts[0].body, R"({"label": "spleen", "foreground": [[1, 2, 3]]})");
  EXPECT_EQ(parts[1].name, "file");
  EXPECT_EQ(parts[1].filename, "image.nii.gz");
  EXPECT_EQ(parts[1].contentType, "application/octet-stream");
  EXPECT_EQ(parts[1].body, image);
  EXPECT_EQ(parts[2].contentType, "application/x-raw");
  EXPECT_EQ(parts[2].body, label);
  EXPECT_TRUE(parts[2].isFile());
  EXPECT_EQ(parts[3].name, "files");
  EXPECT_TRUE(parts[3].body.empty());
}

TEST(Multipart, RandomBoundariesDifferAndGivenOnesAreChecked) {
  EXPECT_NE(MultipartEncoder().boundary(), MultipartEncoder().boundary());
  MultipartEncoder given("----------lImIt_of_THE_fIle_eW_");
  given.addField("params", "{}");
  const std::string body = given.finish();
  EXPECT_EQ(body.rfind("------------lImIt_of_THE_fIle_eW_--\r\n"), body.size() - 37);
  EXPECT_THROW(MultipartEncoder(""), Error);
  EXPECT_THROW(MultipartEncoder(std::string(71, 'a')), Error);
  EXPECT_THROW(MultipartEncoder("bad\r\nboundary"), Error);
  EXPECT_THROW(MultipartEncoder("trailing space "), Error);
  // A boundary with characters outside the token set is quoted in the Content-Type.
  MultipartEncoder spaced("a b:c");
  EXPECT_EQ(spaced.contentType(), "multipart/form-data; boundary=\"a b:c\"");
  spaced.addField("x", "1");
  const std::string body2 = spaced.finish();
  const auto parts = parseMultipart(spaced.contentType(), body2);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].body, "1");
}

TEST(Multipart, EncoderRefusesContentHoldingItsBoundary) {
  MultipartEncoder encoder("abc");
  EXPECT_THROW(encoder.addFile("file", "x.bin", "xx\r\n--abc\r\nyy"), Error);
  EXPECT_THROW(encoder.addFile("file", "x.bin", "data", "text/plain\r\nX-Injected: 1"), Error);
}

TEST(Multipart, EncoderPercentEncodesQuotesAndLineBreaksInNames) {
  MultipartEncoder encoder("b");
  encoder.addFile("file", "my \"scan\"\r\n.nii.gz", "x");
  const std::string body = encoder.finish();
  EXPECT_NE(body.find("filename=\"my %22scan%22%0D%0A.nii.gz\""), std::string::npos);
  const auto parts = parseMultipart("multipart/form-data; boundary=b", body);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].filename, "my %22scan%22%0D%0A.nii.gz");
}

TEST(Multipart, ParsesTheServerShapedAnswer) {
  const std::string image = binaryBytes(1234);
  const std::string body = serverBody(image);
  const auto parts = parseMultipart("multipart/form-data; boundary=" + kServerBoundary, body);
  ASSERT_EQ(parts.size(), 2u);
  const MultipartPart* params = findPart(parts, "params");
  const MultipartPart* result = findPart(parts, "image");
  ASSERT_NE(params, nullptr);
  ASSERT_NE(result, nullptr);
  EXPECT_EQ(params->contentType, "application/json");
  EXPECT_EQ(params->body, R"({"label_names": {"spleen": 1}, "latencies": {"total": 1.5}})");
  EXPECT_EQ(result->filename, "tmpk2j4.nii.gz");
  EXPECT_EQ(result->body, image);
  EXPECT_EQ(findPart(parts, "points"), nullptr);
}

TEST(Multipart, ToleratesBareLineFeeds) {
  const std::string image = "NIfTI bytes\0with nul"s;
  const std::string body = serverBody(image, "\n");
  ASSERT_EQ(body.find('\r'), std::string::npos);
  const auto parts = parseMultipart("multipart/form-data; boundary=" + kServerBoundary, body);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(findPart(parts, "image")->body, image);
  EXPECT_EQ(findPart(parts, "params")->contentType, "application/json");
}

TEST(Multipart, BoundaryQuotedOrInAnyCase) {
  const std::string body = serverBody("x");
  for (const std::string& contentType :
       {"multipart/form-data; boundary=\"" + kServerBoundary + "\"",
        "Multipart/Form-Data;BOUNDARY=" + kServerBoundary,
        "multipart/form-data; charset=utf-8; Boundary = \"" + kServerBoundary + "\" ",
        "multipart/mixed; boundary=" + kServerBoundary + "; foo=bar"}) {
    const auto parts = parseMultipart(contentType, body);
    ASSERT_EQ(parts.size(), 2u) << contentType;
    EXPECT_EQ(findPart(parts, "image")->body, "x") << contentType;
  }
  EXPECT_EQ(multipartBoundary("application/json"), std::nullopt);
  EXPECT_EQ(multipartBoundary("multipart/form-data"), std::nullopt);
  EXPECT_EQ(multipartBoundary("multipart/form-data; boundary=\"\""), std::nullopt);
  EXPECT_EQ(multipartBoundary("multipart/form-data; boundary=\"a;b\""), "a;b");
}

TEST(Multipart, PartsAreFoundByNameWhateverTheirOrderAndHeaderSpelling) {
  const std::string body =
      "--b\r\n"
      "content-type: APPLICATION/OCTET-STREAM\r\n"
      "CONTENT-DISPOSITION:form-data;filename=r.nii.gz;NAME=image\r\n"
      "\r\n"
      "IMG\r\n"
      "--b\r\n"
      "Content-Disposition: form-data;\r\n"
      "   name=\"params\"\r\n"  // folded header line
      "\r\n"
      "{}\r\n"
      "--b--\r\n";
  const auto parts = parseMultipart("multipart/form-data; boundary=b", body);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].name, "image");
  EXPECT_EQ(parts[0].filename, "r.nii.gz");
  EXPECT_EQ(parts[0].contentType, "APPLICATION/OCTET-STREAM");
  EXPECT_TRUE(parts[0].isFile());
  EXPECT_EQ(findPart(parts, "params")->body, "{}");
  EXPECT_EQ(findPart(parts, "PARAMS")->body, "{}");  // exact name first, then ignoring case
  EXPECT_EQ(findPart(parts, "image")->body, "IMG");
}

TEST(Multipart, PreambleEpilogueAndNearBoundariesAreNotParts) {
  const std::string body =
      "This is the preamble --b is not a delimiter here\r\n"
      "--bogus line\r\n"
      "--b\r\n"
      "Content-Disposition: form-data; name=\"a\"\r\n"
      "\r\n"
      "line one\r\n--bx not a delimiter\r\n--b-- ends? no, this is the close\r\n"
      "epilogue\r\n--b\r\nContent-Disposition: form-data; name=\"ignored\"\r\n\r\nz\r\n";
  const auto parts = parseMultipart("multipart/form-data; boundary=b", body);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].body, "line one\r\n--bx not a delimiter");
}

TEST(Multipart, EmptyBodiesAndPartsWithoutDelimiterPadding) {
  const std::string body =
      "--b  \r\nContent-Disposition: form-data; name=\"empty\"\r\n\r\n\r\n"
      "--b\t\r\nContent-Disposition: form-data; name=\"direct\"\r\n\r\n--b--";
  const auto parts = parseMultipart("multipart/form-data; boundary=b", body);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_TRUE(parts[0].body.empty());
  EXPECT_TRUE(parts[1].body.empty());
  EXPECT_EQ(parts[1].name, "direct");
  EXPECT_TRUE(parseMultipart("multipart/form-data; boundary=b", "--b--\r\n").empty());
}

TEST(Multipart, FilenameStarIsDecoded) {
  const std::string body =
      "--b\r\nContent-Disposition: form-data; name=image; filename=\"plain.nii.gz\"; "
      "filename*=UTF-8''r%C3%A9sultat.nii.gz\r\n\r\nx\r\n--b--\r\n";
  const auto parts = parseMultipart("multipart/form-data; boundary=b", body);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].filename, "r\xC3\xA9sultat.nii.gz");
  EXPECT_EQ(dispositionFilename("attachment; filename=\"tmp1.nii.gz\""), "tmp1.nii.gz");
  EXPECT_EQ(dispositionFilename("attachment"), std::nullopt);
}

TEST(Multipart, TruncatedInsideTheImagePartSaysWhereAndHowMuch) {
  const std::string image(5000, 'v');
  const std::string body = serverBody(image);
  const std::size_t imageStart = body.find("vvvv");
  const std::string cut = body.substr(0, imageStart + 1234);
  const std::string message = errorOf("multipart/form-data; boundary=" + kServerBoundary, cut);
  EXPECT_NE(message.find("multipart body ends inside part 'image' after 1234 bytes"),
            std::string::npos)
      << message;
}

TEST(Multipart, MissingClosingBoundaryIsAnError) {
  const std::string ct = "multipart/form-data; boundary=b";
  const std::string start = "--b\r\nContent-Disposition: form-data; name=\"params\"\r\n\r\n{}";
  EXPECT_NE(errorOf(ct, start + "\r\n--b\r\n").find("no closing boundary"), std::string::npos);
  EXPECT_NE(errorOf(ct, start + "\r\n--b").find("no closing boundary"), std::string::npos);
  EXPECT_NE(errorOf(ct, start + "\r\n--b-").find("no closing boundary"), std::string::npos);
  EXPECT_NE(errorOf(ct, start).find("ends inside part 'params' after 2 bytes"), std::string::npos);
  EXPECT_NE(errorOf(ct, "--b\r\nContent-Disposition: form-data; name=\"x\"\r\n")
                .find("ends inside the headers of part 'x'"),
            std::string::npos);
  EXPECT_NE(errorOf(ct, "--b\r\n").find("no closing boundary"), std::string::npos);
  EXPECT_NE(errorOf(ct, "--b\r\n\r\n").find("ends inside part 1 after 0 bytes"), std::string::npos);
  EXPECT_NE(errorOf(ct, "--b").find("no closing boundary"), std::string::npos);
  EXPECT_NE(errorOf(ct, "").find("empty"), std::string::npos);
  EXPECT_NE(errorOf(ct, "<html>Bad gateway</html>").find("no boundary line '--b'"),
            std::string::npos);
  EXPECT_NE(errorOf("multipart/form-data", "x").find("no usable boundary"), std::string::npos);
  EXPECT_NE(errorOf("application/json", "{}").find("is not multipart"), std::string::npos);
}

TEST(Multipart, EveryPrefixOfAValidBodyParsesOrFailsCleanly) {
  const std::string body = serverBody(binaryBytes(300));
  const std::string ct = "multipart/form-data; boundary=" + kServerBoundary;
  std::size_t parsed = 0;
  for (std::size_t n = 0; n <= body.size(); ++n) {
    try {
      parseMultipart(ct, std::string_view(body).substr(0, n));
      ++parsed;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
    }
  }
  EXPECT_EQ(parsed, 3u);  // whole, without its last LF, without its last CRLF
}

TEST(Multipart, HugeDeclaredSizesAreIgnoredAndHeadersAreBounded) {
  const std::string body =
      "--b\r\nContent-Disposition: form-data; name=\"image\"\r\n"
      "Content-Length: 18446744073709551615\r\n\r\nsmall\r\n--b--\r\n";
  const auto parts = parseMultipart("multipart/form-data; boundary=b", body);
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].body, "small");

  const std::string longHeader =
      "--b\r\nX-Padding: " + std::string(20000, 'p') + "\r\n\r\nx\r\n--b--";
  EXPECT_NE(errorOf("multipart/form-data; boundary=b", longHeader).find("longer than 16384"),
            std::string::npos);
  const std::string longLine = "--b\r\nX-Padding: " + std::string(20000, 'p');
  EXPECT_NE(errorOf("multipart/form-data; boundary=b", longLine).find("longer than 16384"),
            std::string::npos);
  EXPECT_NE(errorOf("multipart/form-data; boundary=" + std::string(300, 'b'), "x")
                .find("no usable boundary"),
            std::string::npos);
}
