#include "app/gui/editing/EditingFeature.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QStatusBar>
#include <QToolBar>
#include <cstdio>

#include "app/gui/CommandRegistry.h"
#include "app/gui/ai/AiController.h"
#include "app/gui/ai/AiDock.h"
#include "app/gui/ai/AiPromptTools.h"
#include "app/gui/ai/CorrectionRecorder.h"
#include "app/gui/editing/EditJobs.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/LabelFileController.h"
#include "app/gui/editing/SegmentMeasurer.h"
#include "app/gui/editing/SegmentOperationsController.h"
#include "app/gui/editing/SegmentsDock.h"
#include "app/gui/editing/ToolController.h"
#include "app/gui/preferences/Preferences.h"
#include "app/gui/preferences/PreferencesDialog.h"
#include "app/gui/reading/SurfaceController.h"
#include "app/gui/shell/Autosaver.h"
#include "app/gui/shell/JobProgressWidget.h"
#include "app/gui/shell/RecoveryController.h"
#include "app/gui/shell/RecoverySnapshots.h"
#include "app/gui/shell/ThemeController.h"
#include "viewers/ViewLayout.h"
#include "viewers/VolumeView.h"

namespace delineate::app {

EditingFeature::EditingFeature(QMainWindow* window, CommandRegistry* commands,
                               viewers::ViewLayout* views, bool interactive)
    : QObject(window),
      window_(window),
      commands_(commands),
      views_(views),
      interactive_(interactive) {
  session_ = new EditSession(views->labelState(), this);
  session_->enableRecovery(RecoveryController::recoveryRoot());
  jobs_ = new EditJobs(session_, this);
  tools_ = new ToolController(session_, jobs_, commands_, views_, this);
  ai_ = new AiController(session_, tools_, jobs_, views_->markerState(), this);
  new AiPromptTools(ai_, session_, tools_, ai_);
  // Not a dialog: a failing server must not interrupt every click.
  connect(ai_, &AiController::failed, this, [this](const QString& m) {
    window_->statusBar()->showMessage(m, 15000);
    Q_EMIT errorShown(m);
  });
  operations_ = new SegmentOperationsController(session_, jobs_, commands_, interactive_, this);
  files_ = new LabelFileController(
      session_, jobs_, commands_, interactive_, [this](const QString& m) { showError(m); }, this);
  measurer_ = new SegmentMeasurer(session_, 400, this);
  surfaces_ = new SurfaceController(session_, views_->volumeView(), 500, this);
  recovery_ = new RecoveryController(session_, interactive_, this);
  snapshots_ = new RecoverySnapshots(session_, 500, this);
  autosaver_ = new Autosaver(session_, files_, this);
  theme_ = new ThemeController(this);
  applyPreferences(Preferences::load());
  connect(commands_->add(QStringLiteral("edit.preferences"), tr("&Preferences…"),
                         QKeySequence::Preferences),
          &QAction::triggered, this, [this] {
            PreferencesDialog* d = preferencesDialog();
            d->setPreferences(Preferences::load());
            d->show();
            d->raise();
          });

  connect(recovery_, &RecoveryController::failed, this, &EditingFeature::showError);
  connect(session_, &EditSession::statusMessage, this,
          [this](const QString& m) { window_->statusBar()->showMessage(m, 8000); });
  connect(session_, &EditSession::modifiedChanged, window_, &QWidget::setWindowModified);
  connect(session_, &EditSession::undoStateChanged, this, &EditingFeature::updateUndoActions);
  connect(session_, &EditSession::busyChanged, this, &EditingFeature::updateUndoActions);
  connect(files_, &LabelFileController::saved, this, [this] {
    if (closeAfterSave_) {
      closeAfterSave_ = false;
      window_->close();
    }
  });
  connect(files_, &LabelFileController::saveFailed, this, [this] { closeAfterSave_ = false; });
  corrections_ = new CorrectionRecorder(session_, ai_, files_, this);
  connect(corrections_, &CorrectionRecorder::failed, this, &EditingFeature::showError);
  connect(corrections_, &CorrectionRecorder::written, this, [this](const QString& path) {
    window_->statusBar()->showMessage(tr("Correction record written to %1").arg(path), 8000);
  });
  connect(commands_->add("file.exportCorrectionRecord", tr("Export correction record…")),
          &QAction::triggered, this, &EditingFeature::exportCorrectionRecord);

  connect(
      commands_->add(QStringLiteral("ai.boxEnd"), tr("AI box: the structure &ends on this slice"),
                     QKeySequence(QStringLiteral("T"))),
      &QAction::triggered, this, [this] { ai_->markBoxEnd(views_->state()->cursor()); });
  connect(commands_->add("edit.undo", tr("&Undo"), QKeySequence::Undo), &QAction::triggered,
          session_, &EditSession::undo);
  connect(commands_->add(
              "edit.redo", tr("&Redo"),
              QList<QKeySequence>{QKeySequence(tr("Ctrl+Y")), QKeySequence(tr("Ctrl+Shift+Z"))}),
          &QAction::triggered, session_, &EditSession::redo);
  QAction* volume = commands_->add("view.3d.showVolume", tr("Show volume rendering"));
  QAction* surfaces = commands_->add("view.3d.showSurfaces", tr("Show segment surfaces"));
  for (QAction* a : {volume, surfaces}) {
    a->setCheckable(true);
    a->setChecked(true);
  }
  connect(volume, &QAction::toggled, views_->volumeView(), &viewers::VolumeView::setVolumeVisible);
  connect(surfaces, &QAction::toggled, views_->volumeView(),
          &viewers::VolumeView::setSurfacesVisible);
  window_->statusBar()->addPermanentWidget(new JobProgressWidget(jobs_->runner(), window_));
  auto* recordProgress = new JobProgressWidget(corrections_->jobs(), window_);
  recordProgress->setObjectName(QStringLiteral("correctionRecordProgress"));
  window_->statusBar()->addPermanentWidget(recordProgress);
  updateUndoActions();
}

EditingFeature::~EditingFeature() {
  // A normal end: the user saved or chose to discard; only crashes leave a journal behind.
  session_->discardRecovery();
  // Tools and jobs refer to the session: they go first.
  delete corrections_;  // observes the session, the AI and the label files
  delete recovery_;
  delete surfaces_;
  delete measurer_;
  delete files_;
  delete operations_;
  delete ai_;
  delete tools_;
  delete jobs_;
  delete session_;
}

void EditingFeature::populateFileMenu(QMenu* file) {
  for (const char* id :
       {"file.newLabelMap", "file.openLabelMap", "file.saveLabelMap", "file.saveLabelMapAs",
        "file.importDicomSeg", "file.exportDicomSeg", "file.exportCorrectionRecord"}) {
    file->addAction(commands_->action(QString::fromLatin1(id)));
  }
}

void EditingFeature::exportCorrectionRecord() {
  const auto map = session_->activeMap();
  if (!map || !corrections_->recording(*map)) {
    showError(
        tr("No AI proposal was accepted into the active label map: there is no correction "
           "record to export."));
    return;
  }
  if (!interactive_) {
    return;
  }
  const QString path = QFileDialog::getSaveFileName(
      window_, tr("Export correction record"),
      QString::fromStdString(map->name()) + QStringLiteral(".correction.json"),
      tr("JSON files (*.json)"));
  if (!path.isEmpty()) {
    corrections_->write(*map, path.toStdString());
  }
}

void EditingFeature::populateAiMenu(QMenu* ai) {
  ai->addAction(commands_->action(QStringLiteral("ai.boxEnd")));
}

void EditingFeature::createEditMenu(QMenuBar* bar) {
  QMenu* edit = bar->addMenu(tr("&Edit"));
  edit->addAction(commands_->action("edit.undo"));
  edit->addAction(commands_->action("edit.redo"));
  edit->addSeparator();
  for (const char* id :
       {"tool.navigate", "tool.brush", "tool.eraser", "tool.regionGrow", "tool.lasso",
        "tool.scissors", "tool.brushSmaller", "tool.brushLarger", "tool.brushSphere"}) {
    edit->addAction(commands_->action(QString::fromLatin1(id)));
  }
  edit->addSeparator();
  edit->addAction(commands_->action(QStringLiteral("edit.preferences")));
}

PreferencesDialog* EditingFeature::preferencesDialog() {
  if (preferences_ == nullptr) {
    preferences_ = new PreferencesDialog(ai_, window_);
    for (const auto& [title, make] : preferencePages_) {
      preferences_->insertPage(make(), title);
    }
    connect(preferences_, &PreferencesDialog::applied, this, &EditingFeature::applyPreferences);
  }
  return preferences_;
}

void EditingFeature::addPreferencesPage(const QString& title, std::function<QWidget*()> make) {
  preferencePages_.emplace_back(title, std::move(make));
  if (preferences_ != nullptr) {
    preferences_->insertPage(preferencePages_.back().second(), title);
  }
}

void EditingFeature::applyPreferences(const Preferences& p) {
  session_->document().undoStack().setLimits(static_cast<std::size_t>(p.undoSteps),
                                             static_cast<std::size_t>(p.undoMegabytes) << 20);
  autosaver_->setIntervalMinutes(p.autosaveMinutes);
  theme_->setMode(p.theme);
  if (views_->volumeView() != nullptr) {
    views_->volumeView()->setQuality(p.volumeQuality);
  }
}

void EditingFeature::createSegmentMenu(QMenuBar* bar) {
  operations_->populateMenu(bar->addMenu(tr("&Segment")));
}

void EditingFeature::populate3dMenu(QMenu* render) {
  render->addSeparator();
  render->addAction(commands_->action("view.3d.showVolume"));
  render->addAction(commands_->action("view.3d.showSurfaces"));
}

QToolBar* EditingFeature::createToolBar(QWidget* parent) {
  QToolBar* bar = tools_->createToolBar(parent);
  bar->insertAction(bar->actions().value(0), commands_->action("edit.redo"));
  bar->insertAction(commands_->action("edit.redo"), commands_->action("edit.undo"));
  bar->insertSeparator(bar->actions().value(2));
  return bar;
}

QDockWidget* EditingFeature::createDock(QWidget* parent) {
  dock_ = new SegmentsDock(session_, jobs_, measurer_, interactive_, parent);
  auto* dock = new QDockWidget(tr("Segments"), parent);
  dock->setObjectName(QStringLiteral("segmentsDock"));
  dock->setWidget(dock_);
  return dock;
}

QDockWidget* EditingFeature::createAiDock(QWidget* parent) {
  aiDock_ = new AiDock(ai_, interactive_, parent);
  auto* dock = new QDockWidget(tr("AI"), parent);
  dock->setObjectName(QStringLiteral("aiDock"));
  dock->setWidget(aiDock_);
  return dock;
}

void EditingFeature::imageShown(const core::VolumePtr& image) {
  session_->setImage(image);
  files_->updateEnabled();
  if (image && !pendingLabels_.isEmpty()) {
    files_->openLabelMaps(pendingLabels_);
    pendingLabels_.clear();
  }
  recovery_->tryInstall();
}

void EditingFeature::frameShown(const core::VolumePtr& frame) {
  session_->setImageFrame(frame);
}

void EditingFeature::setPendingLabels(const QStringList& paths) {
  pendingLabels_ = paths;
}

QStringList EditingFeature::unsavedMapNames() const {
  QStringList names;
  for (const auto& map : session_->document().labelMaps()) {
    if (session_->isModified(*map)) {
      names << QString::fromStdString(map->name());
    }
  }
  return names;
}

bool EditingFeature::confirmDiscard() {
  if (!interactive_ || !session_->hasUnsavedChanges()) {
    return true;
  }
  return QMessageBox::question(window_, tr("Unsaved label map"),
                               tr("Unsaved changes in: %1. Discard them?")
                                   .arg(unsavedMapNames().join(QStringLiteral(", "))),
                               QMessageBox::Discard | QMessageBox::Cancel,
                               QMessageBox::Cancel) == QMessageBox::Discard;
}

bool EditingFeature::confirmClose() {
  if (!interactive_ || !session_->hasUnsavedChanges()) {
    return true;
  }
  const QStringList names = unsavedMapNames();
  const auto answer = QMessageBox::question(
      window_, tr("Unsaved label map"),
      tr("Unsaved changes in: %1. Save %2 before closing?")
          .arg(names.join(QStringLiteral(", ")), names.front()),
      QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
  if (answer == QMessageBox::Discard) {
    return true;
  }
  if (answer == QMessageBox::Save) {
    // One map per save; closing again asks about the next unsaved one.
    const auto& maps = session_->document().labelMaps();
    for (std::size_t i = 0; i < maps.size(); ++i) {
      if (session_->isModified(*maps[i])) {
        session_->setActiveLabelMap(static_cast<int>(i));
        break;
      }
    }
    closeAfterSave_ = files_->save();
  }
  return false;
}

bool EditingFeature::settled() const {
  return pendingLabels_.isEmpty() && !jobs_->runner()->busy() && !recovery_->pending() &&
         !surfaces_->pending() && !measurer_->pending();
}

void EditingFeature::showError(const QString& message) {
  if (interactive_) {
    QMessageBox::warning(window_, tr("Delineate"), message);
  } else {
    std::fprintf(stderr, "delineate: %s\n", message.toLocal8Bit().constData());
  }
  window_->statusBar()->showMessage(message.section(QLatin1Char('\n'), 0, 0), 10000);
  Q_EMIT errorShown(message);
}

void EditingFeature::updateUndoActions() {
  QAction* undo = commands_->action("edit.undo");
  QAction* redo = commands_->action("edit.redo");
  const core::UndoStack& stack = session_->document().undoStack();
  if (session_->busy()) {
    undo->setEnabled(true);
    undo->setText(tr("&Undo (cancel %1)").arg(session_->busyTitle()));
  } else {
    undo->setEnabled(stack.canUndo());
    undo->setText(stack.canUndo() ? tr("&Undo %1").arg(QString::fromStdString(stack.undoText()))
                                  : tr("&Undo"));
  }
  redo->setEnabled(!session_->busy() && stack.canRedo());
  redo->setText(stack.canRedo() ? tr("&Redo %1").arg(QString::fromStdString(stack.redoText()))
                                : tr("&Redo"));
}

}  // namespace delineate::app
