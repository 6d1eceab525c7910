// File > Query PACS… against a real PACS (Debian's Orthanc on 127.0.0.1): the study browser
// searches the node set up in Preferences, lists the study and its series with their counts,
// and Retrieve brings the series into the local study folder and opens it in the window; a
// second Retrieve fetches nothing. A search that cannot work is said before connecting.
#include <gtest/gtest.h>

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTableWidget>

#include "EditingTestSupport.h"
#include "GuiTestSupport.h"
#include "app/gui/MainWindow.h"
#include "app/gui/pacs/DicomNodeSettings.h"
#include "app/gui/pacs/DicomNodesPage.h"
#include "app/gui/pacs/DicomWebNodeDialog.h"
#include "app/gui/pacs/DicomWebSecrets.h"
#include "app/gui/pacs/PacsFeature.h"
#include "app/gui/pacs/StorageListener.h"
#include "app/gui/pacs/StudyBrowserDialog.h"
#include "app/gui/shell/JobRunner.h"
#include "core/dicomweb/PacsService.h"
#include "core/io/DicomSeriesWriter.h"
#include "core/jobs/ProgressSink.h"
#include "core/net/HttpServer.h"
#include "core/pacs/DicomNetwork.h"
#include "net/OrthancServer.h"

using namespace delineate;

namespace {

class StudyBrowserTest : public test::EditingWindowTest {
 protected:
  // Opens the study browser, searches its node for `patient`, selects the one study found and
  // retrieves it; succeeds when its first series was shown in the window.
  ::testing::AssertionResult retrieveOnlyStudy(const QString& patient) {
    window_->action(QStringLiteral("file.queryPacs"))->trigger();
    app::StudyBrowserDialog* browser = window_->pacs()->studyBrowser();
    browser->refresh();
    browser->patientEdit()->setText(patient);
    browser->searchButton()->click();
    if (!test::waitUntil([&] { return browser->studyTable()->rowCount() == 1; }, 30000)) {
      return ::testing::AssertionFailure()
             << "not one study found: " << browser->statusLabel()->text().toStdString();
    }
    browser->studyTable()->selectRow(0);
    if (!test::waitUntil([&] { return browser->seriesTable()->rowCount() == 1; }, 30000)) {
      return ::testing::AssertionFailure() << "the series were not listed";
    }
    bool shown = false;
    const auto c =
        QObject::connect(window_.get(), &app::MainWindow::volumeShown, [&] { shown = true; });
    browser->retrieveButton()->click();
    const bool ok = test::waitUntil([&] { return shown && !browser->retrieves()->busy(); }, 60000);
    QObject::disconnect(c);
    if (!ok) {
      return ::testing::AssertionFailure()
             << "not shown: " << browser->statusLabel()->text().toStdString();
    }
    return ::testing::AssertionSuccess();
  }
};

}  // namespace

TEST_F(StudyBrowserTest, SearchesListsTheSeriesAndRetrievesIntoTheWindow) {
  if (!test::OrthancServer::installed()) {
    GTEST_SKIP() << "Orthanc is not installed (scripts/install-deps.sh)";
  }
  test::ForgetPacsNodes forget;
  test::OrthancServer pacs(dir_ / "pacs");
  ASSERT_TRUE(pacs.running());
  // The PACS holds one CT study: the window's own image, written as DOE^JANE's.
  core::NullProgress quiet;
  core::DicomWriteOptions written;
  written.attributes = {{"PatientName", "DOE^JANE"},
                        {"Modality", "CT"},
                        {"PatientID", "PACS-1"},
                        {"StudyDate", "20250310"},
                        {"StudyDescription", "Chest CT"},
                        {"StudyInstanceUID", "1.2.826.0.1.3680043.10.1447.77.1"},
                        {"SeriesInstanceUID", "1.2.826.0.1.3680043.10.1447.77.1.1"}};
  written.instanceKey = "browser";
  const core::VolumePtr original = window_->volume();
  ASSERT_TRUE(original);
  const auto files = core::writeDicomSeries(*original, dir_ / "sent", written, quiet);
  ASSERT_EQ(core::pacs::store(pacs.node(), files, {}, quiet).storedCount(), files.size());
  app::DicomNodeSettings settings;
  settings.nodes = {pacs.node()};
  settings.save();

  window_->action(QStringLiteral("file.queryPacs"))->trigger();
  app::StudyBrowserDialog* browser = window_->pacs()->studyBrowser();
  ASSERT_TRUE(browser->isVisible());
  ASSERT_EQ(browser->nodeBox()->count(), 2) << "the node and the study cache";
  ASSERT_EQ(browser->nodeBox()->currentIndex(), 0);
  EXPECT_FALSE(browser->retrieveButton()->isEnabled()) << "nothing chosen yet";

  browser->dateEdit()->setText(QStringLiteral("last week"));
  browser->searchButton()->click();
  EXPECT_TRUE(browser->statusLabel()->text().contains(QStringLiteral("is not YYYYMMDD")))
      << browser->statusLabel()->text().toStdString();
  EXPECT_FALSE(browser->queries()->busy()) << "refused before connecting";

  browser->dateEdit()->setText(QStringLiteral("20250101-"));
  browser->patientEdit()->setText(QStringLiteral("doe*"));
  browser->searchButton()->click();
  QTableWidget* studies = browser->studyTable();
  ASSERT_TRUE(test::waitUntil([&] { return studies->rowCount() == 1; }, 30000))
      << browser->statusLabel()->text().toStdString();
  EXPECT_EQ(studies->item(0, 0)->text(), QStringLiteral("DOE, JANE"));
  EXPECT_EQ(studies->item(0, 2)->text(), QStringLiteral("2025-03-10"));
  EXPECT_EQ(studies->item(0, 6)->data(Qt::DisplayRole).toInt(), int(files.size()));
  // By description, with a wildcard: a miss lists nothing, the study's own finds it again.
  browser->descriptionEdit()->setText(QStringLiteral("Head*"));
  browser->searchButton()->click();
  ASSERT_TRUE(test::waitUntil([&] { return !browser->queries()->busy(); }, 30000));
  EXPECT_EQ(studies->rowCount(), 0) << browser->statusLabel()->text().toStdString();
  browser->descriptionEdit()->setText(QStringLiteral("Chest*"));
  browser->searchButton()->click();
  ASSERT_TRUE(test::waitUntil([&] { return studies->rowCount() == 1; }, 30000))
      << browser->statusLabel()->text().toStdString();

  studies->selectRow(0);
  QTableWidget* series = browser->seriesTable();
  ASSERT_TRUE(test::waitUntil([&] { return series->rowCount() == 1; }, 30000));
  EXPECT_EQ(series->item(0, 1)->text(), QStringLiteral("CT"));
  EXPECT_EQ(series->item(0, 2)->data(Qt::DisplayRole).toInt(), int(files.size()));
  ASSERT_TRUE(browser->retrieveButton()->isEnabled());

  // Retrieve: the series opens in the window, from the local study folder.
  bool shown = false;
  QObject::connect(window_.get(), &app::MainWindow::volumeShown, [&] { shown = true; });
  browser->retrieveButton()->click();
  ASSERT_TRUE(test::waitUntil([&] { return shown && !browser->retrieves()->busy(); }, 60000))
      << browser->statusLabel()->text().toStdString();
  const core::VolumePtr opened = window_->volume();
  ASSERT_TRUE(opened);
  EXPECT_NE(opened, original);
  EXPECT_EQ(opened->geometry().size, original->geometry().size);
  EXPECT_EQ(opened->info().patientName, "DOE^JANE");
  const QString folder = QDir(app::StudyBrowserDialog::studyFolder())
                             .filePath(QStringLiteral("1.2.826.0.1.3680043.10.1447.77.1"));
  EXPECT_TRUE(
      browser->statusLabel()->text().contains(QStringLiteral("%1 fetched").arg(files.size())))
      << browser->statusLabel()->text().toStdString();
  EXPECT_EQ(QDir(folder + QStringLiteral("/1.2.826.0.1.3680043.10.1447.77.1.1"))
                .entryList({QStringLiteral("*.dcm")}, QDir::Files)
                .size(),
            int(files.size()));

  QDir().mkpath(QStringLiteral(DELINEATE_SCREENSHOT_DIR));
  EXPECT_TRUE(browser->grab().save(QStringLiteral(DELINEATE_SCREENSHOT_DIR "/study-browser.png")));

  // Again: everything is local, nothing is fetched.
  browser->retrieveButton()->click();
  ASSERT_TRUE(test::waitUntil([&] { return !browser->retrieves()->busy(); }, 60000));
  ASSERT_TRUE(test::waitUntil(
      [&] { return browser->statusLabel()->text().contains(QStringLiteral("(0 fetched")); }, 30000))
      << browser->statusLabel()->text().toStdString();

  // The study cache as a source of its own: found without the PACS, opened without fetching.
  browser->nodeBox()->setCurrentIndex(browser->nodeBox()->count() - 1);
  EXPECT_TRUE(browser->nodeBox()->currentText().contains(QStringLiteral("study cache")));
  browser->searchButton()->click();
  ASSERT_TRUE(test::waitUntil([&] { return !browser->queries()->busy(); }, 30000));
  ASSERT_TRUE(test::waitUntil([&] { return studies->rowCount() == 1; }, 30000))
      << browser->statusLabel()->text().toStdString();
  EXPECT_EQ(studies->item(0, 0)->text(), QStringLiteral("DOE, JANE"));
  EXPECT_EQ(studies->item(0, 6)->data(Qt::DisplayRole).toInt(), int(files.size()));
  studies->selectRow(0);
  ASSERT_TRUE(test::waitUntil([&] { return series->rowCount() == 1; }, 30000));
  shown = false;
  browser->retrieveButton()->click();
  ASSERT_TRUE(test::waitUntil([&] { return shown; }, 30000));
  EXPECT_TRUE(browser->statusLabel()->text().contains(QStringLiteral("nothing fetched")))
      << browser->statusLabel()->text().toStdString();
  EXPECT_EQ(window_->volume()->info().patientName, "DOE^JANE");
  QDir(folder).removeRecursively();
}

// A DICOMweb node set up in Preferences (Add DICOMweb…, Basic authentication, the password typed
// in the dialog): the browser searches it by QIDO-RS and Retrieve opens the series fetched by
// WADO-RS. Without its password the search says so instead of connecting.
TEST_F(StudyBrowserTest, ADicomWebNodeSetUpInPreferencesIsSearchedAndRetrieved) {
  if (!test::OrthancServer::installed() || !test::OrthancServer::dicomWebInstalled()) {
    GTEST_SKIP() << "Orthanc or its DICOMweb plugin is not installed (scripts/install-deps.sh)";
  }
  test::ForgetPacsNodes forget;
  test::OrthancOptions options;
  options.dicomWeb = true;
  options.users = {{"radiologist", "pw-7"}};
  test::OrthancServer pacs(dir_ / "pacs", options);
  ASSERT_TRUE(pacs.running());
  core::NullProgress quiet;
  core::DicomWriteOptions written;
  written.attributes = {{"PatientName", "ROE^ANN"},
                        {"Modality", "CT"},
                        {"PatientID", "WEB-1"},
                        {"StudyDate", "20250402"},
                        {"StudyInstanceUID", "1.2.826.0.1.3680043.10.1447.78.1"},
                        {"SeriesInstanceUID", "1.2.826.0.1.3680043.10.1447.78.1.1"}};
  written.instanceKey = "webbrowser";
  const core::VolumePtr original = window_->volume();
  ASSERT_TRUE(original);
  const auto files = core::writeDicomSeries(*original, dir_ / "sent", written, quiet);
  ASSERT_EQ(core::pacs::sendFiles(pacs.webNode(), files, {{}, "pw-7"}, quiet).storedCount(),
            files.size());

  app::DicomNodesPage page;
  page.editWebNode(-1);
  auto* dialog = page.findChild<app::DicomWebNodeDialog*>();
  ASSERT_NE(dialog, nullptr);
  auto* url = dialog->findChild<QLineEdit*>(QStringLiteral("dicomWebUrl"));
  auto* auth = dialog->findChild<QComboBox*>(QStringLiteral("dicomWebAuth"));
  auto* user = dialog->findChild<QLineEdit*>(QStringLiteral("dicomWebUser"));
  auto* secret = dialog->findChild<QLineEdit*>(QStringLiteral("dicomWebSecret"));
  auto* problem = dialog->findChild<QLabel*>(QStringLiteral("dicomWebProblem"));
  url->setText(QStringLiteral("pacs.example/dicom-web"));
  EXPECT_TRUE(problem->text().contains(QStringLiteral("http"))) << problem->text().toStdString();
  url->setText(QString::fromStdString(pacs.webNode().dicomWebUrl));
  auth->setCurrentIndex(auth->findData(int(core::pacs::WebAuth::Basic)));
  EXPECT_TRUE(problem->text().contains(QStringLiteral("user name")))
      << problem->text().toStdString();
  user->setText(QStringLiteral("radiologist"));
  secret->setText(QStringLiteral("pw-7"));
  EXPECT_TRUE(problem->text().isEmpty()) << problem->text().toStdString();
  QDir().mkpath(QStringLiteral(DELINEATE_SCREENSHOT_DIR));
  dialog->resize(560, dialog->sizeHint().height());
  EXPECT_TRUE(dialog->grab().save(QStringLiteral(DELINEATE_SCREENSHOT_DIR "/dicomweb-node.png")));
  dialog->accept();
  ASSERT_EQ(page.table()->rowCount(), 1);
  EXPECT_EQ(page.table()->item(0, 1)->text(), QStringLiteral("DICOMweb"));
  page.verifyButton()->click();
  ASSERT_TRUE(test::waitUntil([&] { return !page.busy(); }, 30000));
  ASSERT_TRUE(test::waitUntil(
      [&] { return page.table()->item(0, 4)->text().startsWith(QStringLiteral("verified")); },
      30000))
      << page.table()->item(0, 4)->text().toStdString();
  page.resize(900, 420);
  EXPECT_TRUE(page.grab().save(QStringLiteral(DELINEATE_SCREENSHOT_DIR "/dicom-nodes.png")));

  window_->action(QStringLiteral("file.queryPacs"))->trigger();
  app::StudyBrowserDialog* browser = window_->pacs()->studyBrowser();
  ASSERT_TRUE(browser->isVisible());
  browser->refresh();
  ASSERT_EQ(browser->nodeBox()->count(), 2);
  browser->patientEdit()->setText(QStringLiteral("ROE*"));
  browser->searchButton()->click();
  QTableWidget* studies = browser->studyTable();
  ASSERT_TRUE(test::waitUntil([&] { return studies->rowCount() == 1; }, 30000))
      << browser->statusLabel()->text().toStdString();
  EXPECT_EQ(studies->item(0, 0)->text(), QStringLiteral("ROE, ANN"));
  studies->selectRow(0);
  ASSERT_TRUE(test::waitUntil([&] { return browser->seriesTable()->rowCount() == 1; }, 30000));
  bool shown = false;
  QObject::connect(window_.get(), &app::MainWindow::volumeShown, [&] { shown = true; });
  browser->retrieveButton()->click();
  ASSERT_TRUE(test::waitUntil([&] { return shown && !browser->retrieves()->busy(); }, 60000))
      << browser->statusLabel()->text().toStdString();
  EXPECT_EQ(window_->volume()->info().patientName, "ROE^ANN");
  EXPECT_EQ(window_->volume()->geometry().size, original->geometry().size);
  QDir(QDir(app::StudyBrowserDialog::studyFolder())
           .filePath(QStringLiteral("1.2.826.0.1.3680043.10.1447.78.1")))
      .removeRecursively();

  // Its password forgotten (and none in a keychain): the search says so.
  app::DicomWebSecrets::forget(app::DicomNodeSettings::load().nodes.front());
  browser->searchButton()->click();
  EXPECT_TRUE(test::waitUntil(
      [&] { return browser->statusLabel()->text().contains(QStringLiteral("password")); }, 30000))
      << browser->statusLabel()->text().toStdString();
}

// A node ticked "C-MOVE" in Preferences: Retrieve has the PACS send the series to this
// workstation's Storage SCP, on the port set on the same page, and the series opens.
TEST_F(StudyBrowserTest, ANodeMarkedCMoveRetrievesThroughTheStorageScp) {
  if (!test::OrthancServer::installed()) {
    GTEST_SKIP() << "Orthanc is not installed (scripts/install-deps.sh)";
  }
  test::ForgetPacsNodes forget;
  test::OrthancOptions options;
  options.callerPort = core::net::freeLocalPort();
  test::OrthancServer pacs(dir_ / "pacs", options);
  ASSERT_TRUE(pacs.running());
  core::NullProgress quiet;
  core::DicomWriteOptions written;
  written.attributes = {{"PatientName", "MOVE^MARY"},
                        {"Modality", "CT"},
                        {"StudyInstanceUID", "1.2.826.0.1.3680043.10.1447.79.1"},
                        {"SeriesInstanceUID", "1.2.826.0.1.3680043.10.1447.79.1.1"}};
  written.instanceKey = "movebrowser";
  const auto files = core::writeDicomSeries(*window_->volume(), dir_ / "sent", written, quiet);
  ASSERT_EQ(core::pacs::store(pacs.node(), files, {}, quiet).storedCount(), files.size());
  app::DicomNodeSettings settings;
  settings.nodes = {pacs.node()};
  settings.save();

  app::DicomNodesPage page;
  ASSERT_EQ(page.table()->rowCount(), 1);
  page.table()->item(0, 6)->setCheckState(Qt::Checked);  // the C-MOVE column
  page.storagePortBox()->setValue(options.callerPort);
  const app::DicomNodeSettings kept = app::DicomNodeSettings::load();
  ASSERT_TRUE(kept.nodes.front().retrieveByMove);
  ASSERT_EQ(kept.storagePort, options.callerPort);

  ASSERT_TRUE(retrieveOnlyStudy(QStringLiteral("MOVE*")));
  const app::StudyBrowserDialog* browser = window_->pacs()->studyBrowser();
  EXPECT_EQ(window_->volume()->info().patientName, "MOVE^MARY");
  EXPECT_TRUE(
      browser->statusLabel()->text().contains(QStringLiteral("%1 fetched").arg(files.size())))
      << browser->statusLabel()->text().toStdString();
  QDir(QDir(app::StudyBrowserDialog::studyFolder())
           .filePath(QStringLiteral("1.2.826.0.1.3680043.10.1447.79.1")))
      .removeRecursively();
}

// "Listen always": the Storage SCP takes what is sent to it at any time into the study cache,
// and a C-MOVE retrieve then goes through it (the port is not opened twice).
TEST_F(StudyBrowserTest, AStorageScpListeningAlwaysReceivesIntoTheCacheAndServesMoves) {
  if (!test::OrthancServer::installed()) {
    GTEST_SKIP() << "Orthanc is not installed (scripts/install-deps.sh)";
  }
  test::ForgetPacsNodes forget;
  test::OrthancOptions options;
  options.callerPort = core::net::freeLocalPort();
  test::OrthancServer pacs(dir_ / "pacs", options);
  ASSERT_TRUE(pacs.running());
  const QDir cache(app::StudyBrowserDialog::studyFolder());
  const QString pushedUid = QStringLiteral("1.2.826.0.1.3680043.10.1447.81.1");
  const QString movedUid = QStringLiteral("1.2.826.0.1.3680043.10.1447.82.1");
  for (const QString& uid : {pushedUid, movedUid}) {
    QDir(cache.filePath(uid)).removeRecursively();
  }
  const auto write = [&](const char* name, const QString& uid) {
    core::NullProgress quiet;
    core::DicomWriteOptions w;
    w.attributes = {{"PatientName", name},
                    {"Modality", "CT"},
                    {"StudyInstanceUID", uid.toStdString()},
                    {"SeriesInstanceUID", uid.toStdString() + ".1"}};
    w.instanceKey = name;
    return core::writeDicomSeries(*window_->volume(), dir_ / name, w, quiet);
  };
  app::DicomNodeSettings settings;
  core::pacs::DicomNode node = pacs.node();
  node.retrieveByMove = true;
  settings.nodes = {node};
  settings.save();

  app::DicomNodesPage page;
  page.storagePortBox()->setValue(options.callerPort);
  QObject::connect(&page, &app::DicomNodesPage::listenerChanged, window_->pacs()->listener(),
                   &app::StorageListener::apply);
  page.alwaysListenBox()->setChecked(true);
  ASSERT_TRUE(window_->pacs()->listener()->listening())
      << window_->pacs()->listener()->problem().toStdString();
  EXPECT_TRUE(app::DicomNodeSettings::load().alwaysListen);

  // A modality (or another workstation) sends a series to us: it lands in the study cache.
  const auto pushed = write("PUSH^PAT", pushedUid);
  core::NullProgress quiet;
  const core::pacs::DicomNode us{"This workstation", "DELINEATE", "127.0.0.1", options.callerPort};
  ASSERT_EQ(core::pacs::store(us, pushed, {}, quiet).storedCount(), pushed.size());
  EXPECT_EQ(QDir(cache.filePath(pushedUid + QStringLiteral(".1")))
                .entryList({QStringLiteral("*.dcm")}, QDir::Files)
                .size(),
            0)
      << "by study, not loose in the cache";
  EXPECT_EQ(QDir(cache.filePath(pushedUid) + QStringLiteral("/") + pushedUid + QStringLiteral(".1"))
                .entryList({QStringLiteral("*.dcm")}, QDir::Files)
                .size(),
            int(pushed.size()));
  ASSERT_TRUE(test::waitUntil(
      [&] { return window_->pacs()->listener()->received() == pushed.size(); }, 5000));

  // A C-MOVE retrieve while it listens: the node sends to it, nothing else opens the port.
  const auto moved = write("MOVE^PAT", movedUid);
  ASSERT_EQ(core::pacs::store(pacs.node(), moved, {}, quiet).storedCount(), moved.size());
  ASSERT_TRUE(retrieveOnlyStudy(QStringLiteral("MOVE^PAT")));
  const app::StudyBrowserDialog* browser = window_->pacs()->studyBrowser();
  EXPECT_EQ(window_->volume()->info().patientName, "MOVE^PAT");
  EXPECT_TRUE(
      browser->statusLabel()->text().contains(QStringLiteral("%1 fetched").arg(moved.size())))
      << browser->statusLabel()->text().toStdString();
  EXPECT_TRUE(window_->pacs()->listener()->listening());

  page.alwaysListenBox()->setChecked(false);
  EXPECT_FALSE(window_->pacs()->listener()->listening());
  for (const QString& uid : {pushedUid, movedUid}) {
    QDir(cache.filePath(uid)).removeRecursively();
  }
}
