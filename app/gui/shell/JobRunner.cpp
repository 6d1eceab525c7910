#include "app/gui/shell/JobRunner.h"

namespace delineate::app {

JobRunner::JobRunner(QObject* parent) : QObject(parent) {}

JobRunner::~JobRunner() {
  token_.cancel();
  waitForIdle();
}

void JobRunner::cancel() {
  token_.cancel();
}

void JobRunner::waitForIdle() {
  for (QFutureWatcherBase* w : watchers_) {
    w->waitForFinished();
  }
}

}  // namespace delineate::app
