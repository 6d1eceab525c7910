#include "app/gui/pacs/StorageListener.h"

#include <QThreadPool>
#include <atomic>
#include <mutex>

#include "app/gui/pacs/DicomNodeSettings.h"
#include "core/Error.h"
#include "core/pacs/StorageScp.h"

namespace delineate::app {

namespace {

// The title and port listened on now (one listener per process), for listensAs().
std::mutex gMutex;
std::string gAeTitle;
int gPort = 0;

void publish(const std::string& aeTitle, int port) {
  std::lock_guard lock(gMutex);
  gAeTitle = aeTitle;
  gPort = port;
}

}  // namespace

StorageListener::StorageListener(QString cacheRoot, QObject* parent)
    : QObject(parent), cacheRoot_(std::move(cacheRoot)) {
  poll_.setInterval(500);
  connect(&poll_, &QTimer::timeout, this, [this] {
    const std::size_t now = received();
    if (now > reported_) {
      reported_ = now;
      Q_EMIT receivedMore(now);
    }
  });
}

StorageListener::~StorageListener() {
  publish({}, 0);
  scp_.reset();  // joins its thread (about a second at most)
}

void StorageListener::apply() {
  const DicomNodeSettings s = DicomNodeSettings::load();
  if (!s.alwaysListen) {
    stop();
    problem_.clear();
    Q_EMIT stateChanged();
    return;
  }
  if (scp_ && aeTitle_ == s.callingAeTitle && port_ == s.storagePort) {
    return;
  }
  stop();
  problem_.clear();
  try {
    scp_ = std::make_unique<core::pacs::StorageScp>(s.callingAeTitle, s.storagePort,
                                                    cacheRoot_.toStdString(),
                                                    core::pacs::StorageScp::Layout::StudySeries);
    aeTitle_ = s.callingAeTitle;
    port_ = s.storagePort;
    reported_ = 0;
    publish(aeTitle_, port_);
    poll_.start();
  } catch (const core::Error& e) {
    problem_ = QString::fromStdString(e.what());
  }
  Q_EMIT stateChanged();
}

void StorageListener::stop() {
  poll_.stop();
  publish({}, 0);
  if (scp_) {
    // Stopping waits for its thread (up to a second): not on the GUI thread.
    QThreadPool::globalInstance()->start([scp = std::shared_ptr<core::pacs::StorageScp>(
                                              std::move(scp_))]() mutable { scp.reset(); });
  }
}

std::size_t StorageListener::received() const {
  return scp_ ? scp_->received() : 0;
}

bool StorageListener::listensAs(const std::string& aeTitle, int port) {
  std::lock_guard lock(gMutex);
  return gPort != 0 && gPort == port && gAeTitle == aeTitle;
}

}  // namespace delineate::app
