#include "app/gui/upload/UploadFeature.h"

#include <QAction>
#include <QMenu>
#include <filesystem>

#include "app/gui/CommandRegistry.h"
#include "app/gui/MainWindow.h"
#include "app/gui/ai/AiController.h"
#include "app/gui/compare/OpenImageCase.h"
#include "app/gui/editing/EditJobs.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/reading/SeriesListController.h"
#include "app/gui/shell/JobRunner.h"
#include "app/gui/upload/DatasetUploadDialog.h"
#include "app/gui/upload/UploadBadge.h"
#include "app/gui/upload/UploadController.h"
#include "app/gui/upload/UploadQueueView.h"
#include "core/upload/StudyCases.h"

namespace delineate::app {

namespace up = core::upload;

UploadFeature::UploadFeature(MainWindow* window, CommandRegistry* commands, bool interactive)
    : QObject(window),
      window_(window),
      commands_(commands),
      interactive_(interactive),
      controller_(new UploadController(this)),
      badge_(new UploadBadge(controller_, window)),
      startup_(new JobRunner(this)) {
  connect(commands_->add(QStringLiteral("ai.uploadDataset"), tr("Upload &dataset…")),
          &QAction::triggered, this, &UploadFeature::showDialog);
  connect(commands_->add(QStringLiteral("ai.uploadQueue"), tr("Upload &queue…")),
          &QAction::triggered, this, &UploadFeature::showQueue);
  connect(badge_, &QToolButton::clicked, this, &UploadFeature::showQueue);
  AiController* ai = window_->editing()->ai();
  connect(ai, &AiController::statusChanged, this, &UploadFeature::serverChanged);
  connect(ai, &AiController::backendsChanged, this, &UploadFeature::serverChanged);
  // Once read, a queue of the connected current server with items left is sent — unless paused,
  // or the last run stopped for a reason (signed out) the user must see to first.
  connect(controller_, &UploadController::changed, this, [this] {
    const AiController* ai = window_->editing()->ai();
    const AiController::Backend& b = ai->backends()[std::size_t(ai->backendIndex())];
    if (b.info && b.url == controller_->serverUrl() && controller_->counts().pending > 0 &&
        !controller_->paused() && !controller_->sending() && controller_->note().isEmpty()) {
      controller_->send();
    }
  });
  findLeftQueue();
}

UploadFeature::~UploadFeature() {
  startup_->cancel();
  startup_->waitForIdle();
  delete dialog_;     // its jobs read the AI backends
  delete queueView_;  // reads the controller
  controller_->stop();
}

void UploadFeature::populateMenu(QMenu* menu) {
  menu->addAction(commands_->action(QStringLiteral("ai.uploadDataset")));
  menu->addAction(commands_->action(QStringLiteral("ai.uploadQueue")));
}

DatasetUploadDialog* UploadFeature::dialog() {
  if (dialog_ == nullptr) {
    dialog_ = new DatasetUploadDialog(window_->editing()->ai(), controller_, interactive_, window_);
    connect(dialog_, &DatasetUploadDialog::openImageRequested, this, &UploadFeature::addOpenImage);
    connect(dialog_, &DatasetUploadDialog::studySeriesRequested, this,
            &UploadFeature::addStudySeries);
  }
  return dialog_;
}

UploadQueueView* UploadFeature::queueView() {
  if (queueView_ == nullptr) {
    queueView_ = new UploadQueueView(controller_, window_);
  }
  return queueView_;
}

void UploadFeature::showDialog() {
  DatasetUploadDialog* d = dialog();
  d->show();
  d->raise();
  d->activateWindow();
}

void UploadFeature::showQueue() {
  UploadQueueView* v = queueView();
  v->show();
  v->raise();
  v->activateWindow();
}

void UploadFeature::serverChanged() {
  const AiController* ai = window_->editing()->ai();
  const AiController::Backend& b = ai->backends()[std::size_t(ai->backendIndex())];
  if (b.url.isEmpty()) {
    return;  // the built-in engine: the badge keeps showing the last server's queue
  }
  const QString name = b.name.isEmpty() ? b.url : b.name;
  if (b.url != controller_->serverUrl()) {
    controller_->watch(b.url, name, b.backend);
  }
  if (b.info && controller_->counts().pending > 0 && !controller_->paused() &&
      !controller_->sending()) {
    controller_->send();
  }
}

void UploadFeature::findLeftQueue() {
  struct Server {
    QString url, name;
    std::shared_ptr<core::ai::AiBackend> backend;
  };
  std::vector<Server> servers;
  for (const AiController::Backend& b : window_->editing()->ai()->backends()) {
    if (!b.url.isEmpty()) {
      servers.push_back({b.url, b.name.isEmpty() ? b.url : b.name, b.backend});
    }
  }
  if (servers.empty()) {
    return;
  }
  std::vector<std::string> urls;
  for (const Server& s : servers) {
    urls.push_back(s.url.toStdString());
  }
  startup_->run<int>(
      tr("Looking for uploads left in a queue"),
      [urls](core::ProgressSink&) {
        for (std::size_t i = 0; i < urls.size(); ++i) {
          const std::filesystem::path folder = up::defaultQueueFolder(urls[i]);
          if (!std::filesystem::exists(folder / "items")) {
            continue;
          }
          const up::QueueCounts c = up::UploadQueue(folder).counts();
          if (c.pending > 0 || c.failed > 0) {
            return static_cast<int>(i);
          }
        }
        return -1;
      },
      [this, servers](int index) {
        // The user may have chosen a server meanwhile: that one's queue is the one to show.
        if (index >= 0 && controller_->serverUrl().isEmpty()) {
          const Server& s = servers[std::size_t(index)];
          controller_->watch(s.url, s.name, s.backend);
        }
      },
      [](const QString&, bool) {});
}

void UploadFeature::addStudySeries() {
  const SeriesListController* list = window_->seriesList();
  const std::vector<const core::DicomSeries*> all = list->scan().allSeries();
  if (all.empty()) {
    dialog()->fail(tr("The study browser lists no DICOM series: open a DICOM folder first."));
    return;
  }
  std::vector<std::size_t> picked = list->selectedSeries();
  if (picked.empty()) {
    for (std::size_t i = 0; i < all.size(); ++i) {
      if (!up::isSegSeries(*all[i])) {
        picked.push_back(i);
      }
    }
  }
  dialog()->addSeries(list->scan(), picked);
}

void UploadFeature::addOpenImage() {
  EditSession* session = window_->editing()->session();
  const core::VolumePtr image = session->image();
  if (!image) {
    dialog()->fail(tr("No image is open: open one, or add files."));
    return;
  }
  if (!openImages_.isValid()) {
    dialog()->fail(
        tr("No temporary folder for the open image's files: %1").arg(openImages_.errorString()));
    return;
  }
  std::vector<std::shared_ptr<const core::LabelMap>> maps;
  for (const auto& m : session->document().labelMaps()) {
    maps.push_back(m);
  }
  if (maps.empty()) {
    dialog()->fail(tr("The open image has no label map to send."));
    return;
  }
  const std::filesystem::path folder = openImages_.path().toStdString();
  window_->editing()->jobs()->run<up::DatasetCase>(
      tr("Writing the open image for the upload"),
      [image, maps, folder](core::ProgressSink& progress) {
        return writeOpenImageCase(*image, maps, folder, progress);
      },
      [this](up::DatasetCase picked) { dialog()->addCases({picked}); },
      [this](const QString& error) { dialog()->fail(error); });
}

}  // namespace delineate::app
