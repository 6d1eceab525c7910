// The AI controller's servers: made by the plugin of their kind, listed and kept in the settings
// ("ai/servers", one ServerEntry each), added, removed, their de-identification switched.
#include <QSettings>
#include <algorithm>

#include "annotation/engine/LocalEngineBackend.h"
#include "app/gui/ai/AiController.h"
#include "app/gui/ai/ServerEntry.h"
#include "app/plugins/PluginHost.h"
#include "core/Error.h"

namespace delineate::app {

namespace {

// A server's settings entry (ServerEntry): its plugin kind, a space and its URL ("clara-aiaa
// http://..."), then its options; a bare URL is a MONAI Label server.
constexpr const char* kDefaultServerKind = ServerEntry::kDefaultKind;

// For the status line of a backend whose plugin the host did not load.
QString missingPlugin(const QString& kind) {
  return AiController::tr("the \"%1\" plugin is not installed (searched %2)")
      .arg(kind, PluginHost::application().directories().join(QStringLiteral(", ")));
}

}  // namespace

AiController::Backend AiController::serverBackend(const QString& entry) {
  const ServerEntry parsed = ServerEntry::parse(entry);
  Backend b;
  b.url = parsed.url;
  b.entry = entry;
  b.kind = parsed.kind;
  b.deidentify = parsed.deidentify;
  const plugins::BackendKind* kind =
      PluginHost::application().registry().find(b.kind.toStdString());
  b.name = tr("%1 at %2").arg(kind ? QString::fromStdString(kind->displayName) : b.kind, b.url);
  if (!kind) {
    b.note = missingPlugin(b.kind);
    return b;
  }
  plugins::BackendSettings settings;
  settings.url = b.url.toStdString();
  settings.outbound.deidentify = b.deidentify;
  try {
    b.backend = kind->create(settings);
  } catch (const core::Error& e) {
    b.note = QString::fromStdString(e.what());
  }
  return b;
}

AiController::Backend AiController::builtinEngine() {
  Backend b;
  b.kind = QStringLiteral("builtin");
  if (const plugins::BackendKind* kind =
          PluginHost::application().registry().find(b.kind.toStdString())) {
    b.name = QString::fromStdString(kind->displayName);
    b.backend = kind->create({});
    return b;
  }
  // The app must work offline even when its plugin folder is damaged: the engine is linked in.
  b.name = tr("Built-in engine");
  b.backend = std::make_shared<annotation::LocalEngineBackend>();
  b.kind.clear();
  b.note = missingPlugin(QStringLiteral("builtin")) + tr(", so the copy inside the app runs");
  return b;
}

QStringList AiController::serverKinds() {
  QStringList out;
  for (const plugins::BackendKind& k : PluginHost::application().registry().kinds()) {
    if (k.kind != "builtin") {
      out << QString::fromStdString(k.kind);
    }
  }
  // MONAI Label, the usual one, first; the others by kind.
  std::sort(out.begin(), out.end(), [](const QString& a, const QString& b) {
    const bool da = a == QLatin1String(kDefaultServerKind),
               db = b == QLatin1String(kDefaultServerKind);
    return da != db ? da : a < b;
  });
  return out;
}

QString AiController::serverKindName(const QString& kind) {
  const plugins::BackendKind* k = PluginHost::application().registry().find(kind.toStdString());
  return k ? QString::fromStdString(k->displayName) : kind;
}

int AiController::addServer(const QString& url, const QString& kind) {
  ServerEntry added;
  added.url = url;
  if (!kind.isEmpty()) {
    added.kind = kind;
  }
  for (std::size_t i = 0; i < backends_.size(); ++i) {
    if (!backends_[i].entry.isEmpty() &&
        ServerEntry::parse(backends_[i].entry).key() == added.key()) {
      setBackend(static_cast<int>(i));
      return static_cast<int>(i);
    }
  }
  backends_.push_back(serverBackend(added.toString()));
  attachApiKey(backends_.back());
  saveServers();
  Q_EMIT backendsChanged();
  setBackend(static_cast<int>(backends_.size()) - 1);
  return current_;
}

bool AiController::removeServer(int index) {
  if (index <= 0 || index >= static_cast<int>(backends_.size()) ||
      backends_[std::size_t(index)].entry.isEmpty()) {
    return false;
  }
  // Jobs name their backend by index: select the engine first, which cancels the requests and
  // supersedes the model question of the servers whose index is about to change.
  const int keep = current_ == index ? 0 : (current_ > index ? current_ - 1 : current_);
  if (current_ >= index) {
    setBackend(0);
  }
  backends_.erase(backends_.begin() + index);
  saveServers();
  Q_EMIT backendsChanged();
  if (keep != current_) {
    setBackend(keep);
  }
  return true;
}

void AiController::saveServers() const {
  QStringList entries;
  for (const Backend& b : backends_) {
    if (!b.entry.isEmpty()) {
      entries << b.entry;
    }
  }
  QSettings().setValue(QLatin1String(kServersKey), entries);
}

void AiController::setDeidentify(int index, bool on) {
  if (index < 0 || index >= static_cast<int>(backends_.size()) ||
      backends_[std::size_t(index)].entry.isEmpty() ||
      backends_[std::size_t(index)].deidentify == on) {
    return;
  }
  Backend& old = backends_[std::size_t(index)];
  ServerEntry entry = ServerEntry::parse(old.entry);
  entry.deidentify = on;
  // A client's policy is fixed when it is made: make it again, keeping what the old one knew
  // (its sign-in); a job still running keeps the old one until it ends.
  Backend made = serverBackend(entry.toString());
  if (old.backend && made.backend) {
    made.backend->setSignInTokens(old.backend->signInTokens());
  }
  made.info = old.info;
  made.status = old.status;
  old = std::move(made);
  saveServers();
  Q_EMIT backendsChanged();
}

}  // namespace delineate::app
