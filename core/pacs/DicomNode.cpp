#include "core/pacs/DicomNode.h"

namespace delineate::core::pacs {

std::string DicomNode::label() const {
  const std::string where = aeTitle + "@" + host + ":" + std::to_string(port);
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

std::optional<std::string> DicomNode::problem() const {
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
          {"deidentify", deidentify}};
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
  return n;
}

}  // namespace delineate::core::pacs
