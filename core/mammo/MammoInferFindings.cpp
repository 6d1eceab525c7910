// findingsFromInferResult: the marks and the case probability in what a MONAI Label detection or
// classification model answers (its result JSON), read tolerantly but never trusted.
#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <map>

#include "core/Error.h"
#include "core/mammo/MammoFindings.h"

namespace delineate::core::mammo {

using nlohmann::json;

namespace {

struct InferReader {
  std::string where;

  [[noreturn]] void fail(const std::string& what) const {
    throw Error(ErrorKind::InvalidInput, where, what);
  }

  double number(const json& v, const std::string& name) const {
    if (!v.is_number() || !std::isfinite(v.get<double>())) {
      fail(name + " is not a number: " + v.dump().substr(0, 80));
    }
    return v.get<double>();
  }

  double probability(const json& v, const std::string& name) const {
    const double p = number(v, name);
    if (p < 0 || p > 1) {
      fail(name + " " + v.dump() + " is outside 0..1");
    }
    return p;
  }

  // The first of `keys` the result has (null counts as absent), else nullptr.
  static const json* first(const json& result, std::initializer_list<const char*> keys,
                           std::string* found) {
    for (const char* key : keys) {
      const auto it = result.find(key);
      if (it != result.end() && !it->is_null()) {
        *found = key;
        return &*it;
      }
    }
    return nullptr;
  }

  // Names of numbered labels from "label_names": {"mass": 1, ...} or ["background", "mass"].
  std::map<std::int64_t, std::string> labelNames(const json& result) const {
    std::map<std::int64_t, std::string> names;
    const auto it = result.find("label_names");
    if (it == result.end() || it->is_null()) {
      return names;
    }
    if (it->is_object()) {
      for (const auto& [name, value] : it->items()) {
        if (value.is_number_integer()) {
          names[value.get<std::int64_t>()] = name;
        }
      }
    } else if (it->is_array()) {
      for (std::size_t i = 0; i < it->size(); ++i) {
        if ((*it)[i].is_string()) {
          names[std::int64_t(i)] = (*it)[i].get<std::string>();
        }
      }
    } else {
      fail("\"label_names\" must be an object or a list");
    }
    return names;
  }

  std::string kindOf(const json& label, const std::map<std::int64_t, std::string>& names,
                     std::size_t index) const {
    if (label.is_string()) {
      if (label.get_ref<const std::string&>().empty()) {
        fail("label " + std::to_string(index) + " is empty");
      }
      return label.get<std::string>();
    }
    const double value = number(label, "label " + std::to_string(index));
    if (value != std::floor(value) || std::abs(value) > 1e15) {
      fail("label " + std::to_string(index) + " (" + label.dump() + ") is not a whole number");
    }
    const auto n = std::int64_t(value);
    const auto it = names.find(n);
    return it != names.end() ? it->second : "label " + std::to_string(n);
  }

  FindingMark box(const json& b, std::size_t index) const {
    const std::string name = "box " + std::to_string(index);
    if (!b.is_array() || b.size() != 4) {
      fail(name + " must be a list of 4 numbers [x0, y0, x1, y1]: " + b.dump().substr(0, 80));
    }
    double c[4];
    for (std::size_t k = 0; k < 4; ++k) {
      c[k] = number(b[k], name + " corner " + std::to_string(k));
    }
    FindingMark m;
    m.x0 = std::min(c[0], c[2]);
    m.x1 = std::max(c[0], c[2]);
    m.y0 = std::min(c[1], c[3]);
    m.y1 = std::max(c[1], c[3]);
    m.column = 0.5 * (m.x0 + m.x1);
    m.row = 0.5 * (m.y0 + m.y1);
    return m;
  }

  const json& list(const json& v, const std::string& key, std::size_t boxes) const {
    if (!v.is_array()) {
      fail("\"" + key + "\" must be a list");
    }
    if (v.size() != boxes) {
      fail("\"" + key + "\" has " + std::to_string(v.size()) + " entries for " +
           std::to_string(boxes) + " boxes");
    }
    return v;
  }

  std::optional<double> caseProbability(const json& result, bool skipScore) const {
    std::string key;
    const json* p = skipScore ? first(result, {"probability", "risk"}, &key)
                              : first(result, {"probability", "score", "risk"}, &key);
    if (p == nullptr) {
      return std::nullopt;
    }
    const std::string name = "\"" + key + "\"";
    if (p->is_array()) {
      if (p->size() == 1) {
        return probability((*p)[0], name);
      }
      if (p->size() == 2) {  // [negative, positive] class probabilities
        const double negative = probability((*p)[0], name + "[0]");
        const double positive = probability((*p)[1], name + "[1]");
        if (std::abs(negative + positive - 1) > 1e-3) {
          fail(name + " " + p->dump() + " are not two class probabilities summing to 1");
        }
        return positive;
      }
      fail(name + " must be a number or a list of one or two numbers");
    }
    return probability(*p, name);
  }
};

}  // namespace

StudyFindings findingsFromInferResult(const json& result, const std::string& imageId) {
  const InferReader r{imageId.empty() ? std::string("AI result") : "AI result for " + imageId};
  if (!result.is_object()) {
    r.fail("the model's result is not a JSON object");
  }
  StudyFindings out;
  ImageFindings image;
  image.imageId = imageId;
  std::string boxesKey, scoresKey, labelsKey;
  bool perBoxScore = false;  // "score" held the boxes' scores, not the case's
  const json* boxes = InferReader::first(result, {"boxes", "box", "pred_boxes"}, &boxesKey);
  if (boxes != nullptr) {
    if (!boxes->is_array()) {
      r.fail("\"" + boxesKey + "\" must be a list of [x0, y0, x1, y1]");
    }
    const std::size_t n = boxes->size();
    const json* scores = InferReader::first(
        result, {"scores", "label_scores", "box_scores", "pred_scores"}, &scoresKey);
    if (scores == nullptr && n > 0) {
      // Some models name the per-box list "score"; a number there is the case's probability.
      scores = InferReader::first(result, {"score"}, &scoresKey);
      scores = scores != nullptr && scores->is_array() && scores->size() == n ? scores : nullptr;
      perBoxScore = scores != nullptr;
    }
    const json* labels = InferReader::first(result, {"labels", "label", "pred_labels"}, &labelsKey);
    if (scores != nullptr) {
      r.list(*scores, scoresKey, n);
    }
    if (labels != nullptr) {
      r.list(*labels, labelsKey, n);
    }
    const auto names = r.labelNames(result);
    for (std::size_t i = 0; i < n; ++i) {
      FindingMark m = r.box((*boxes)[i], i);
      m.score = scores != nullptr ? r.probability((*scores)[i], "score " + std::to_string(i)) : 1.0;
      m.kind = labels != nullptr ? r.kindOf((*labels)[i], names, i) : "finding";
      image.marks.push_back(std::move(m));
    }
    std::stable_sort(image.marks.begin(), image.marks.end(),
                     [](const FindingMark& a, const FindingMark& b) { return a.score > b.score; });
  }
  out.riskScore = r.caseProbability(result, perBoxScore);
  if (boxes == nullptr && !out.riskScore) {
    r.fail("the model's result has neither \"boxes\" nor a \"probability\", \"score\" or \"risk\"");
  }
  out.images.push_back(std::move(image));
  return out;
}

}  // namespace delineate::core::mammo
