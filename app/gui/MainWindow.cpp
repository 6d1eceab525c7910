#include "app/gui/MainWindow.h"

#include <cmath>

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCheckBox>
#include <QCloseEvent>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QToolBar>
#include <QToolButton>
#include <algorithm>
#include <cstdio>

#include "app/gui/CommandRegistry.h"
#include "app/gui/annotator/AnnotatorLoopFeature.h"
#include "app/gui/compare/CompareFeature.h"
#include "app/gui/compare/DatasetEvaluationDialog.h"
#include "app/gui/compare/EvaluationCaseOpener.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/frames/FramesFeature.h"
#include "app/gui/mammo/MammoFeature.h"
#include "app/gui/mammo/MammoFindingsController.h"
#include "app/gui/pacs/PacsFeature.h"
#include "app/gui/readers/ReadersFeature.h"
#include "app/gui/reading/SeriesBrowser.h"
#include "app/gui/reading/SeriesListController.h"
#include "app/gui/reading/StudyInfoPanel.h"
#include "app/gui/reports/ReportFeature.h"
#include "app/gui/shell/JobProgressWidget.h"
#include "app/gui/shell/JobRunner.h"
#include "app/gui/shell/ShortcutsDialog.h"
#include "app/gui/upload/UploadBadge.h"
#include "app/gui/upload/UploadFeature.h"
#include "core/io/DicomSeriesLoader.h"
#include "core/io/PathLoader.h"
#include "core/sample/SampleWriter.h"
#include "viewers/SliceView.h"
#include "viewers/ViewLayout.h"
#include "viewers/ViewState.h"
#include "viewers/VolumePresets.h"
#include "viewers/VolumeView.h"
#include "viewers/WindowLevel.h"

namespace delineate::app {

namespace {

// "Soft tissue" -> "softTissue", for command ids.
QString camelId(const std::string& name) {
  QString out;
  bool upper = false;
  for (QChar c : QString::fromStdString(name)) {
    if (!c.isLetterOrNumber()) {
      upper = !out.isEmpty();
      continue;
    }
    out += out.isEmpty() ? c.toLower() : upper ? c.toUpper() : c;
    upper = false;
  }
  return out;
}

}  // namespace

MainWindow::MainWindow(MainWindowOptions options, QWidget* parent)
    : QMainWindow(parent), options_(options) {
  setWindowTitle(QStringLiteral("Delineate[*]"));
  setAcceptDrops(true);
  commands_ = new CommandRegistry(this);
  auto* centre = new QStackedWidget(this);
  views_ = new viewers::ViewLayout(centre);
  centre->addWidget(views_);
  setCentralWidget(centre);
  jobs_ = new JobRunner(this);
  mammo_ = new MammoFeature(this, commands_, jobs_, centre, options_.interactive);
  editing_ = new EditingFeature(this, commands_, views_, options_.interactive);
  mammo_->findings()->setAi(editing_->ai());
  compare_ = new CompareFeature(this, commands_, views_, editing_, options_.interactive);
  readers_ = new ReadersFeature(this, commands_, views_, editing_);
  caseOpener_ = new EvaluationCaseOpener(this);
  reports_ = new ReportFeature(this, commands_, editing_, mammo_, options_.interactive);
  connect(reports_, &ReportFeature::failed, this, &MainWindow::loadFailed);
  annotatorLoop_ = new AnnotatorLoopFeature(this, commands_);
  upload_ = new UploadFeature(this, commands_, options_.interactive);
  pacs_ = new PacsFeature(this, commands_, editing_);
  connectPacs();
  connect(caseOpener_, &EvaluationCaseOpener::failed, this, &MainWindow::reportError);
  frames_ = new FramesFeature(this, commands_, views_, editing_);
  connect(frames_, &FramesFeature::frameShown, this,
          [this](const core::VolumePtr& frame) { volume_ = frame; });
  createDocks();
  createStatusBar();
  createActions();
  connect(views_, &viewers::ViewLayout::pointerMoved, this, &MainWindow::showPointer);
  connect(views_, &viewers::ViewLayout::layoutChanged, this, [this](const QString& name) {
    if (QAction* a = action(QStringLiteral("view.layout.") + name)) {
      a->setChecked(true);
    }
  });
  browser_->setRecent(recentPaths());
}

MainWindow::~MainWindow() {
  delete reports_;        // its measurement dock reads the editing session
  delete annotatorLoop_;  // reads the editing session and the AI backends
  delete upload_;         // its jobs hold the AI backends
  delete pacs_;           // its send job reads the editing session
  delete caseOpener_;
  delete compare_;  // before the editing session it reads
  delete readers_;
  delete editing_;  // before the views it draws into
  jobs_->cancel();
  jobs_->waitForIdle();
}

QAction* MainWindow::addCommand(const QString& id, const QString& text,
                                const QKeySequence& shortcut) {
  return commands_->add(id, text, shortcut);
}

QAction* MainWindow::action(const QString& commandId) const {
  return commands_->action(commandId);
}

QStringList MainWindow::commandIds() const {
  return commands_->ids();
}

bool MainWindow::editingSettled() const {
  return editing_->settled();
}

DatasetEvaluationDialog* MainWindow::datasetEvaluation() {
  if (datasetEvaluation_ == nullptr) {
    datasetEvaluation_ = new DatasetEvaluationDialog(this, options_.interactive);
    connect(datasetEvaluation_, &DatasetEvaluationDialog::caseActivated, this,
            [this](const QString& reference, const QString& test, const QString& label, int value) {
              EvaluationCaseOpener::Case c;
              c.referencePath = reference;
              c.testPath = test;
              c.labelName = label;
              c.labelValue = value;
              c.toleranceMm = datasetEvaluation_->toleranceSpin()->value();
              c.resample = datasetEvaluation_->resampleCheck()->isChecked();
              caseOpener_->open(c);
            });
  }
  return datasetEvaluation_;
}

bool MainWindow::confirmDiscard() {
  return editing_->confirmDiscard();
}

void MainWindow::createActions() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(addCommand("file.open", tr("&Open file…"), QKeySequence::Open));
  file->addAction(addCommand("file.openFolder", tr("Open &folder…"), QKeySequence(tr("Ctrl+D"))));
  file->addAction(addCommand("file.openSample", tr("Open &sample brain MR")));
  reports_->populateFileMenu(file);
  file->addSeparator();
  editing_->populateFileMenu(file);
  pacs_->populateFileMenu(file);
  file->addSeparator();
  file->addAction(addCommand("file.quit", tr("&Quit"), QKeySequence::Quit));
  connect(action("file.open"), &QAction::triggered, this, &MainWindow::chooseFile);
  connect(action("file.openFolder"), &QAction::triggered, this, &MainWindow::chooseFolder);
  connect(action("file.openSample"), &QAction::triggered, this, &MainWindow::openSample);
  connect(action("file.quit"), &QAction::triggered, this, &QWidget::close);
  editing_->createEditMenu(menuBar());

  QMenu* view = menuBar()->addMenu(tr("&View"));
  layoutGroup_ = new QActionGroup(this);
  const char* shortcuts[3] = {"Ctrl+1", "Ctrl+2", "Ctrl+3"};
  int n = 0;
  for (const QString& name : viewers::ViewLayout::layoutNames()) {
    QAction* a = addCommand(QStringLiteral("view.layout.") + name, tr("Layout %1").arg(name),
                            QKeySequence(QString::fromLatin1(shortcuts[n++])));
    a->setCheckable(true);
    a->setChecked(name == views_->layoutName());
    layoutGroup_->addAction(a);
    view->addAction(a);
    connect(a, &QAction::triggered, this, [this, name] { setLayoutCommand(name); });
  }
  view->addSeparator();
  view->addAction(addCommand("view.reset", tr("&Reset views"), QKeySequence(tr("Ctrl+R"))));
  view->addSeparator();
  frames_->populateMenu(view);
  view->addSeparator();
  connect(action("view.reset"), &QAction::triggered, views_, &viewers::ViewLayout::resetViews);
  view->addSeparator();
  view->addAction(addCommand("view.toggleBrowser", tr("Series browser")));
  view->addAction(addCommand("view.toggleInfo", tr("Study information")));

  windowMenu_ = menuBar()->addMenu(tr("&Window/Level"));
  rebuildWindowMenu();

  QMenu* render = menuBar()->addMenu(tr("&3D"));
  for (viewers::VolumePreset p : viewers::allVolumePresets()) {
    QAction* a = addCommand(QStringLiteral("view.3d.") + QString::fromLatin1(viewers::presetId(p)),
                            QString::fromLatin1(viewers::toString(p)));
    render->addAction(a);
    connect(a, &QAction::triggered, this, [this, p] { views_->volumeView()->setPreset(p); });
  }
  render->addAction(addCommand("view.3d.resetCamera", tr("Reset 3D camera")));
  connect(action("view.3d.resetCamera"), &QAction::triggered, views_->volumeView(),
          &viewers::VolumeView::resetCamera);
  editing_->populate3dMenu(render);
  editing_->createSegmentMenu(menuBar());
  QMenu* analysis = menuBar()->addMenu(tr("&Analysis"));
  compare_->populateMenu(analysis);
  readers_->populateMenu(analysis);
  analysis->addSeparator();
  analysis->addAction(addCommand("analysis.evaluateDataset", tr("Evaluate &Dataset…")));
  connect(action("analysis.evaluateDataset"), &QAction::triggered, this, [this] {
    DatasetEvaluationDialog* dialog = datasetEvaluation();
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
  });

  QMenu* aiMenu = menuBar()->addMenu(tr("A&I"));
  editing_->populateAiMenu(aiMenu);
  aiMenu->addSeparator();
  annotatorLoop_->populateMenu(aiMenu);
  aiMenu->addSeparator();
  upload_->populateMenu(aiMenu);

  QMenu* mammography = menuBar()->addMenu(tr("&Mammography"));
  mammo_->populateMenu(mammography);
  reports_->populateMenu(menuBar()->addMenu(tr("&Report")));

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  help->addAction(
      addCommand("help.shortcuts", tr("&Keyboard shortcuts…"), QKeySequence::HelpContents));
  connect(action("help.shortcuts"), &QAction::triggered, this, [this] {
    if (shortcuts_ == nullptr) {
      shortcuts_ = new ShortcutsDialog(commands_, this);
    }
    shortcuts_->refresh();
    shortcuts_->show();
    shortcuts_->raise();
  });
  help->addAction(addCommand("help.about", tr("&About Delineate")));
  connect(action("help.about"), &QAction::triggered, this, [this] {
    QMessageBox::about(this, tr("About Delineate"),
                       tr("Delineate %1\nAnnotation and review workstation for medical images.\n"
                          "Not for diagnostic use.")
                           .arg(QApplication::applicationVersion()));
  });

  QToolBar* tools = addToolBar(tr("Main"));
  tools->setObjectName(QStringLiteral("mainToolBar"));
  tools->addAction(action("file.open"));
  tools->addAction(action("file.openFolder"));
  tools->addSeparator();
  for (const QString& name : viewers::ViewLayout::layoutNames()) {
    tools->addAction(action(QStringLiteral("view.layout.") + name));
  }
  tools->addAction(action("view.reset"));
  auto* wl = new QToolButton(tools);
  wl->setText(tr("Window"));
  wl->setMenu(windowMenu_);
  wl->setPopupMode(QToolButton::InstantPopup);
  tools->addWidget(wl);
  auto* vr = new QToolButton(tools);
  vr->setText(tr("3D preset"));
  vr->setMenu(render);
  vr->setPopupMode(QToolButton::InstantPopup);
  tools->addWidget(vr);
  addToolBar(editing_->createToolBar(this));
}

void MainWindow::createDocks() {
  browser_ = new SeriesBrowser(this);
  seriesList_ = new SeriesListController(browser_, this);
  auto* browserDock = new QDockWidget(tr("Series"), this);
  browserDock->setObjectName(QStringLiteral("seriesDock"));
  browserDock->setWidget(browser_);
  addDockWidget(Qt::LeftDockWidgetArea, browserDock);
  connect(browser_, &SeriesBrowser::openFileRequested, this, &MainWindow::chooseFile);
  connect(browser_, &SeriesBrowser::openFolderRequested, this, &MainWindow::chooseFolder);
  connect(browser_, &SeriesBrowser::openPathRequested, this, &MainWindow::openPath);
  connect(browser_, &SeriesBrowser::seriesActivated, this, &MainWindow::loadSeries);

  info_ = new StudyInfoPanel(this);
  auto* infoDock = new QDockWidget(tr("Study information"), this);
  infoDock->setObjectName(QStringLiteral("infoDock"));
  infoDock->setWidget(info_);
  addDockWidget(Qt::LeftDockWidgetArea, infoDock);
  // Segments share the lower left with the study information (in front), keeping the views wide.
  QDockWidget* segmentsDock = editing_->createDock(this);
  tabifyDockWidget(infoDock, segmentsDock);
  QDockWidget* aiDock = editing_->createAiDock(this);
  tabifyDockWidget(segmentsDock, aiDock);
  segmentsDock->raise();
  resizeDocks({browserDock}, {260}, Qt::Horizontal);

  // Bound once the actions exist.
  QMetaObject::invokeMethod(
      this,
      [this, browserDock, infoDock] {
        if (QAction* a = action("view.toggleBrowser")) {
          a->setCheckable(true);
          a->setChecked(true);
          connect(a, &QAction::toggled, browserDock, &QWidget::setVisible);
          connect(browserDock, &QDockWidget::visibilityChanged, a, &QAction::setChecked);
        }
        if (QAction* a = action("view.toggleInfo")) {
          a->setCheckable(true);
          a->setChecked(true);
          connect(a, &QAction::toggled, infoDock, &QWidget::setVisible);
        }
      },
      Qt::QueuedConnection);
}

void MainWindow::createStatusBar() {
  pointer_ = new QLabel(this);
  pointer_->setObjectName(QStringLiteral("pointerLabel"));
  pointer_->setMinimumWidth(420);
  statusBar()->addWidget(pointer_, 1);
  statusBar()->addPermanentWidget(new JobProgressWidget(jobs_, this));
  statusBar()->addPermanentWidget(upload_->badge());
}

void MainWindow::rebuildWindowMenu() {
  for (const QString& id : windowCommandIds_) {
    commands_->remove(id);
  }
  windowCommandIds_.clear();
  windowMenu_->clear();
  if (!volume_) {
    windowMenu_->addAction(tr("(no image)"))->setEnabled(false);
    return;
  }
  int n = 0;
  for (const core::WindowPreset& p : viewers::windowPresets(*volume_)) {
    const QString id = QStringLiteral("view.window.") + camelId(p.name);
    if (commands_->action(id) != nullptr) {
      continue;
    }
    QAction* a =
        addCommand(id,
                   tr("%1  (W %2, L %3)")
                       .arg(QString::fromStdString(p.name))
                       .arg(p.width, 0, 'f', 0)
                       .arg(p.center, 0, 'f', 0),
                   n < 9 ? QKeySequence(QStringLiteral("Alt+%1").arg(n + 1)) : QKeySequence());
    ++n;
    windowCommandIds_ << id;
    windowMenu_->addAction(a);
    const viewers::WindowLevel wl{p.center, p.width};
    connect(a, &QAction::triggered, this, [this, wl] { views_->state()->setWindowLevel(wl); });
  }
}

void MainWindow::setLayoutCommand(const QString& name) {
  views_->setLayoutName(name);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!editing_->confirmClose()) {
    event->ignore();
    return;
  }
  jobs_->cancel();
  seriesList_->cancel();
  QMainWindow::closeEvent(event);
}

QString MainWindow::pointerText() const {
  return pointer_->text();
}

void MainWindow::showPointer(const viewers::PointerInfo& p) {
  QString text = QStringLiteral("LPS (%1, %2, %3) mm")
                     .arg(p.world[0], 0, 'f', 1)
                     .arg(p.world[1], 0, 'f', 1)
                     .arg(p.world[2], 0, 'f', 1);
  if (p.inside) {
    text += QStringLiteral("   voxel [%1, %2, %3]   %4")
                .arg(p.voxel[0])
                .arg(p.voxel[1])
                .arg(p.voxel[2])
                .arg(QString::fromStdString(p.valueText()));
  } else {
    text += tr("   outside the image");
  }
  pointer_->setText(text);
}

}  // namespace delineate::app
