// The example plugin of docs/plugins.md: a factory of EchoBackend, kind "echo".
#include <QObject>

#include "echo/EchoBackend.h"
#include "plugins/api/AiBackendFactory.h"

namespace delineate::test {

class EchoPlugin : public QObject, public plugins::AiBackendFactory {
  Q_OBJECT
  Q_PLUGIN_METADATA(IID DELINEATE_AI_BACKEND_FACTORY_IID FILE "echo.json")
  Q_INTERFACES(delineate::plugins::AiBackendFactory)

 public:
  std::string kind() const override { return "echo"; }
  std::string displayName() const override { return "Echo"; }
  std::shared_ptr<core::ai::AiBackend> create(
      const plugins::BackendSettings& settings) const override {
    return std::make_shared<EchoBackend>(settings.url);
  }
};

}  // namespace delineate::test

#include "EchoPlugin.moc"
