#include "app/gui/upload/DeidSettings.h"

#include <QSettings>
#include <nlohmann/json.hpp>

#include "core/Error.h"
#include "core/deid/ReidentificationMap.h"

namespace delineate::app {

namespace {

const QString kOptions = QStringLiteral("deid/options");
const QString kMap = QStringLiteral("deid/map");

}  // namespace

DeidSettings DeidSettings::load() {
  const QSettings s;
  DeidSettings out;
  const nlohmann::json options =
      nlohmann::json::parse(s.value(kOptions).toString().toStdString(), nullptr, false);
  if (options.is_object()) {
    try {
      out.options = core::deid::deidOptionsFromJson(options, "the settings' deid/options");
    } catch (const core::Error&) {
      out.options = {};
    }
  }
  out.mapPath = s.value(kMap).toString();
  return out;
}

void DeidSettings::save() const {
  QSettings s;
  s.setValue(kOptions, QString::fromStdString(core::deid::toJson(options).dump()));
  s.setValue(kMap, mapPath);
}

std::filesystem::path DeidSettings::mapFile() const {
  return mapPath.isEmpty() ? core::deid::ReidentificationMap::defaultPath()
                           : std::filesystem::path(mapPath.toStdString());
}

}  // namespace delineate::app
