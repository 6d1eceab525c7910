// A plugin whose metadata has no "kind": the app could never ask for it, so the host refuses it.
#include <QObject>

#include "plugins/api/AiBackendFactory.h"

class NoKindPlugin : public QObject {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID DELINEATE_AI_BACKEND_FACTORY_IID FILE "no-kind.json")
};

#include "NoKindPlugin.moc"
