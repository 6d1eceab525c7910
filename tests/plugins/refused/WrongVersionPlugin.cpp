// A plugin built for a future API version (its metadata says apiVersion 8): the host must refuse
// it from the metadata alone, before running any of its code.
#include <QObject>

#include "plugins/api/AiBackendFactory.h"

class WrongVersionPlugin : public QObject {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID DELINEATE_AI_BACKEND_FACTORY_IID FILE "wrong-version.json")
};

#include "WrongVersionPlugin.moc"
