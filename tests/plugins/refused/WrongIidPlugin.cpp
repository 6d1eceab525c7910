// A plugin of another interface (another IID): the host must refuse it before loading it.
#include <QObject>

class WrongIidPlugin : public QObject {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID "org.example.SomethingElse/1.0" FILE "wrong-iid.json")
};

#include "WrongIidPlugin.moc"
