#include "core/jobs/ProgressSink.h"

#include "core/Error.h"

namespace delineate::core {

void ProgressSink::throwIfCancelled() const {
  if (cancelled()) {
    throw CancelledError();
  }
}

}  // namespace delineate::core
