// `delineate`: the annotation workstation. See AppOptions.h for the command line.
#include <QApplication>
#include <QIcon>
#include <QTimer>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "app/gui/AppOptions.h"
#include "app/gui/MainWindow.h"
#include "app/gui/ScreenshotRunner.h"
#include "app/gui/TestScript.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/editing/LabelFileController.h"
#include "app/gui/mammo/MammoFeature.h"
#include "app/gui/mammo/MammoFindingsController.h"
#include "app/gui/shell/ProcessClock.h"
#include "app/gui/shell/RecoveryController.h"
#include "app/plugins/PluginHost.h"
#include "app/plugins/PluginReportText.h"
#include "core/io/ItkInit.h"
#include "core/pacs/DicomNetwork.h"
#include "viewers/ViewLayout.h"
#include "viewers/VtkOpenGLWidget.h"

#ifndef DELINEATE_VERSION
#define DELINEATE_VERSION "0.0.0"
#endif

int main(int argc, char** argv) {
  using namespace delineate;
  const app::AppOptions options =
      app::parseAppOptions(std::vector<std::string>(argv + 1, argv + argc));
  if (!options.error.empty()) {
    std::fprintf(stderr, "delineate: %s\n\n%s", options.error.c_str(), app::usageText().c_str());
    return 2;
  }
  if (options.help) {
    std::printf("%s", app::usageText().c_str());
    return 0;
  }
  if (options.version) {
    std::printf("delineate %s\n", DELINEATE_VERSION);
    return 0;
  }
  if (options.plugins) {
    QCoreApplication core(argc, argv);  // no display needed
    return app::printPluginReport(app::PluginHost::application(), stdout) ? 0 : 1;
  }
  const char* display = std::getenv("DISPLAY");
  if (display == nullptr || *display == '\0') {
    std::fprintf(stderr,
                 "delineate: no X display (DISPLAY is not set); the views need X11 with GLX, "
                 "e.g. run under xvfb-run\n");
    return 1;
  }

  core::ensureItkInitialized();              // before any job thread can be the first to use ITK
  core::pacs::ensureDicomNetworkDefaults();  // Nagle off, while one thread runs
  viewers::VtkOpenGLWidget::prepareApplication();  // before QApplication
  QApplication application(argc, argv);
  QApplication::setApplicationName(QStringLiteral("Delineate"));
  QApplication::setOrganizationName(QStringLiteral("Delineate"));
  QApplication::setApplicationVersion(QStringLiteral(DELINEATE_VERSION));
  // The desktop entry and the icon theme's name; the built-in SVG where no theme has it.
  QGuiApplication::setDesktopFileName(QStringLiteral("org.delineate.Delineate"));
  QApplication::setWindowIcon(
      QIcon::fromTheme(QStringLiteral("org.delineate.Delineate"),
                       QIcon(QStringLiteral(":/icons/org.delineate.Delineate.svg"))));

  const bool screenshot = !options.screenshot.empty();
  app::MainWindow window({.interactive = !screenshot, .rememberRecent = !screenshot});
  if (std::getenv("DELINEATE_REPORT_FIRST_FRAME") != nullptr) {
    // For bench/launch_benchmark.sh: the time from process start until every view shows the
    // image (the 3D view possibly at its coarse first level).
    auto* poll = new QTimer(&window);
    QObject::connect(poll, &QTimer::timeout, &window, [&window, poll] {
      if (window.views()->allViewsShowImage()) {
        poll->stop();
        std::fprintf(stderr, "first frame after %.0f ms\n", app::millisecondsSinceProcessStart());
      }
    });
    poll->start(5);
  }
  const QString layout = QString::fromStdString(options.layout);
  QStringList mammoPaths;
  if (options.mammography() && !options.path.empty()) {
    mammoPaths << QString::fromStdString(options.path);
    for (const auto& p : options.morePaths) {
      mammoPaths << QString::fromStdString(p);
    }
  } else if (!options.layout.empty()) {
    window.views()->setLayoutName(layout);
  }
  if (!options.findings.empty()) {
    // Once the study is loaded: the findings file, or the demonstration detector.
    const QString findings = QString::fromStdString(options.findings);
    QObject::connect(
        window.mammo(), &app::MammoFeature::loaded, &window,
        [&window, findings] {
          if (findings == QStringLiteral("demo")) {
            window.mammo()->findings()->detect();
          } else if (!window.mammo()->findings()->openFile(findings)) {
            QCoreApplication::exit(1);
          }
        },
        Qt::SingleShotConnection);
  }
  if (options.width > 0) {
    window.resize(options.width, options.height);
  } else {
    window.resize(1400, 900);
  }

  if (!options.labels.empty()) {
    QStringList labels;
    for (const std::string& l : options.labels) {
      labels << QString::fromStdString(l);
    }
    window.editing()->setPendingLabels(labels);
  }
  app::TestScript::fromEnvironment(&window);  // test-only; nothing unless the variable is set
  using Recovery = app::RecoveryController::Mode;
  const Recovery recovery = options.noRecover ? Recovery::Skip
                            : options.recover ? Recovery::Recover
                            : screenshot      ? Recovery::Skip
                                              : Recovery::Ask;

  if (screenshot) {
    auto* runner = new app::ScreenshotRunner(&window, QString::fromStdString(options.path),
                                             QString::fromStdString(options.screenshot),
                                             QString::fromStdString(options.viewsJson));
    if (options.mammography()) {
      runner->setMammography(mammoPaths, layout);
    }
    QStringList show;
    for (const std::string& name : options.show) {
      show << QString::fromStdString(name);
    }
    runner->setShow(show);
    // A label file that cannot be read fails the screenshot like the image would (the message,
    // naming the file, is already on stderr).
    QObject::connect(window.editing()->files(), &app::LabelFileController::openFailed, &application,
                     [] { QCoreApplication::exit(1); });
    window.show();
    window.editing()->recovery()->offer(recovery, &window);  // installs onto PATH when shown
    runner->start();
    return QApplication::exec();
  }
  window.show();
  const QString recoveredSource = window.editing()->recovery()->offer(recovery, &window);
  if (options.mammography()) {
    if (mammoPaths.isEmpty()) {
      window.mammo()->openSample(layout);
    } else {
      window.mammo()->open(mammoPaths, layout);
    }
  } else if (!options.path.empty()) {
    window.openPath(QString::fromStdString(options.path));
  } else if (!recoveredSource.isEmpty()) {
    window.openPath(recoveredSource);
  } else {
    window.openSample();
  }
  return QApplication::exec();
}
