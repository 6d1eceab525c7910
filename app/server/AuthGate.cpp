#include "app/server/AuthGate.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "app/server/JsonAnswer.h"
#include "core/Error.h"

namespace delineate::server {

namespace net = core::net;
using nlohmann::json;

namespace {

// A 401 as FastAPI's security dependencies send it: the detail plus the challenge header.
net::HttpResponse unauthorized(const std::string& detail) {
  net::HttpResponse r = jsonAnswer(401, {{"detail", detail}});
  r.headers.emplace_back("www-authenticate", "Bearer");
  return r;
}

int hexValue(char c) {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return -1;
}

std::string formDecode(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      out += ' ';
    } else if (text[i] == '%' && i + 2 < text.size() && hexValue(text[i + 1]) >= 0 &&
               hexValue(text[i + 2]) >= 0) {
      out += static_cast<char>(hexValue(text[i + 1]) * 16 + hexValue(text[i + 2]));
      i += 2;
    } else {
      out += text[i];
    }
  }
  return out;
}

// application/x-www-form-urlencoded fields; the first of repeated keys wins.
std::map<std::string, std::string> parseForm(std::string_view body) {
  std::map<std::string, std::string> fields;
  while (!body.empty()) {
    const std::size_t amp = body.find('&');
    const std::string_view pair = body.substr(0, amp);
    const std::size_t eq = pair.find('=');
    if (!pair.empty()) {
      fields.emplace(formDecode(pair.substr(0, eq)), eq == std::string_view::npos
                                                         ? std::string()
                                                         : formDecode(pair.substr(eq + 1)));
    }
    body = amp == std::string_view::npos ? std::string_view() : body.substr(amp + 1);
  }
  return fields;
}

// Compares without returning early, so that the answer time does not tell how much matched.
bool sameSecret(const std::string& a, const std::string& b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff |= static_cast<unsigned char>(a[i] ^ (i < b.size() ? b[i] : 0));
  }
  return diff == 0;
}

bool startsWith(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

json tokenAnswer(const IssuedTokens& t) {
  return {{"access_token", t.accessToken},
          {"token_type", "bearer"},
          {"expires_in", t.accessLifetime.count()},
          {"refresh_token", t.refreshToken},
          {"refresh_expires_in", t.refreshLifetime.count()}};
}

json userJson(const AuthUser& u) {
  return {{"username", u.username}, {"email", nullptr}, {"name", u.username}, {"roles", u.roles}};
}

}  // namespace

std::vector<AuthUser> readAuthUsers(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in) {
    throw core::Error(core::ErrorKind::Io, file.string(), "cannot read the users file");
  }
  const json j = json::parse(in, nullptr, false);
  if (!j.is_object() || !j.contains("users") || !j["users"].is_array()) {
    throw core::Error(core::ErrorKind::InvalidInput, file.string(),
                      "expected {\"users\": [{\"username\", \"password\", \"roles\"}, ...]}");
  }
  std::vector<AuthUser> users;
  for (const json& u : j["users"]) {
    if (!u.is_object() || !u.value("username", json()).is_string() ||
        !u.value("password", json()).is_string() || !u.value("roles", json::array()).is_array()) {
      throw core::Error(core::ErrorKind::InvalidInput, file.string(),
                        "each user needs a string username and password and a list of roles");
    }
    AuthUser user{u["username"], u["password"], {}};
    for (const json& role : u.value("roles", json::array())) {
      if (role.is_string()) {
        user.roles.push_back(role);
      }
    }
    users.push_back(std::move(user));
  }
  return users;
}

AuthGate::AuthGate(AuthOptions options)
    : options_(std::move(options)), tokens_(options_.tokenLifetime, options_.refreshLifetime) {}

const char* AuthGate::requiredRole(const std::string& method, const std::string& path) {
  const bool reads = method == "GET" || method == "HEAD";
  if (startsWith(path, "/datastore")) {
    return reads ? kRoleUser : method == "DELETE" ? kRoleAdmin : kRoleAnnotator;
  }
  if (startsWith(path, "/train")) {
    return reads ? kRoleUser : kRoleAdmin;
  }
  if (startsWith(path, "/scoring")) {
    return reads ? kRoleUser : kRoleAnnotator;
  }
  if (startsWith(path, "/batch/infer")) {
    return reads ? kRoleUser : kRoleAdmin;
  }
  if (startsWith(path, "/logs")) {
    return kRoleAdmin;
  }
  if (startsWith(path, "/model/info")) {
    return kRoleUser;
  }
  if (startsWith(path, "/model")) {
    return reads ? kRoleAdmin : kRoleAnnotator;
  }
  return kRoleUser;  // info, infer, sessions, active learning, anything else
}

std::optional<net::HttpResponse> AuthGate::check(const net::ServerRequest& r) {
  if (r.path == "/auth" || startsWith(r.path, "/auth/")) {
    return authRoute(r);
  }
  net::HttpResponse refusal;
  const std::optional<AuthUser> u = user(r, refusal);
  if (!u) {
    return refusal;
  }
  const std::string role = requiredRole(r.method, r.path);
  if (std::find(u->roles.begin(), u->roles.end(), role) == u->roles.end()) {
    return jsonAnswer(403,
                      {{"detail", "Role \"" + role + "\" is required to perform this action"}});
  }
  return std::nullopt;
}

std::optional<AuthUser> AuthGate::user(const net::ServerRequest& r, net::HttpResponse& refusal) {
  const std::string header = r.header("Authorization");
  const std::size_t space = header.find(' ');
  std::string scheme = header.substr(0, space);
  std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (scheme != "bearer" || space == std::string::npos) {
    refusal = unauthorized("Not authenticated");
    return std::nullopt;
  }
  std::optional<AuthUser> u = tokens_.userOf(header.substr(space + 1));
  if (!u) {
    refusal = unauthorized("Could not validate credentials");
  }
  return u;
}

net::HttpResponse AuthGate::authRoute(const net::ServerRequest& r) {
  std::string path = r.path;
  while (path.size() > 1 && path.back() == '/') {
    path.pop_back();
  }
  if (path == "/auth" && r.method == "GET") {
    // The realm is where our tokens come from: this server, as the client reached it.
    const std::string host = r.header("Host");
    return jsonAnswer(200,
                      {{"enabled", true},
                       {"client_id", options_.clientId},
                       {"realm", (host.empty() ? std::string() : "http://" + host) + "/auth"}});
  }
  if (path == "/auth/token" && r.method == "POST") {
    return token(r);
  }
  if (path == "/auth/token/valid" && r.method == "GET") {
    net::HttpResponse refusal;
    const std::optional<AuthUser> u = user(r, refusal);
    return u ? jsonAnswer(200, userJson(*u)) : refusal;
  }
  if (path == "/auth" || path == "/auth/token" || path == "/auth/token/valid") {
    return jsonAnswer(405, {{"detail", "Method Not Allowed"}});
  }
  return jsonAnswer(404, {{"detail", "Not Found"}});
}

net::HttpResponse AuthGate::token(const net::ServerRequest& r) {
  const auto form = parseForm(r.body);
  const auto field = [&form](const char* key) {
    const auto it = form.find(key);
    return it == form.end() ? std::string() : it->second;
  };
  const std::string grant = field("grant_type");
  if (grant == "refresh_token") {
    const auto fresh = tokens_.refresh(field("refresh_token"));
    return fresh ? jsonAnswer(200, tokenAnswer(*fresh))
                 : unauthorized("Invalid or expired refresh token");
  }
  if (!grant.empty() && grant != "password") {
    return jsonAnswer(400, {{"detail", "Unsupported grant_type: " + grant}});
  }
  if (form.find("username") == form.end() || form.find("password") == form.end()) {
    // FastAPI's answer for a missing form field.
    return jsonAnswer(422, {{"detail",
                             {{{"loc", {"body", form.count("username") ? "password" : "username"}},
                               {"msg", "field required"},
                               {"type", "value_error.missing"}}}}});
  }
  for (const AuthUser& u : options_.users) {
    if (u.username == field("username") && sameSecret(u.password, field("password"))) {
      return jsonAnswer(200, tokenAnswer(tokens_.issue(u)));
    }
  }
  return unauthorized("Invalid username or password");
}

}  // namespace delineate::server
