#pragma once
// The status bar's upload badge: "↑ 3 pending · 1 failed" for the watched server's queue (with
// "paused" or "sending" when so), hidden while nothing is pending or failed. Clicking it opens
// the upload queue view.
#include <QToolButton>

namespace delineate::app {

class UploadController;

class UploadBadge : public QToolButton {
  Q_OBJECT

 public:
  explicit UploadBadge(UploadController* controller, QWidget* parent = nullptr);

 private:
  void update();

  UploadController* controller_;
};

}  // namespace delineate::app
