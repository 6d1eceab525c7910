#include "core/pacs/DicomNode.h"

namespace delineate::core::pacs {

std::string DicomNode::label() const {
  const std::string where =
      isDicomWeb() ? dicomWebUrl : aeTitle + "@" + host + ":" + std::to_string(port);
  return name.empty() ? where : name + " (" + where + ")";
}

std::optional<std::string> aeTitleProblem(const std::string& aeTitle) {
  if (aeTitle.empty()) {
    return "the AE title is empty";
  }
  if (aeTitle.size() > 16) {
    return "the AE title \"" + aeTitle + "\" is longer than 16 characters";
  }
  if (aeTitle.find_first_not_of(' ') == std::string::npos) {
    return "the AE title is only spaces";
  }
  for (const char c : aeTitle) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\\' || u < 0x20 || u >= 0x7f) {
      return "the AE title \"" + aeTitle + "\" holds a backslash or a character outside ASCII";
    }
  }
  return std::nullopt;
}

std::string toString(WebAuth auth) {
  switch (auth) {
    case WebAuth::Basic:
      return "basic";
    case WebAuth::Bearer:
      return "bearer";
    case WebAuth::None:
      break;
  }
  return "none";
}

WebAuth webAuthFromString(const std::string& text) {
  if (text == "basic") {
    return WebAuth::Basic;
  }
  return text == "bearer" ? WebAuth::Bearer : WebAuth::None;
}

std::optional<std::string> DicomNode::problem() const {
  if (isDicomWeb()) {
    const bool http = dicomWebUrl.rfind("http://", 0) == 0 && dicomWebUrl.size() > 7;
    const bool https = dicomWebUrl.rfind("https://", 0) == 0 && dicomWebUrl.size() > 8;
    if (!http && !https) {
      return "the DICOMweb URL \"" + dicomWebUrl + "\" does not start with http:// or https://";
    }
    if (dicomWebUrl.find_first_of(" ?#") != std::string::npos) {
      return "the DICOMweb URL \"" + dicomWebUrl +
             "\" holds a space, a query or a fragment: give the base of its studies route";
    }
    if (auth == WebAuth::Basic && user.empty()) {
      return "Basic authentication needs a user name";
    }
    return std::nullopt;
  }
  if (auto p = aeTitleProblem(aeTitle)) {
    return p;
  }
  if (host.empty()) {
    return "no host name or address";
  }
  if (host.find_first_of(" /\\") != std::string::npos) {
    return "the host \"" + host + "\" is not a host name or address";
  }
  if (port < 1 || port > 65535) {
    return "the port " + std::to_string(port) + " is not between 1 and 65535";
  }
  return std::nullopt;
}

nlohmann::json DicomNode::toJson() const {
  return {{"name", name},
          {"aeTitle", aeTitle},
          {"host", host},
          {"port", port},
          {"deidentify", deidentify},
          {"retrieveByMove", retrieveByMove},
          {"dicomWebUrl", dicomWebUrl},
          {"auth", toString(auth)},
          {"user", user},
          {"caFile", caFile}};
}

DicomNode DicomNode::fromJson(const nlohmann::json& j) {
  DicomNode n;
  if (!j.is_object()) {
    return n;
  }
  auto text = [&j](const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  n.name = text("name");
  n.aeTitle = text("aeTitle");
  n.host = text("host");
  const auto port = j.find("port");
  n.port = port != j.end() && port->is_number_integer() ? port->get<int>() : 0;
  const auto deidentify = j.find("deidentify");
  n.deidentify = deidentify != j.end() && deidentify->is_boolean() && deidentify->get<bool>();
  const auto byMove = j.find("retrieveByMove");
  n.retrieveByMove = byMove != j.end() && byMove->is_boolean() && byMove->get<bool>();
  n.dicomWebUrl = text("dicomWebUrl");
  n.auth = webAuthFromString(text("auth"));
  n.user = text("user");
  n.caFile = text("caFile");
  return n;
}

}  // namespace delineate::core::pacs
