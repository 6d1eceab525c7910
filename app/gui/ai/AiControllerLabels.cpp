// The AI controller's label rules: per model, where each label of a proposal goes on Accept
// (kept in the settings as JSON under "ai/labelRules/MODEL"), and the names the rules dialog
// offers.
#include <QSettings>
#include <nlohmann/json.hpp>

#include "app/gui/ai/AiController.h"
#include "app/gui/editing/EditSession.h"

namespace delineate::app {

namespace {

constexpr const char* kLabelRulesKey = "ai/labelRules/";

}  // namespace

annotation::LabelRules AiController::labelRules(const QString& model) const {
  annotation::LabelRules rules;
  const QByteArray text =
      QSettings().value(QLatin1String(kLabelRulesKey) + model).toString().toUtf8();
  const nlohmann::json j = nlohmann::json::parse(text.constData(), nullptr, false);
  if (!j.is_object()) {
    return rules;
  }
  for (const auto& [name, rule] : j.items()) {
    if (!rule.is_object()) {
      continue;
    }
    const std::string kind = rule.value("kind", "");
    annotation::LabelRule r;
    r.kind = kind == "segment" ? annotation::LabelRule::Kind::Segment
             : kind == "new"   ? annotation::LabelRule::Kind::NewSegment
             : kind == "skip"  ? annotation::LabelRule::Kind::Skip
                               : annotation::LabelRule::Kind::Default;
    r.segment = rule.value("segment", "");
    rules[name] = r;
  }
  return rules;
}

void AiController::setLabelRules(const QString& model, const annotation::LabelRules& rules) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, r] : rules) {
    const char* kind = r.kind == annotation::LabelRule::Kind::Segment      ? "segment"
                       : r.kind == annotation::LabelRule::Kind::NewSegment ? "new"
                       : r.kind == annotation::LabelRule::Kind::Skip       ? "skip"
                                                                           : "default";
    if (r.kind != annotation::LabelRule::Kind::Default) {
      j[name] = {{"kind", kind}, {"segment", r.segment}};
    }
  }
  QSettings().setValue(QLatin1String(kLabelRulesKey) + model, QString::fromStdString(j.dump()));
}

std::vector<std::string> AiController::modelLabelNames() const {
  std::vector<std::string> out;
  if (const auto& p = interaction_.proposal()) {
    for (const core::Segment& s : p->segments()) {
      out.push_back(s.name);
    }
    return out;
  }
  const auto& info = backends_[static_cast<std::size_t>(current_)].info;
  if (const core::ai::ModelInfo* m = info ? info->findModel(model_.toStdString()) : nullptr) {
    for (const core::ai::ModelLabel& l : m->labels) {
      if (!l.background) {
        out.push_back(l.name);
      }
    }
  }
  return out;
}

std::vector<std::string> AiController::activeSegmentNames() const {
  std::vector<std::string> out;
  if (const auto map = session_->activeMap()) {
    for (const core::Segment& s : map->segments()) {
      out.push_back(s.name);
    }
  }
  return out;
}

}  // namespace delineate::app
