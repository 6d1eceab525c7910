#include "app/gui/editing/EditJobs.h"

namespace delineate::app {

EditJobs::EditJobs(EditSession* session, QObject* parent)
    : QObject(parent), session_(session), runner_(new JobRunner(this)) {}

EditJobs::~EditJobs() {
  cancelAndWait();
}

void EditJobs::cancelAndWait() {
  runner_->cancel();
  runner_->waitForIdle();
}

}  // namespace delineate::app
