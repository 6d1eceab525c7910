#include "core/ai/InferResponse.h"

#include <gtest/gtest.h>

#include <string>

#include "core/Error.h"
#include "core/ai/Multipart.h"

using namespace delineate::core;
using namespace delineate::core::ai;
using namespace std::string_literals;

namespace {

const std::string kParams =
    R"({"label_names": {"spleen": 1, "background": 0, "liver": 2},
        "latencies": {"pre": 0.5, "infer": 2.25, "invert": 0.1, "post": 0.2, "write": "0.05",
                      "total": 3.1, "transform": {"pre": {"LoadImaged": 0.3}}},
        "centroids": {"spleen": ["10", "20", "30"]}})";
const std::string kImage = "\x1f\x8b\x08\0binary\r\n--label\0"s;

std::string multipartAnswer(bool imageFirst, const std::string& imageName = "image") {
  MultipartEncoder encoder("0123456789abcdef0123456789abcdef");
  if (imageFirst) {
    encoder.addFile(imageName, "tmpq1w2e3.nii.gz", kImage);
    encoder.addField("params", kParams);
  } else {
    encoder.addField("params", kParams);
    encoder.addFile(imageName, "tmpq1w2e3.nii.gz", kImage);
  }
  return encoder.finish();
}

const std::string kMultipartType = "multipart/form-data; boundary=0123456789abcdef0123456789abcdef";

ServerError errorFor(int status, const std::string& contentType, const std::string& body) {
  const InferResponse r = parseInferResponse(status, contentType, body);
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(r.hasImage);
  return r.error.value_or(ServerError{});
}

}  // namespace

TEST(InferResponse, MultipartGivesParamsAndImage) {
  for (bool imageFirst : {false, true}) {
    const InferResponse r = parseInferResponse(200, kMultipartType, multipartAnswer(imageFirst));
    ASSERT_TRUE(r.ok());
    ASSERT_TRUE(r.hasImage);
    EXPECT_EQ(r.image, kImage);
    EXPECT_EQ(r.imageFilename, "tmpq1w2e3.nii.gz");
    EXPECT_EQ(r.imageContentType, "application/octet-stream");
    ASSERT_EQ(r.labelNames.size(), 3u);
    EXPECT_EQ(r.labelNames[0], (ModelLabel{"background", 0, true}));
    EXPECT_EQ(r.labelNames[1], (ModelLabel{"spleen", 1, false}));
    EXPECT_EQ(r.labelNames[2], (ModelLabel{"liver", 2, false}));
    EXPECT_DOUBLE_EQ(r.latencies.pre.value(), 0.5);
    EXPECT_DOUBLE_EQ(r.latencies.infer.value(), 2.25);
    EXPECT_DOUBLE_EQ(r.latencies.invert.value(), 0.1);
    EXPECT_DOUBLE_EQ(r.latencies.post.value(), 0.2);
    EXPECT_DOUBLE_EQ(r.latencies.write.value(), 0.05);
    EXPECT_DOUBLE_EQ(r.latencies.total.value(), 3.1);
    EXPECT_EQ(r.params["centroids"]["spleen"][0], "10");  // the raw JSON is kept
  }
}

TEST(InferResponse, ImagePartUnderAnotherNameIsTheFirstFilePart) {
  const InferResponse r = parseInferResponse(200, kMultipartType, multipartAnswer(true, "file"));
  ASSERT_TRUE(r.hasImage);
  EXPECT_EQ(r.image, kImage);
  EXPECT_EQ(r.labelNames.size(), 3u);
  // Clara AIAA v1: a JSON part named `points` and a file part.
  const std::string aiaa =
      "--x\r\nContent-Disposition: form-data; name=\"points\"\r\n\r\n"
      "{\"label_names\": [\"liver\"]}\r\n"
      "--x\r\nContent-Disposition: form-data; name=\"result\"\r\n"
      "Content-Type: application/octet-stream\r\n\r\nMASK\r\n--x--\r\n";
  const InferResponse v1 = parseInferResponse(200, "multipart/form-data; boundary=x", aiaa);
  EXPECT_EQ(v1.image, "MASK");
  EXPECT_FALSE(v1.imageFilename.has_value());
  ASSERT_EQ(v1.labelNames.size(), 1u);
  EXPECT_EQ(v1.labelNames[0], (ModelLabel{"liver", 1, false}));
}

TEST(InferResponse, JsonAnswerHasParamsOnly) {
  const InferResponse r = parseInferResponse(200, "application/json", kParams);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r.hasImage);
  EXPECT_EQ(r.labelNames.size(), 3u);
  EXPECT_TRUE(r.latencies.total.has_value());
  // A classification result: no label_names, no latencies.
  const InferResponse c = parseInferResponse(200, "application/json; charset=utf-8",
                                             R"({"prediction": [{"idx": 1, "score": 0.9}]})");
  EXPECT_TRUE(c.labelNames.empty());
  EXPECT_FALSE(c.latencies.total.has_value());
  EXPECT_EQ(c.params["prediction"][0]["idx"], 1);
  // No Content-Type at all, but JSON text.
  EXPECT_EQ(parseInferResponse(200, "", R"({"label_names": ["a"]})").labelNames.size(), 1u);
}

TEST(InferResponse, OctetStreamIsTheImageOnly) {
  const InferResponse r = parseInferResponse(200, "application/octet-stream", kImage,
                                             "attachment; filename=\"tmpx.nii.gz\"");
  ASSERT_TRUE(r.hasImage);
  EXPECT_EQ(r.image, kImage);
  EXPECT_EQ(r.imageFilename, "tmpx.nii.gz");
  EXPECT_TRUE(r.params.is_null());
  EXPECT_TRUE(r.labelNames.empty());
  const InferResponse seg = parseInferResponse(200, "application/dicom", "DICM");
  EXPECT_TRUE(seg.hasImage);
  EXPECT_EQ(seg.imageContentType, "application/dicom");
}

TEST(InferResponse, MalformedSuccessfulAnswersThrowNamingTheProblem) {
  const std::string whole = multipartAnswer(false);
  const std::string cut = whole.substr(0, whole.find("binary") + 3);
  try {
    parseInferResponse(200, kMultipartType, cut);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
    EXPECT_NE(std::string(e.what()).find("ends inside part 'image' after 7 bytes"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(parseInferResponse(200, "application/json", "{\"label_names\": "), Error);
  EXPECT_THROW(parseInferResponse(200, "text/plain", "Internal Server Error"), Error);
  const std::string noParts =
      "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\ntext\r\n--x--\r\n";
  try {
    parseInferResponse(200, "multipart/form-data; boundary=x", noParts);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("neither a 'params' nor an 'image' part (parts: 'a')"),
              std::string::npos)
        << e.what();
  }
}

TEST(InferResponse, AuthenticationAndRoles) {
  const ServerError e401 = errorFor(401, "application/json", R"({"detail": "Not authenticated"})");
  EXPECT_EQ(e401.kind, ServerErrorKind::Unauthorized);
  EXPECT_EQ(e401.httpStatus, 401);
  EXPECT_EQ(e401.detail, "Not authenticated");
  EXPECT_EQ(e401.message,
            "The server requires signing in (401 Unauthorized: Not authenticated); sign in again");
  const ServerError e403 = errorFor(403, "application/json",
                                    R"({"detail": "Role \"monailabel-annotator\" is required"})");
  EXPECT_EQ(e403.kind, ServerErrorKind::Forbidden);
  EXPECT_NE(e403.message.find("Role \"monailabel-annotator\" is required"), std::string::npos);
}

TEST(InferResponse, NotFoundAndSessionNotFound) {
  const ServerError route = errorFor(404, "application/json", R"({"detail":"Not Found"})");
  EXPECT_EQ(route.kind, ServerErrorKind::NotFound);
  EXPECT_EQ(route.message,
            "The server has nothing at this address (404 Not Found); check the server URL");
  const ServerError session =
      errorFor(404, "application/json", R"({"detail":"Session (9b3c1e2a-17f0-11ee) Not Found"})");
  EXPECT_EQ(session.kind, ServerErrorKind::SessionNotFound);
  EXPECT_NE(session.message.find("Session (9b3c1e2a-17f0-11ee) Not Found"), std::string::npos);
  EXPECT_NE(session.message.find("created again"), std::string::npos);
}

TEST(InferResponse, NotAcceptableAndValidation) {
  EXPECT_EQ(errorFor(406, "application/json", R"({"detail":"Session is disabled"})").kind,
            ServerErrorKind::NotAcceptable);
  const ServerError v = errorFor(422, "application/json", R"({"detail": [
      {"loc": ["query", "output"], "msg": "value is not a valid enumeration member",
       "type": "type_error.enum"},
      {"loc": ["body", "params"], "msg": "field required", "type": "value_error.missing"}]})");
  EXPECT_EQ(v.kind, ServerErrorKind::Invalid);
  EXPECT_EQ(v.detail,
            "query.output: value is not a valid enumeration member; body.params: field required");
  EXPECT_EQ(v.message,
            "The server rejected the request's parameters (422 Unprocessable Entity: "
            "query.output: value is not a valid enumeration member; body.params: field "
            "required)");
}

TEST(InferResponse, BusyAndSessionExpired) {
  const ServerError busy = errorFor(429, "application/json",
                                    R"({"detail": "++++++++++ Train Task is Already Running"})");
  EXPECT_EQ(busy.kind, ServerErrorKind::Busy);
  EXPECT_EQ(busy.message,
            "The server is busy (Train Task is Already Running); try again when it has finished");
  const ServerError expired = errorFor(
      440, "application/json",
      R"({"error": {"message": ["Session expired"], "type": "SessionTimeout"}, "success": false})");
  EXPECT_EQ(expired.kind, ServerErrorKind::SessionExpired);
  EXPECT_EQ(expired.detail, "SessionTimeout: Session expired");
  EXPECT_NE(expired.message.find("created again"), std::string::npos);
}

TEST(InferResponse, InternalServerErrorWithoutAReasonPointsToTheLog) {
  const ServerError plain = errorFor(500, "text/plain; charset=utf-8", "Internal Server Error");
  EXPECT_EQ(plain.kind, ServerErrorKind::ServerFailure);
  EXPECT_TRUE(plain.detail.empty());
  EXPECT_EQ(plain.message,
            "The server answered 500 Internal Server Error without a reason; its log "
            "(GET /logs/) has the cause");
  EXPECT_EQ(errorFor(500, "", "").message, plain.message);
  const ServerError detail =
      errorFor(500, "application/json",
               R"({"detail": "Neither Image nor File not Session ID input is provided"})");
  EXPECT_EQ(detail.kind, ServerErrorKind::ServerFailure);
  EXPECT_EQ(detail.message,
            "The server failed (500 Internal Server Error: Neither Image nor File not Session ID "
            "input is provided)");
}

TEST(InferResponse, GatewaysRedirectsAndTheRest) {
  const ServerError gateway = errorFor(502, "text/html", "<html><body>nginx</body></html>");
  EXPECT_EQ(gateway.kind, ServerErrorKind::Unavailable);
  EXPECT_TRUE(gateway.detail.empty());  // HTML is not shown
  EXPECT_EQ(errorFor(307, "", "").kind, ServerErrorKind::Redirected);
  const ServerError teapot = errorFor(418, "text/plain", "short\r\nand\tstout\x01");
  EXPECT_EQ(teapot.kind, ServerErrorKind::Other);
  EXPECT_EQ(teapot.message, "The server answered 418: short and stout");
  const ServerError huge = errorFor(400, "text/plain", std::string(100000, 'x'));
  EXPECT_LT(huge.detail.size(), 310u);
  EXPECT_EQ(classifyServerAnswer(204, "", "").kind, ServerErrorKind::None);
  EXPECT_STREQ(toString(ServerErrorKind::SessionExpired), "session expired");
}
