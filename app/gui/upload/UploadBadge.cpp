#include "app/gui/upload/UploadBadge.h"

#include <QStringList>

#include "app/gui/upload/UploadController.h"

namespace delineate::app {

UploadBadge::UploadBadge(UploadController* controller, QWidget* parent)
    : QToolButton(parent), controller_(controller) {
  setObjectName(QStringLiteral("uploadBadge"));
  setAutoRaise(true);
  hide();
  connect(controller_, &UploadController::changed, this, &UploadBadge::update);
}

void UploadBadge::update() {
  const core::upload::QueueCounts c = controller_->counts();
  if (c.pending == 0 && c.failed == 0) {
    hide();
    return;
  }
  QStringList parts;
  if (c.pending > 0) {
    parts << tr("%n pending", nullptr, c.pending);
  }
  if (c.failed > 0) {
    parts << tr("%n failed", nullptr, c.failed);
  }
  QString text = QStringLiteral("↑ ") + parts.join(QStringLiteral(" · "));
  if (controller_->paused() && c.pending > 0) {
    text += tr(" (paused)");
  }
  setText(text);
  QString tip = tr("Upload queue of %1").arg(controller_->serverName());
  if (controller_->sending()) {
    tip += QStringLiteral("\n") + controller_->stage();
  }
  if (!controller_->note().isEmpty()) {
    tip += QStringLiteral("\n") + controller_->note();
  }
  setToolTip(tip + tr("\nClick to open the queue."));
  // Failed items need the user: the badge says so in colour.
  setStyleSheet(c.failed > 0 ? QStringLiteral("QToolButton { color: #b00020; }") : QString());
  show();
}

}  // namespace delineate::app
