#include "app/gui/pacs/DicomNodeSettings.h"

#include <QSettings>
#include <nlohmann/json.hpp>

#include "app/gui/pacs/StorageListener.h"

namespace delineate::app {

namespace {

const QString kNodes = QStringLiteral("pacs/nodes");
const QString kCalling = QStringLiteral("pacs/callingAeTitle");
const QString kStoragePort = QStringLiteral("pacs/storagePort");
const QString kCacheLimit = QStringLiteral("pacs/cacheLimitGb");
const QString kAlwaysListen = QStringLiteral("pacs/alwaysListen");

}  // namespace

DicomNodeSettings DicomNodeSettings::load() {
  const QSettings s;
  DicomNodeSettings out;
  const nlohmann::json list =
      nlohmann::json::parse(s.value(kNodes).toString().toStdString(), nullptr, false);
  if (list.is_array()) {
    for (const nlohmann::json& j : list) {
      out.nodes.push_back(core::pacs::DicomNode::fromJson(j));
    }
  }
  const std::string calling = s.value(kCalling).toString().toStdString();
  if (!calling.empty() && !core::pacs::aeTitleProblem(calling)) {
    out.callingAeTitle = calling;
  }
  const int port = s.value(kStoragePort, out.storagePort).toInt();
  if (port >= 1 && port <= 65535) {
    out.storagePort = port;
  }
  const int limit = s.value(kCacheLimit, out.cacheLimitGb).toInt();
  if (limit >= 1) {
    out.cacheLimitGb = limit;
  }
  out.alwaysListen = s.value(kAlwaysListen, false).toBool();
  return out;
}

void DicomNodeSettings::save() const {
  nlohmann::json list = nlohmann::json::array();
  for (const core::pacs::DicomNode& n : nodes) {
    list.push_back(n.toJson());
  }
  QSettings s;
  s.setValue(kNodes, QString::fromStdString(list.dump()));
  s.setValue(kCalling, QString::fromStdString(callingAeTitle));
  s.setValue(kStoragePort, storagePort);
  s.setValue(kCacheLimit, cacheLimitGb);
  s.setValue(kAlwaysListen, alwaysListen);
}

core::pacs::DicomNetworkOptions DicomNodeSettings::networkOptions() const {
  core::pacs::DicomNetworkOptions o;
  o.callingAeTitle = callingAeTitle;
  o.movePort = storagePort;
  o.storageScpAlwaysOn = StorageListener::listensAs(callingAeTitle, storagePort);
  return o;
}

}  // namespace delineate::app
