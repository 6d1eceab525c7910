// A plugin whose metadata is right but whose library needs a symbol nothing defines (as when it
// was built against another version of a library): loading it fails, and the host reports the
// loader's error.
#include <QObject>

#include "plugins/api/AiBackendFactory.h"

// Defined nowhere; default visibility, so the link leaves it for the dynamic loader.
Q_DECL_IMPORT extern int delineateTestMissingSymbol;

class MissingSymbolPlugin : public QObject, public delineate::plugins::AiBackendFactory {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID DELINEATE_AI_BACKEND_FACTORY_IID FILE "missing-symbol.json")
  Q_INTERFACES(delineate::plugins::AiBackendFactory)

 public:
  std::string kind() const override { return "missing-symbol"; }
  std::string displayName() const override {
    return "Missing symbol " + std::to_string(delineateTestMissingSymbol);
  }
  std::shared_ptr<delineate::core::ai::AiBackend> create(
      const delineate::plugins::BackendSettings&) const override {
    return nullptr;
  }
};

#include "MissingSymbolPlugin.moc"
