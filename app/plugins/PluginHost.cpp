#include "app/plugins/PluginHost.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonObject>
#include <QLibrary>
#include <QPluginLoader>
#include <QtGlobal>

namespace delineate::app {

namespace {

constexpr const char* kPathVariable = "DELINEATE_PLUGIN_PATH";

QString refused(const QString& file, const QString& reason) {
  return QStringLiteral("Plugin %1 refused: %2").arg(file, reason);
}

}  // namespace

PluginHost::PluginHost(const QStringList& directories) : directories_(directories) {
  for (const QString& directory : directories_) {
    scan(directory);
  }
}

QStringList PluginHost::searchPath(const QString& executableDir) {
  QStringList out;
  const QString variable = qEnvironmentVariable(kPathVariable);
  for (const QString& entry : variable.split(QDir::listSeparator(), Qt::SkipEmptyParts)) {
    out << QDir::cleanPath(entry);
  }
  if (!executableDir.isEmpty()) {
    out << QDir::cleanPath(executableDir + QStringLiteral("/../lib/delineate/plugins"));
    out << QDir::cleanPath(executableDir + QStringLiteral("/plugins"));
  }
  return out;
}

const PluginHost& PluginHost::application() {
  static const PluginHost host(searchPath(
      QCoreApplication::instance() ? QCoreApplication::applicationDirPath() : QString()));
  return host;
}

std::vector<const plugins::AiBackendFactory*> PluginHost::factories() const {
  std::vector<const plugins::AiBackendFactory*> out;
  for (const auto& entry : factories_) {
    out.push_back(entry.second);
  }
  return out;
}

const plugins::AiBackendFactory* PluginHost::factory(const QString& kind) const {
  for (const auto& [k, f] : factories_) {
    if (k == kind) {
      return f;
    }
  }
  return nullptr;
}

const PluginReport* PluginHost::reportFor(const QString& kind) const {
  for (const PluginReport& r : reports_) {
    if (r.loaded && r.kind == kind) {
      return &r;
    }
  }
  return nullptr;
}

void PluginHost::scan(const QString& directory) {
  const QString canonical = QFileInfo(directory).canonicalFilePath();
  if (canonical.isEmpty() || scanned_.contains(canonical)) {
    return;  // missing, or already searched under another name
  }
  scanned_ << canonical;
  for (const QFileInfo& entry : QDir(canonical).entryInfoList(QDir::Files, QDir::Name)) {
    const QString file = entry.canonicalFilePath();
    if (!QLibrary::isLibrary(file) || scanned_.contains(file)) {
      continue;
    }
    scanned_ << file;
    PluginReport report = consider(file);
    if (!report.loaded) {
      qWarning("%s", qUtf8Printable(report.message));
    }
    reports_.push_back(std::move(report));
  }
}

PluginReport PluginHost::consider(const QString& file) {
  PluginReport report;
  report.file = file;
  QPluginLoader loader(file);
  // Everything the library needs is resolved now: a missing symbol is a load failure to report,
  // not a crash in the middle of an inference.
  loader.setLoadHints(QLibrary::ResolveAllSymbolsHint | QLibrary::PreventUnloadHint);
  const QJsonObject meta = loader.metaData();
  if (meta.isEmpty()) {
    report.message =
        refused(file, QStringLiteral("not a Qt plugin (%1)").arg(loader.errorString()));
    return report;
  }
  const QJsonObject data = meta.value(QLatin1String("MetaData")).toObject();
  report.kind = data.value(QLatin1String("kind")).toString();
  report.name = data.value(QLatin1String("name")).toString();
  report.description = data.value(QLatin1String("description")).toString();
  const QString iid = meta.value(QLatin1String("IID")).toString();
  if (iid != QLatin1String(DELINEATE_AI_BACKEND_FACTORY_IID)) {
    report.message = refused(file, QStringLiteral("its interface is \"%1\", not \"%2\"")
                                       .arg(iid, QLatin1String(DELINEATE_AI_BACKEND_FACTORY_IID)));
    return report;
  }
  const QJsonValue version = data.value(QLatin1String("apiVersion"));
  if (!version.isDouble() || version.toDouble() != plugins::kAiBackendApiVersion) {
    report.message = refused(
        file, QStringLiteral("built for plugin API version %1; this build speaks API version %2")
                  .arg(version.isUndefined() ? QStringLiteral("(none given)")
                                             : version.toVariant().toString())
                  .arg(plugins::kAiBackendApiVersion));
    return report;
  }
  if (report.kind.isEmpty()) {
    report.message = refused(file, QStringLiteral("its metadata has no \"kind\""));
    return report;
  }
  if (const PluginReport* first = reportFor(report.kind)) {
    report.message = refused(
        file,
        QStringLiteral("kind \"%1\" is already provided by %2").arg(report.kind, first->file));
    return report;
  }
  QObject* root = loader.instance();
  if (root == nullptr) {
    report.message = QStringLiteral("Plugin %1 failed to load: %2").arg(file, loader.errorString());
    return report;
  }
  const auto* factory = qobject_cast<plugins::AiBackendFactory*>(root);
  if (factory == nullptr) {
    report.message = refused(file, QStringLiteral("its object is not an AiBackendFactory"));
    return report;
  }
  if (QString::fromStdString(factory->kind()) != report.kind) {
    report.message =
        refused(file, QStringLiteral("its factory says kind \"%1\", its metadata \"%2\"")
                          .arg(QString::fromStdString(factory->kind()), report.kind));
    return report;
  }
  report.loaded = true;
  factories_.emplace_back(report.kind, factory);
  plugins::BackendKind kind;
  kind.kind = report.kind.toStdString();
  kind.displayName = factory->displayName();
  kind.create = [factory](const plugins::BackendSettings& settings) {
    return factory->create(settings);
  };
  registry_.add(std::move(kind));
  return report;
}

}  // namespace delineate::app
