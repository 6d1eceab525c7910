#include "core/pacs/StowAnswer.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "core/pacs/DicomJson.h"

namespace delineate::core::pacs {

namespace {

using nlohmann::json;

// The items of sequence `tag`: the element's Value array of objects; empty when absent.
std::vector<const json*> items(const json& answer, std::string_view tag) {
  std::vector<const json*> out;
  if (!answer.is_object()) {
    return out;
  }
  auto it = answer.find(std::string(tag));
  if (it == answer.end() || !it->is_object()) {
    return out;
  }
  const auto values = it->find("Value");
  if (values == it->end() || !values->is_array()) {
    return out;
  }
  for (const json& item : *values) {
    if (item.is_object()) {
      out.push_back(&item);
    }
  }
  return out;
}

std::string reasonText(std::uint16_t reason) {
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%04X", reason);
  std::string meaning;
  switch (reason) {
    case 0xA700:
      meaning = "out of resources (storage full)";
      break;
    case 0xA900:
      meaning = "the data set does not match the SOP class";
      break;
    case 0xC000:
      meaning = "the server cannot understand the instance";
      break;
    case 0xC122:
      meaning = "the SOP class is not supported";
      break;
    case 0x0110:
      meaning = "processing failure";
      break;
    case 0x0122:
      meaning = "the SOP class is not supported";
      break;
    case 0x0124:
      meaning = "not authorised";
      break;
    default:
      meaning = "failure";
  }
  return meaning + " (" + hex + ")";
}

}  // namespace

std::map<std::string, StowOutcome> stowOutcomes(int status, std::string_view body,
                                                const std::vector<std::string>& sent) {
  std::map<std::string, StowOutcome> out;
  const json answer = json::parse(body.begin(), body.end(), nullptr, false);
  const bool readable = answer.is_object();
  std::set<std::string> referenced;
  std::map<std::string, std::uint16_t> failed;
  for (const json* item : items(answer, "00081199")) {
    referenced.insert(dicomJsonText(*item, "00081155"));
  }
  for (const json* item : items(answer, "00081198")) {
    const int reason = dicomJsonNumber(*item, "00081197");
    failed[dicomJsonText(*item, "00081155")] =
        reason >= 0 && reason <= 0xFFFF ? static_cast<std::uint16_t>(reason) : 0;
  }
  for (const std::string& uid : sent) {
    StowOutcome& o = out[uid];
    if (const auto f = failed.find(uid); f != failed.end()) {
      o.failureReason = f->second;
      o.message = "the server refused it: " + reasonText(f->second);
    } else if (referenced.count(uid) != 0) {
      o.stored = true;
    } else if (!readable) {
      o.message = "HTTP " + std::to_string(status) +
                  (status >= 200 && status < 300 ? ", and the answer does not list what was stored"
                                                 : ": the server stored nothing it reported");
    } else {
      o.message = "HTTP " + std::to_string(status) +
                  ", but the answer does not list this instance as stored";
    }
  }
  return out;
}

}  // namespace delineate::core::pacs
