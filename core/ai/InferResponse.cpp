#include "core/ai/InferResponse.h"
#include "core/ai/MonaiInfo.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "core/Error.h"
#include "core/Text.h"
#include "core/ai/Multipart.h"

namespace delineate::core::ai {

using nlohmann::json;

namespace {

constexpr std::size_t kMaxDetail = 300;

bool containsIgnoreCase(std::string_view text, std::string_view word) {
  return std::search(text.begin(), text.end(), word.begin(), word.end(),
                     [](char a, char b) { return asciiLower(a) == asciiLower(b); }) != text.end();
}

// Untrusted text made printable (controls become spaces, runs of spaces one) and shortened.
std::string printable(std::string_view s) {
  std::string out;
  for (char c : trimWhitespace(s)) {
    const auto u = static_cast<unsigned char>(c);
    const char p = (u < 0x20 || u == 0x7f) ? ' ' : c;
    if (p == ' ' && !out.empty() && out.back() == ' ') {
      continue;
    }
    if (out.size() >= kMaxDetail) {
      out += "...";
      break;
    }
    out += p;
  }
  while (!out.empty() && out.back() == ' ') {
    out.pop_back();
  }
  return out;
}

bool isJsonType(std::string_view contentType) {
  if (mediaTypeIs(contentType, "application", "json") || mediaTypeIs(contentType, "text", "json")) {
    return true;
  }
  const std::string_view media = trimWhitespace(contentType.substr(0, contentType.find(';')));
  return media.size() > 5 && containsIgnoreCase(media.substr(media.size() - 5), "+json");
}

bool looksLikeJson(std::string_view body) {
  const std::string_view t = trimWhitespace(body);
  return !t.empty() && (t.front() == '{' || t.front() == '[');
}

std::string jsonText(const json& j) {
  if (j.is_string()) {
    return j.get<std::string>();
  }
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

// FastAPI validation details: [{"loc": ["query", "output"], "msg": "...", "type": "..."}].
std::string validationText(const json& list) {
  std::string out;
  for (const json& item : list) {
    if (!out.empty()) {
      out += "; ";
    }
    if (!item.is_object()) {
      out += jsonText(item);
      continue;
    }
    std::string where;
    if (const auto loc = item.find("loc"); loc != item.end() && loc->is_array()) {
      for (const json& part : *loc) {
        where += (where.empty() ? "" : ".") + jsonText(part);
      }
    }
    const auto msg = item.find("msg");
    const std::string text = msg != item.end() ? jsonText(*msg) : jsonText(item);
    out += where.empty() ? text : where + ": " + text;
    if (out.size() > kMaxDetail) {
      break;
    }
  }
  return out;
}

// The reason a server gave in an error body: FastAPI `detail` (text or validation list), AIAA
// `error.message` (text or list), a JSON `message`, or plain text. Empty for HTML and silence.
std::string reasonFrom(std::string_view contentType, std::string_view body) {
  if (isJsonType(contentType) || (contentType.empty() && looksLikeJson(body))) {
    json j;
    try {
      j = parseServerJson(body, "error body");
    } catch (const Error&) {
      return printable(body);
    }
    if (!j.is_object()) {
      return printable(jsonText(j));
    }
    if (const auto detail = j.find("detail"); detail != j.end()) {
      return printable(detail->is_array() ? validationText(*detail) : jsonText(*detail));
    }
    if (const auto error = j.find("error"); error != j.end()) {
      if (error->is_object()) {
        std::string text;
        if (const auto message = error->find("message"); message != error->end()) {
          if (message->is_array()) {
            for (const json& m : *message) {
              text += (text.empty() ? "" : "; ") + jsonText(m);
            }
          } else {
            text = jsonText(*message);
          }
        }
        if (const auto type = error->find("type"); type != error->end() && type->is_string()) {
          text = text.empty() ? type->get<std::string>() : type->get<std::string>() + ": " + text;
        }
        return printable(text);
      }
      return printable(jsonText(*error));
    }
    if (const auto message = j.find("message"); message != j.end()) {
      return printable(jsonText(*message));
    }
    return printable(jsonText(j));
  }
  if (mediaTypeIs(contentType, "text", "html") ||
      containsIgnoreCase(trimWhitespace(body).substr(0, 15), "<!doctype html") ||
      containsIgnoreCase(trimWhitespace(body).substr(0, 6), "<html")) {
    return {};
  }
  return printable(body);
}

const char* reasonPhrase(int status) {
  switch (status) {
    case 400:
      return "Bad Request";
    case 401:
      return "Unauthorized";
    case 403:
      return "Forbidden";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 406:
      return "Not Acceptable";
    case 408:
      return "Request Timeout";
    case 413:
      return "Payload Too Large";
    case 422:
      return "Unprocessable Entity";
    case 429:
      return "Too Many Requests";
    case 440:
      return "Session Expired";
    case 500:
      return "Internal Server Error";
    case 502:
      return "Bad Gateway";
    case 503:
      return "Service Unavailable";
    case 504:
      return "Gateway Timeout";
    default:
      return "";
  }
}

std::string statusText(int status) {
  const std::string phrase = reasonPhrase(status);
  return std::to_string(status) + (phrase.empty() ? "" : " " + phrase);
}

std::string withReason(const std::string& reason) {
  return reason.empty() ? "" : ": " + reason;
}

std::optional<double> asSeconds(const json& j) {
  double v = 0;
  if (j.is_number()) {
    v = j.get<double>();
  } else if (j.is_string()) {
    const std::string& s = j.get_ref<const std::string&>();
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) {
      return std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  return std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

const MultipartPart* findParamsPart(const std::vector<MultipartPart>& parts) {
  if (const MultipartPart* p = findPart(parts, "params")) {
    return p;
  }
  for (const MultipartPart& part : parts) {  // AIAA v1 calls it `points`; any JSON text part
    if (!part.isFile() && (isJsonType(part.contentType) || looksLikeJson(part.body))) {
      return &part;
    }
  }
  return nullptr;
}

const MultipartPart* findImagePart(const std::vector<MultipartPart>& parts,
                                   const MultipartPart* params) {
  if (const MultipartPart* p = findPart(parts, "image"); p != nullptr && p != params) {
    return p;
  }
  for (const MultipartPart& part : parts) {
    if (&part != params && part.isFile()) {
      return &part;
    }
  }
  return nullptr;
}

std::string partNames(const std::vector<MultipartPart>& parts) {
  std::string out;
  for (const MultipartPart& part : parts) {
    out += (out.empty() ? "'" : ", '") + printable(part.name) + "'";
    if (out.size() > kMaxDetail) {
      break;
    }
  }
  return out.empty() ? "none" : out;
}

}  // namespace

const char* toString(ServerErrorKind kind) {
  switch (kind) {
    case ServerErrorKind::None:
      return "none";
    case ServerErrorKind::Unauthorized:
      return "unauthorized";
    case ServerErrorKind::Forbidden:
      return "forbidden";
    case ServerErrorKind::NotFound:
      return "not found";
    case ServerErrorKind::SessionNotFound:
      return "session not found";
    case ServerErrorKind::NotAcceptable:
      return "not acceptable";
    case ServerErrorKind::Invalid:
      return "invalid request";
    case ServerErrorKind::Busy:
      return "busy";
    case ServerErrorKind::SessionExpired:
      return "session expired";
    case ServerErrorKind::ServerFailure:
      return "server failure";
    case ServerErrorKind::Unavailable:
      return "unavailable";
    case ServerErrorKind::Redirected:
      return "redirected";
    case ServerErrorKind::Other:
      return "other";
  }
  return "other";
}

ServerError classifyServerAnswer(int httpStatus, std::string_view contentType,
                                 std::string_view body) {
  ServerError e;
  e.httpStatus = httpStatus;
  if (httpStatus >= 200 && httpStatus < 300) {
    return e;
  }
  e.detail = reasonFrom(contentType, body);
  const std::string& reason = e.detail;
  const std::string status = statusText(httpStatus);
  switch (httpStatus) {
    case 401:
      e.kind = ServerErrorKind::Unauthorized;
      e.message =
          "The server requires signing in (" + status + withReason(reason) + "); sign in again";
      return e;
    case 403:
      e.kind = ServerErrorKind::Forbidden;
      e.message =
          "The server does not allow this for your account (" + status + withReason(reason) + ")";
      return e;
    case 404:
      if (containsIgnoreCase(reason, "session")) {
        e.kind = ServerErrorKind::SessionNotFound;
        e.message =
            "The server no longer has this session (" + reason + "); it has to be created again";
      } else {
        e.kind = ServerErrorKind::NotFound;
        e.message =
            reason.empty() || reason == "Not Found"
                ? "The server has nothing at this address (" + status + "); check the server URL"
                : "The server could not find it (" + status + withReason(reason) + ")";
      }
      return e;
    case 406:
      e.kind = ServerErrorKind::NotAcceptable;
      e.message = "The server refused the request (" + status + withReason(reason) + ")";
      return e;
    case 422:
      e.kind = ServerErrorKind::Invalid;
      e.message =
          "The server rejected the request's parameters (" + status + withReason(reason) + ")";
      return e;
    case 429: {
      e.kind = ServerErrorKind::Busy;
      std::string_view what = reason;  // "++++++++++ Train Task is Already Running"
      while (!what.empty() && (what.front() == '+' || what.front() == ' ')) {
        what.remove_prefix(1);
      }
      e.message = "The server is busy" +
                  (what.empty() ? std::string(" (429)") : " (" + std::string(what) + ")") +
                  "; try again when it has finished";
      return e;
    }
    case 440:
      e.kind = ServerErrorKind::SessionExpired;
      e.message = "The server session has expired (440); it has to be created again, then retry";
      return e;
    case 502:
    case 503:
    case 504:
      e.kind = ServerErrorKind::Unavailable;
      e.message = "The server is unavailable (" + status + withReason(reason) +
                  "); it may still be starting, or a proxy cannot reach it";
      return e;
    default:
      break;
  }
  if (httpStatus >= 500 && httpStatus < 600) {
    e.kind = ServerErrorKind::ServerFailure;
    if (reason.empty() || reason == "Internal Server Error") {
      e.detail.clear();
      e.message =
          "The server answered " + status + " without a reason; its log (GET /logs/) has the cause";
    } else {
      e.message = "The server failed (" + status + withReason(reason) + ")";
    }
    return e;
  }
  if (httpStatus >= 300 && httpStatus < 400) {
    e.kind = ServerErrorKind::Redirected;
    e.message = "The server redirected the request (" + std::to_string(httpStatus) +
                "); check the server URL (MONAI Label routes such as /info/ end in a slash)";
    return e;
  }
  e.kind = ServerErrorKind::Other;
  e.message = "The server answered " + status + withReason(reason);
  return e;
}

void readResultParams(const json& params, InferResponse& response) {
  if (!params.is_object()) {
    return;
  }
  if (const auto names = params.find("label_names"); names != params.end()) {
    response.labelNames = parseMonaiLabels(*names);
  }
  const auto latencies = params.find("latencies");
  if (latencies == params.end() || !latencies->is_object()) {
    return;
  }
  const auto read = [&](const char* key, std::optional<double>& into) {
    if (const auto it = latencies->find(key); it != latencies->end()) {
      into = asSeconds(*it);
    }
  };
  InferLatencies& l = response.latencies;
  read("pre", l.pre);
  read("infer", l.infer);
  read("invert", l.invert);
  read("post", l.post);
  read("write", l.write);
  read("total", l.total);
}

InferResponse parseInferResponse(int httpStatus, std::string_view contentType,
                                 std::string_view body, std::string_view contentDisposition) {
  InferResponse response;
  if (httpStatus < 200 || httpStatus >= 300) {
    response.error = classifyServerAnswer(httpStatus, contentType, body);
    return response;
  }
  const std::string what = "the result params of /infer";
  if (mediaTypeIs(contentType, "multipart", "*")) {
    const std::vector<MultipartPart> parts = parseMultipart(contentType, body);
    const MultipartPart* params = findParamsPart(parts);
    const MultipartPart* image = findImagePart(parts, params);
    if (params == nullptr && image == nullptr) {
      throw Error(ErrorKind::InvalidInput, {},
                  "the multipart answer of /infer has neither a 'params' nor an 'image' part "
                  "(parts: " +
                      partNames(parts) + ")");
    }
    if (params != nullptr) {
      response.params = parseServerJson(params->body, what);
    }
    if (image != nullptr) {
      response.hasImage = true;
      response.image.assign(image->body);
      response.imageFilename = image->filename;
      response.imageContentType = image->contentType;
    }
  } else if (isJsonType(contentType) ||
             (trimWhitespace(contentType).empty() && looksLikeJson(body))) {
    response.params = parseServerJson(body, what);
  } else if (mediaTypeIs(contentType, "text", "*")) {
    throw Error(ErrorKind::InvalidInput, {},
                "the server answered /infer with " + printable(contentType) +
                    " text instead of a label volume or JSON: " + printable(body.substr(0, 80)));
  } else {
    response.hasImage = true;
    response.image.assign(body);
    response.imageContentType = std::string(trimWhitespace(contentType));
    if (!contentDisposition.empty()) {
      response.imageFilename = dispositionFilename(contentDisposition);
    }
  }
  readResultParams(response.params, response);
  return response;
}

}  // namespace delineate::core::ai
