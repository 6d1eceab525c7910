// From "Retrieve" in the study browser to the first image on screen, in the real window, printed
// as JSON. The study on a local Orthanc is a CT as a scanner sends it: a 3-slice scout (series 1)
// and the axial series (default 512x512x500, series 2). Per route (C-GET and WADO-RS), best of
// --repeat runs into an empty study cache:
//   first_image_s     Retrieve clicked -> the first series shown and painted (the rest still comes)
//   first_series_s    Retrieve clicked -> the first series complete in the cache
//   study_s           Retrieve clicked -> every series in the cache
// Run under a display (xvfb-run -a bench/pacs_first_image_benchmark).
//   pacs_first_image_benchmark [--dir DIR] [--size 512x512x500] [--repeat 2]
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableWidget>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ChildProcess.h"
#include "app/gui/MainWindow.h"
#include "app/gui/pacs/DicomNodeSettings.h"
#include "app/gui/pacs/PacsFeature.h"
#include "app/gui/pacs/StudyBrowserDialog.h"
#include "app/gui/shell/JobRunner.h"
#include "core/io/DicomSeriesWriter.h"
#include "core/jobs/ProgressSink.h"
#include "core/pacs/DicomNetwork.h"
#include "core/sample/SampleCase.h"
#include "net/OrthancServer.h"

namespace fs = std::filesystem;
using namespace delineate;
using nlohmann::json;

namespace {

constexpr const char* kStudy = "1.2.826.0.1.3680043.10.1447.501.1";

std::vector<fs::path> filesIn(const fs::path& dir) {
  std::vector<fs::path> out;
  if (fs::exists(dir)) {
    for (const auto& e : fs::directory_iterator(dir)) {
      out.push_back(e.path());
    }
  }
  return out;
}

// Writes the series once into `dir` (kept for later runs).
std::vector<fs::path> prepare(const fs::path& dir, std::array<std::size_t, 3> size, int number) {
  if (filesIn(dir).size() != size[2]) {
    std::fprintf(stderr, "preparing %s ...\n", dir.c_str());
    bench::runInChild([&] {
      fs::remove_all(dir);
      fs::create_directories(dir);
      const auto ct = core::sample::makeAbdomenCt(7, size);
      core::DicomWriteOptions options;
      options.attributes = {
          {"PatientName", "BENCH^FIRSTIMAGE"},
          {"StudyInstanceUID", kStudy},
          {"SeriesInstanceUID", std::string(kStudy) + "." + std::to_string(number)},
          {"SeriesNumber", std::to_string(number)}};
      options.instanceKey = "first-image-" + std::to_string(number);
      core::NullProgress quiet;
      core::writeDicomSeries(*ct.image, dir, options, quiet);
    });
  }
  return filesIn(dir);
}

bool waitFor(const std::function<bool()>& done, int ms) {
  QElapsedTimer t;
  t.start();
  while (!done()) {
    if (t.elapsed() > ms) {
      return false;
    }
    QApplication::processEvents(QEventLoop::AllEvents, 5);
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const bench::VolumeBenchArgs args =
      bench::parseVolumeBenchArgs(argc, argv, "delineate-pacs-first-image");
  QStandardPaths::setTestModeEnabled(true);  // its own settings and study cache
  QApplication qt(argc, argv);
  if (!test::OrthancServer::installed() || !test::OrthancServer::dicomWebInstalled()) {
    std::printf("%s\n",
                json{{"skipped", "orthanc and orthanc-dicomweb are needed"}}.dump().c_str());
    return 0;
  }
  std::vector<fs::path> files = prepare(args.dir / "scout", {args.size[0], args.size[1], 3}, 1);
  const auto axial = prepare(args.dir / "axial", args.size, 2);
  files.insert(files.end(), axial.begin(), axial.end());

  const fs::path run =
      fs::temp_directory_path() / ("delineate-first-image-" + std::to_string(::getpid()));
  test::OrthancOptions orthancOptions;
  orthancOptions.dicomWeb = true;
  orthancOptions.tcpNoDelay = false;  // as Debian's service runs
  json result = {{"benchmark", "pacs_first_image"},
                 {"size", args.size},
                 {"instances", files.size()},
                 {"repeat", args.repeat}};
  {
    test::OrthancServer orthanc(run / "orthanc", orthancOptions);
    if (!orthanc.running()) {
      std::fprintf(stderr, "Orthanc did not start\n");
      return 1;
    }
    core::NullProgress quiet;
    const auto stored = core::pacs::store(orthanc.node(), files, {}, quiet);
    std::fprintf(stderr, "stored %zu of %zu instances\n", stored.storedCount(), files.size());

    app::MainWindow window(app::MainWindowOptions{.interactive = false, .rememberRecent = false});
    window.resize(1400, 900);
    window.show();
    QApplication::processEvents();
    const QDir cacheStudy(QDir(app::StudyBrowserDialog::studyFolder()).filePath(kStudy));
    for (const bool web : {false, true}) {
      const std::string way = web ? "wado" : "cget";
      app::DicomNodeSettings settings;
      settings.nodes = {web ? orthanc.webNode() : orthanc.node()};
      settings.save();
      json best;
      for (int r = 0; r < args.repeat; ++r) {
        QDir(cacheStudy).removeRecursively();
        app::StudyBrowserDialog* browser = window.pacs()->studyBrowser();
        browser->refresh();
        browser->show();
        browser->patientEdit()->setText(QStringLiteral("BENCH^*"));
        browser->searchButton()->click();
        if (!waitFor([&] { return browser->studyTable()->rowCount() == 1; }, 30000)) {
          result[way + "_failed"] = "the study was not found";
          break;
        }
        browser->studyTable()->selectRow(0);
        if (!waitFor([&] { return browser->seriesTable()->rowCount() == 2; }, 30000)) {
          result[way + "_failed"] = "the series were not listed";
          break;
        }
        QElapsedTimer clock;
        double firstSeries = -1, firstImage = -1, study = -1;
        bool shown = false;
        const auto c1 =
            QObject::connect(&window, &app::MainWindow::volumeShown, [&] { shown = true; });
        const auto c2 = QObject::connect(browser, &app::StudyBrowserDialog::seriesRetrieved,
                                         [&](const QString&, bool first) {
                                           if (first && firstSeries < 0) {
                                             firstSeries = clock.nsecsElapsed() / 1e9;
                                           }
                                         });
        clock.start();
        browser->retrieveButton()->click();
        const bool ok = waitFor(
            [&] {
              if (shown && firstImage < 0) {
                window.repaint();  // painted: on screen
                QApplication::processEvents();
                firstImage = clock.nsecsElapsed() / 1e9;
              }
              if (!browser->retrieves()->busy() && study < 0 && firstSeries >= 0) {
                study = clock.nsecsElapsed() / 1e9;
              }
              return firstImage >= 0 && study >= 0;
            },
            120000);
        QObject::disconnect(c1);
        QObject::disconnect(c2);
        window.jobs()->waitForIdle();
        if (!ok) {
          result[way + "_failed"] = browser->statusLabel()->text().toStdString();
          break;
        }
        if (best.is_null() || firstImage < best["first_image_s"].get<double>()) {
          best = {
              {"first_image_s", firstImage}, {"first_series_s", firstSeries}, {"study_s", study}};
        }
      }
      if (!best.is_null()) {
        result[way] = best;
      }
    }
    QDir(cacheStudy).removeRecursively();
  }
  fs::remove_all(run);
  std::printf("%s\n", result.dump(2).c_str());
  return 0;
}
