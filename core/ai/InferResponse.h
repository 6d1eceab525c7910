#pragma once
// The answer to POST /infer/{model} (docs/ai-protocol.md, "/infer answers and errors"), and what
// any non-2xx answer of a MONAI Label or Clara AIAA server means for the user (the same section).
// The response's Content-Type decides the shape, never the `output` that was asked for: the server
// answers plain JSON when a model wrote no file.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ai/MonaiInfo.h"

namespace delineate::core::ai {

enum class ServerErrorKind {
  None,             // 2xx
  Unauthorized,     // 401: sign in (again)
  Forbidden,        // 403: the account lacks a role
  NotFound,         // 404: unknown route or object
  SessionNotFound,  // 404 naming a session: create the session again
  NotAcceptable,    // 406: e.g. sessions disabled on the server
  Invalid,          // 422: FastAPI rejected the request's parameters
  Busy,             // 429: a training (or other task) is already running
  SessionExpired,   // 440 (Clara AIAA): create the session again and retry
  ServerFailure,    // 500
  Unavailable,      // 502, 503, 504: not up yet, or a proxy cannot reach it
  Redirected,       // 3xx: the URL is not what the server expects
  Other,
};

const char* toString(ServerErrorKind kind);

struct ServerError {
  ServerErrorKind kind = ServerErrorKind::None;
  int httpStatus = 0;
  std::string message;  // for the user, e.g. "The server answered 500 Internal Server Error ..."
  std::string detail;   // the reason the server gave (FastAPI `detail`, AIAA `error.message`,
                        // text), printable and shortened; empty when it gave none
};

// Classifies any server answer by status and body. 2xx gives kind None and an empty message.
ServerError classifyServerAnswer(int httpStatus, std::string_view contentType,
                                 std::string_view body);

// Seconds the server spent per stage (`latencies` in the result params); absent when not given.
struct InferLatencies {
  std::optional<double> pre;
  std::optional<double> infer;
  std::optional<double> invert;
  std::optional<double> post;
  std::optional<double> write;
  std::optional<double> total;
};

struct InferResponse {
  std::optional<ServerError> error;    // set for a non-2xx answer; nothing else is then
  nlohmann::json params;               // the result params as sent; null when there were none
  std::vector<ModelLabel> labelNames;  // from params `label_names` (dict or list), by value
  InferLatencies latencies;
  bool hasImage = false;
  std::string image;  // the label volume's bytes (.nii.gz unless result_extension said else)
  std::optional<std::string> imageFilename;  // as the server named it, e.g. "tmpab12.nii.gz"
  std::string imageContentType;

  bool ok() const { return !error; }
};

// Parses an /infer answer: multipart (parts `params` and `image`, else the first file part),
// JSON (params only) or a file (application/octet-stream and other binary types: image only).
// `contentDisposition` is the response's Content-Disposition header, if any (file name of a
// single-file answer). Non-2xx answers come back with `error` set. Throws Error(InvalidInput)
// naming the problem when a 2xx answer is malformed (truncated multipart, params not JSON...).
InferResponse parseInferResponse(int httpStatus, std::string_view contentType,
                                 std::string_view body, std::string_view contentDisposition = {});

// Reads `label_names` and `latencies` out of result params into `response`.
void readResultParams(const nlohmann::json& params, InferResponse& response);

}  // namespace delineate::core::ai
