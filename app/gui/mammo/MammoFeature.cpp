#include "app/gui/mammo/MammoFeature.h"

#include <QAction>
#include <QActionGroup>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QToolBar>
#include <cstdio>
#include <set>

#include "app/gui/CommandRegistry.h"
#include "app/gui/mammo/MammoFindingsController.h"
#include "app/gui/mammo/MammoReportPanel.h"
#include "app/gui/mammo/MammoStackCommands.h"
#include "app/gui/mammo/MammoToolBar.h"
#include "app/gui/shell/JobRunner.h"
#include "core/Error.h"
#include "core/Text.h"
#include "core/report/MammoCadSr.h"
#include "core/sample/SampleWriter.h"
#include "viewers/mammo/MammoReadingView.h"
#include "viewers/mammo/MammoViewport.h"

namespace delineate::app {

namespace cm = core::mammo;

namespace {

// The findings of the Mammography CAD SRs found with the images that report on `study` (read on
// the loading thread); one that cannot be read, or says something it could not place, is added to
// the problems by name.
std::optional<cm::StudyFindings> cadFindingsOf(cm::MammoStudyFiles& files,
                                               const std::string& study) {
  std::vector<cm::StudyFindings> parts;
  for (const std::string& file : files.cadReports) {
    try {
      core::report::CadSrContent cad = core::report::readMammographyCadSr(file);
      if (cad.studyInstanceUid != study) {
        continue;  // a prior's CAD report
      }
      parts.push_back(std::move(cad.findings));
      files.problems.insert(files.problems.end(), cad.warnings.begin(), cad.warnings.end());
    } catch (const core::Error& e) {
      files.problems.push_back(file + ": " + e.detail());
    }
  }
  if (parts.empty()) {
    return std::nullopt;
  }
  return core::report::mergeCadFindings(parts);
}

QString dateText(const std::string& yyyymmdd) {
  return QString::fromStdString(core::isoDateOfDicom(yyyymmdd));
}

// The views of the current and prior study: what any layout of this study can show.
std::vector<std::size_t> viewsToLoad(const cm::MammoStudyFiles& files, const cm::Hanging& h) {
  std::vector<std::size_t> first, rest;
  std::set<std::size_t> shown;
  for (const auto& v : h.viewports) {
    if (v.image) {
      shown.insert(*v.image);
      first.push_back(*v.image);
    }
  }
  for (std::size_t i = 0; i < files.views.size(); ++i) {
    const auto& study = files.views[i].studyUid;
    if (!shown.count(i) && (study == h.currentStudy || study == h.priorStudy)) {
      rest.push_back(i);
    }
  }
  first.insert(first.end(), rest.begin(), rest.end());
  return first;
}

}  // namespace

MammoFeature::MammoFeature(QMainWindow* window, CommandRegistry* commands, JobRunner* jobs,
                           QStackedWidget* centre, bool interactive)
    : QObject(window),
      window_(window),
      commands_(commands),
      jobs_(jobs),
      centre_(centre),
      interactive_(interactive),
      view_(new viewers::MammoReadingView(centre)) {
  view_->setObjectName(QStringLiteral("mammoReadingView"));
  centre_->addWidget(view_);
  protocols_ = cm::builtinHangingProtocols();
  const QString site = QSettings().value(QStringLiteral("mammo/protocolsFile")).toString();
  if (!site.isEmpty()) {
    try {
      protocols_.merge(cm::readHangingProtocols(site.toStdString()));
    } catch (const core::Error& e) {
      // The built-in protocols still work; the site's file is named with its line.
      QMetaObject::invokeMethod(
          this, [this, m = QString::fromUtf8(e.what())] { reportError(m); }, Qt::QueuedConnection);
    }
  }
  createCommands();
  stacks_ = new MammoStackCommands(view_, commands_, this);
  findings_ = new MammoFindingsController(this, commands_, jobs_, interactive_);
  findings_->createListDock(window_);
  reportPanel_ = new MammoReportPanel(this, interactive_);
  reportDock_ = new QDockWidget(tr("Report"), window_);
  reportDock_->setObjectName(QStringLiteral("mammoReportDock"));
  reportDock_->setWidget(reportPanel_);
  window_->addDockWidget(Qt::RightDockWidgetArea, reportDock_);
  reportDock_->hide();
  connect(commands_->add(QStringLiteral("mammo.report"), tr("&Report…")), &QAction::triggered, this,
          [this] {
            reportDock_->show();
            reportDock_->raise();
            // Room for the table without taking the images' half of the window.
            window_->resizeDocks({reportDock_}, {std::max(420, window_->width() / 3)},
                                 Qt::Horizontal);
          });
  toolBars_ = createMammoToolBars(window_, this, commands_);
  for (QToolBar* bar : toolBars_) {
    bar->hide();
  }
  connect(view_, &viewers::MammoReadingView::layoutStepRequested, this, &MammoFeature::stepLayout);
  connect(view_, &viewers::MammoReadingView::pointerMoved, this,
          [this](const QString& text) { window_->statusBar()->showMessage(text); });
}

MammoFeature::~MammoFeature() = default;

void MammoFeature::createCommands() {
  auto add = [this](const char* id, const QString& text) {
    QAction* a = commands_->add(QString::fromLatin1(id), text);
    return a;
  };
  connect(add("mammo.open", tr("Open &mammography study…")), &QAction::triggered, this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(
        window_, tr("Open a mammography study (its folder, or a folder holding it and the prior)"));
    if (!dir.isEmpty()) {
      open({dir});
    }
  });
  connect(add("mammo.openSample", tr("Open sample &mammography study")), &QAction::triggered, this,
          [this] { openSample(); });
  connect(add("mammo.close", tr("Close the reading view")), &QAction::triggered, this,
          &MammoFeature::close);
  connect(add("mammo.nextLayout", tr("Next layout")), &QAction::triggered, this,
          [this] { stepLayout(1); });
  connect(add("mammo.previousLayout", tr("Previous layout")), &QAction::triggered, this,
          [this] { stepLayout(-1); });
  connect(add("mammo.fit", tr("Fit (F)")), &QAction::triggered, view_->state(),
          &viewers::MammoReadingState::fit);
  connect(add("mammo.oneToOne", tr("1:1 pixels (1)")), &QAction::triggered, view_,
          &viewers::MammoReadingView::zoomOneToOne);
  QAction* invert = add("mammo.invert", tr("Invert (I)"));
  invert->setCheckable(true);
  connect(invert, &QAction::toggled, view_->state(), &viewers::MammoReadingState::setInverted);
  connect(view_->state(), &viewers::MammoReadingState::displayChanged, invert,
          [this, invert] { invert->setChecked(view_->state()->inverted()); });
  auto* tools = new QActionGroup(this);
  const struct {
    const char* id;
    QString text;
    viewers::MammoTool tool;
  } toolList[] = {{"mammo.tool.pan", tr("Pan (P)"), viewers::MammoTool::Pan},
                  {"mammo.tool.window", tr("Window/level (W)"), viewers::MammoTool::WindowLevel},
                  {"mammo.tool.magnifier", tr("Magnifier (M)"), viewers::MammoTool::Magnifier},
                  {"mammo.tool.ruler", tr("Ruler (R)"), viewers::MammoTool::Ruler},
                  {"mammo.tool.ellipse", tr("Ellipse (E)"), viewers::MammoTool::Ellipse}};
  for (const auto& t : toolList) {
    QAction* a = add(t.id, t.text);
    a->setCheckable(true);
    a->setChecked(t.tool == viewers::MammoTool::Pan);
    tools->addAction(a);
    const viewers::MammoTool tool = t.tool;
    connect(a, &QAction::triggered, view_->state(),
            [this, tool] { view_->state()->setTool(tool); });
    connect(view_->state(), &viewers::MammoReadingState::toolChanged, a,
            [a, tool](viewers::MammoTool now) { a->setChecked(now == tool); });
  }
  auto* layouts = new QActionGroup(this);
  for (const auto& p : protocols_.protocols) {
    const QString id = QString::fromStdString(p.id);
    QAction* a = commands_->add(QStringLiteral("mammo.layout.") + id,
                                QString::fromStdString(p.name.empty() ? p.id : p.name));
    a->setCheckable(true);
    layouts->addAction(a);
    connect(a, &QAction::triggered, this, [this, id] { setLayout(id); });
  }
  connect(this, &MammoFeature::layoutChanged, this, [this](const QString& id) {
    if (QAction* a = commands_->action(QStringLiteral("mammo.layout.") + id)) {
      a->setChecked(true);
    }
  });
}

void MammoFeature::populateMenu(QMenu* menu) {
  menu->addAction(commands_->action("mammo.open"));
  menu->addAction(commands_->action("mammo.openSample"));
  menu->addAction(commands_->action("mammo.close"));
  menu->addSeparator();
  layoutMenu_ = menu->addMenu(tr("Hanging protocol"));
  for (const auto& p : protocols_.protocols) {
    layoutMenu_->addAction(
        commands_->action(QStringLiteral("mammo.layout.") + QString::fromStdString(p.id)));
  }
  menu->addAction(commands_->action("mammo.nextLayout"));
  menu->addAction(commands_->action("mammo.previousLayout"));
  menu->addSeparator();
  for (const char* id :
       {"mammo.fit", "mammo.oneToOne", "mammo.invert", "mammo.tool.pan", "mammo.tool.window",
        "mammo.tool.magnifier", "mammo.tool.ruler", "mammo.tool.ellipse"}) {
    menu->addAction(commands_->action(QString::fromLatin1(id)));
  }
  stacks_->populateMenu(menu);
  menu->addSeparator();
  findings_->populateMenu(menu);
  menu->addSeparator();
  menu->addAction(commands_->action("mammo.report"));
}

bool MammoFeature::active() const {
  return centre_->currentWidget() == view_;
}

bool MammoFeature::open(const QStringList& paths, const QString& layoutId) {
  const QString id =
      layoutId.isEmpty()
          ? QString::fromStdString(protocols_.sequence.empty() ? protocols_.protocols.front().id
                                                               : protocols_.sequence.front())
          : layoutId;
  if (protocols_.find(id.toStdString()) == nullptr) {
    reportError(tr("There is no hanging protocol \"%1\".").arg(id));
    return false;
  }
  layoutId_ = id;
  paths_ = paths;
  const unsigned generation = ++generation_;
  images_.clear();
  files_ = {};
  hanging_ = {};
  loadProblems_.clear();
  findings_->clear();
  reportPanel_->clear();
  loading_ = true;
  enterReadingMode();
  view_->setFocus();
  view_->setNotes({tr("Reading %1…").arg(paths.join(QStringLiteral(", ")))});
  Q_EMIT layoutChanged(layoutId_);

  std::vector<std::filesystem::path> list;
  for (const QString& p : paths) {
    list.emplace_back(p.toStdString());
  }
  const cm::HangingProtocol protocol = *protocols_.find(id.toStdString());
  const cm::PriorRule rule = protocols_.priorRule();
  struct Result {
    std::vector<std::string> problems;
  };
  jobs_->run<Result>(
      tr("Opening the mammography study"),
      [this, list, protocol, rule, generation](core::ProgressSink& progress) {
        core::SubProgress scanning(progress, 0, 0.15);
        cm::MammoStudyFiles files = cm::scanMammoFiles(list, scanning);
        if (files.views.empty()) {
          std::string what = "no mammography (DX/MG) images";
          for (const auto& p : files.problems) {
            what += "; " + p;
          }
          throw core::Error(core::ErrorKind::InvalidInput, list.front().string(), what);
        }
        const cm::Hanging hanging = cm::hang(protocol, files.views, {}, rule);
        const std::vector<std::size_t> wanted = viewsToLoad(files, hanging);
        const std::optional<cm::StudyFindings> cad = cadFindingsOf(files, hanging.currentStudy);
        QMetaObject::invokeMethod(
            this,
            [this, files, cad, generation] {
              if (generation == generation_) {
                files_ = files;
                applyHanging();
                if (cad) {
                  findings_->setFindings(*cad);
                }
                Q_EMIT opened();
              }
            },
            Qt::QueuedConnection);
        core::SubProgress loading(progress, 0.15, 1.0);
        Result r;
        r.problems = cm::loadMammoImages(
            files, wanted, loading, [this, generation](const cm::LoadedMammoImage& image) {
              QMetaObject::invokeMethod(
                  this, [this, image, generation] { imageArrived(image, generation); },
                  Qt::QueuedConnection);
            });
        return r;
      },
      [this, generation](Result r) {
        if (generation != generation_) {
          return;
        }
        loading_ = false;
        loadProblems_ = r.problems;
        view_->setNotes(notesWithProblems());
        Q_EMIT loaded();
      },
      [this, generation](const QString& error, bool cancelled) {
        if (generation != generation_) {
          return;
        }
        loading_ = false;
        if (cancelled) {
          view_->setNotes(notesWithProblems() << tr("Loading cancelled: some views are empty."));
          return;
        }
        view_->setNotes({tr("Cannot open the mammography study: %1").arg(error)});
        reportError(tr("Cannot open the mammography study:\n%1").arg(error));
      });
  return true;
}

bool MammoFeature::openSample(const QString& layoutId) {
  if (!layoutId.isEmpty() && protocols_.find(layoutId.toStdString()) == nullptr) {
    reportError(tr("There is no hanging protocol \"%1\".").arg(layoutId));
    return false;
  }
  // Written once into the user's cache (seconds), then reused: off the GUI thread either way.
  jobs_->run<QString>(
      tr("Preparing the sample mammography study"),
      [](core::ProgressSink& progress) {
        return QString::fromStdString(core::sample::ensureDefaultSample(progress).string());
      },
      [this, layoutId](QString root) {
        open({root + QStringLiteral("/mammo/screening-2026"),
              root + QStringLiteral("/mammo/screening-2024")},
             layoutId);
      },
      [this](const QString& error, bool cancelled) {
        if (!cancelled) {
          reportError(tr("Cannot write the sample data:\n%1").arg(error));
        }
      });
  return true;
}

void MammoFeature::enterReadingMode() {
  if (!active()) {
    hiddenForReading_.clear();
    const auto widgets = window_->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly);
    for (QWidget* w : widgets) {
      if ((qobject_cast<QDockWidget*>(w) != nullptr || qobject_cast<QToolBar*>(w) != nullptr) &&
          !toolBars_.contains(qobject_cast<QToolBar*>(w)) && w->isVisible()) {
        hiddenForReading_.append(w);
        w->hide();
      }
    }
  }
  centre_->setCurrentWidget(view_);
  for (QToolBar* bar : toolBars_) {
    bar->show();
  }
}

void MammoFeature::close() {
  if (!active()) {
    return;
  }
  centre_->setCurrentIndex(0);
  for (QToolBar* bar : toolBars_) {
    bar->hide();
  }
  reportDock_->hide();
  for (QWidget* w : hiddenForReading_) {
    w->show();
  }
  hiddenForReading_.clear();
}

QString MammoFeature::priorLayout() const {
  const auto showsPrior = [](const cm::HangingProtocol* p) {
    return p != nullptr && std::any_of(p->viewports.begin(), p->viewports.end(), [](const auto& v) {
             return v.study == cm::StudyChoice::Prior;
           });
  };
  for (const std::string& id : protocols_.sequence) {
    if (showsPrior(protocols_.find(id))) {
      return QString::fromStdString(id);
    }
  }
  for (const cm::HangingProtocol& p : protocols_.protocols) {
    if (showsPrior(&p)) {
      return QString::fromStdString(p.id);
    }
  }
  return {};
}

bool MammoFeature::setLayout(const QString& id) {
  if (protocols_.find(id.toStdString()) == nullptr) {
    return false;
  }
  layoutId_ = id;
  if (!files_.views.empty()) {
    applyHanging();
  }
  Q_EMIT layoutChanged(id);
  return true;
}

void MammoFeature::stepLayout(int delta) {
  const auto& seq = protocols_.sequence;
  if (seq.empty()) {
    return;
  }
  const auto it = std::find(seq.begin(), seq.end(), layoutId_.toStdString());
  const int at = it == seq.end() ? -delta : static_cast<int>(it - seq.begin());
  const int n = static_cast<int>(seq.size());
  // Protocols that need a tomosynthesis stack are skipped for a study that has none.
  for (int step = 1; step <= n; ++step) {
    const std::string& id = seq[static_cast<std::size_t>(((at + step * delta) % n + n) % n)];
    const cm::HangingProtocol* p = protocols_.find(id);
    if (p != nullptr && cm::usableFor(*p, files_.views)) {
      setLayout(QString::fromStdString(id));
      return;
    }
  }
}

const viewers::MammoImage* MammoFeature::image(std::size_t view) const {
  const auto it = images_.find(view);
  return it == images_.end() ? nullptr : &it->second;
}

bool MammoFeature::settled() const {
  if (loading_ || files_.views.empty() || jobs_->busy()) {
    return false;
  }
  for (int i = 0; i < view_->viewportCount(); ++i) {
    const auto* v = view_->viewport(i);
    if (v->image() && !v->showsFullQuality()) {
      return false;
    }
  }
  return true;
}

void MammoFeature::applyHanging() {
  const cm::HangingProtocol& protocol = *protocols_.find(layoutId_.toStdString());
  const std::string current = hanging_.currentStudy;
  hanging_ = cm::hang(protocol, files_.views, current, protocols_.priorRule());
  std::vector<cm::ChestWall> walls;
  for (const auto& v : hanging_.viewports) {
    walls.push_back(v.chestWall);
  }
  view_->setGrid(protocol.rows, protocol.columns, walls);
  for (std::size_t i = 0; i < hanging_.viewports.size(); ++i) {
    viewers::MammoViewport* port = view_->viewport(static_cast<int>(i));
    const cm::ViewportSpec& spec = protocol.viewports[i];
    const auto& hv = hanging_.viewports[i];
    const QString wanted = QStringLiteral("%1 %2%3").arg(
        QString::fromLatin1(cm::toString(spec.laterality)),
        QString::fromLatin1(cm::toString(spec.view)),
        spec.study == cm::StudyChoice::Prior ? tr(" (prior)") : QString());
    if (!hv.image) {
      port->setEmptyText(tr("%1: no image").arg(wanted));
      continue;
    }
    if (const viewers::MammoImage* img = image(*hv.image)) {
      port->setImage(*img);
    } else {
      port->setEmptyText(tr("%1: loading…").arg(wanted));
    }
  }
  findings_->showOn(view_, hanging_);
  view_->setNotes(notesWithProblems());
}

void MammoFeature::imageArrived(const cm::LoadedMammoImage& arrived, unsigned generation) {
  if (generation != generation_ || arrived.index >= files_.views.size()) {
    return;
  }
  const cm::MammoView& mv = files_.views[arrived.index];
  auto it = images_.find(arrived.index);
  const bool first = it == images_.end();
  if (first) {
    viewers::MammoImage img;
    img.id = mv.id;
    img.sopInstanceUid = mv.sopInstanceUid;
    img.pyramid = arrived.pyramid;
    const auto& g = arrived.pyramid->volume()->geometry();
    img.placed = {g.size[0], g.size[1], g.spacing[0], arrived.storedWall};
    img.title = QStringLiteral("%1 %2").arg(QString::fromLatin1(cm::toString(mv.laterality)),
                                            QString::fromLatin1(cm::toString(mv.view)));
    img.subtitle = dateText(mv.studyDate);
    if (!hanging_.priorStudy.empty() && mv.studyUid == hanging_.priorStudy) {
      img.subtitle += tr(" prior");
    }
    if (mv.forProcessing) {
      img.subtitle += tr(" · for processing");
    }
    img.monochrome1 = arrived.monochrome1;
    img.frames = g.size[2];
    img.laterality = mv.laterality;
    it = images_.emplace(arrived.index, img).first;
  } else {
    it->second.pyramid = arrived.pyramid;
  }
  for (std::size_t i = 0; i < hanging_.viewports.size(); ++i) {
    if (hanging_.viewports[i].image == arrived.index) {
      auto* port = view_->viewport(static_cast<int>(i));
      if (first || !port->image()) {
        port->setImage(it->second);
        findings_->showOn(view_, hanging_);
      } else {
        port->setPyramid(arrived.pyramid);
      }
    }
  }
  if (arrived.pyramid->complete() && !loading_) {
    Q_EMIT loaded();
  }
}

QStringList MammoFeature::notesWithProblems() const {
  QStringList notes;
  for (const auto& n : hanging_.notes) {
    notes << QString::fromStdString(n);
  }
  for (const auto& p : files_.problems) {
    notes << QString::fromStdString(p);
  }
  for (const auto& p : loadProblems_) {
    notes << tr("Cannot load %1").arg(QString::fromStdString(p));
  }
  return notes;
}

void MammoFeature::reportError(const QString& message) {
  if (interactive_) {
    QMessageBox::warning(window_, tr("Mammography"), message);
  } else {
    std::fprintf(stderr, "delineate: %s\n", message.toLocal8Bit().constData());
  }
  Q_EMIT failed(message);
}

}  // namespace delineate::app
