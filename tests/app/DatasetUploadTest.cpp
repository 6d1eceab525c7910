// Dataset upload in the real window against delineate-server's handler in this process (on
// 127.0.0.1, labels spleen = 1 and liver = 2 declared): a folder of three cases is checked — the
// one whose segment the server does not know is red with a message naming its file and segment,
// the others green; Send delivers exactly the two good cases with their final labels, the badge
// shows them pending and then goes; Pause stops before the next case and Resume finishes; a
// server that went away leaves the cases pending with an error naming it (queue view and badge),
// and a window started later resumes the queue once that server answers again; Export writes an
// MSD dataset of the two good cases; the open image with its painted label map is a case too, and
// so are series picked in the study browser, each with the DICOM SEG drawn on it.
#include <gtest/gtest.h>

#include <QAction>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <thread>

#include "EditingTestSupport.h"
#include "GuiTestSupport.h"
#include "annotation/engine/LocalEngineBackend.h"
#include "app/gui/MainWindow.h"
#include "app/gui/ai/AiController.h"
#include "app/gui/compare/DatasetCaseTable.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/editing/ToolController.h"
#include "app/gui/reading/SeriesListController.h"
#include "app/gui/upload/DatasetUploadDialog.h"
#include "app/gui/upload/UploadBadge.h"
#include "app/gui/upload/UploadController.h"
#include "app/gui/upload/UploadFeature.h"
#include "app/gui/upload/UploadQueueView.h"
#include "app/server/MonaiServer.h"
#include "core/DicomSegTestSupport.h"
#include "core/UploadTestSupport.h"
#include "core/dataset/DatasetStore.h"
#include "core/io/DicomSegWriter.h"
#include "core/net/HttpServer.h"
#include "core/upload/UploadQueue.h"

using namespace delineate;
using nlohmann::json;
namespace fs = std::filesystem;
namespace up = core::upload;

namespace {

// delineate-server's handler behind a listener on 127.0.0.1 that can go away and come back on
// the same address. `holdFirstLabel`: the first label PUT waits until released (so that the test
// can press Pause while a case is being sent).
class UploadServer {
 public:
  explicit UploadServer(const fs::path& datastore) {
    server::ServerOptions options;
    options.datastore = datastore;
    options.labels = {{"spleen", 1}, {"liver", 2}};
    app_ = std::make_unique<server::MonaiServer>(std::make_shared<annotation::LocalEngineBackend>(),
                                                 options);
    url_ = QStringLiteral("http://127.0.0.1:%1").arg(core::net::freeLocalPort());
    start();
  }
  ~UploadServer() { release(); }

  void start() {
    http_ = std::make_unique<core::net::HttpServer>(
        url_.toStdString(), [this](const core::net::ServerRequest& r) {
          if (r.method == "PUT" && r.path.rfind("/datastore/label", 0) == 0 &&
              hold_.exchange(false)) {
            held_ = true;
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
            while (!released_ && std::chrono::steady_clock::now() < deadline) {
              std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
          }
          return app_->handle(r);
        });
  }
  void stop() { http_.reset(); }
  void holdFirstLabel() { hold_ = true; }
  bool held() const { return held_; }
  void release() { released_ = true; }

  const QString& url() const { return url_; }
  server::MonaiServer& app() { return *app_; }

 private:
  std::unique_ptr<server::MonaiServer> app_;
  QString url_;
  std::atomic<bool> hold_{false}, held_{false}, released_{false};
  std::unique_ptr<core::net::HttpServer> http_;
};

// Three cases, each an image with NAME_labels.nii.gz and its segment table: patient1 (spleen),
// patient2 (liver), patient3 (kidney, which the server does not know).
void writeCases(const fs::path& folder) {
  fs::create_directories(folder);
  const char* names[] = {"spleen", "liver", "kidney"};
  for (int seed = 1; seed <= 3; ++seed) {
    const auto image = test::boxImage(seed);
    const std::string stem = "patient" + std::to_string(seed);
    core::writeVolumeFile(*image, folder / (stem + ".nii.gz"));
    core::writeLabelMapFiles(
        test::boxLabel(*image, static_cast<std::uint16_t>(seed == 2 ? 2 : 1), names[seed - 1]),
        folder / (stem + "_labels.nii.gz"));
  }
}

// The number of voxels of `value` in a label file.
std::size_t countValue(const fs::path& file, double value) {
  core::NullProgress quiet;
  const core::VolumePtr v = core::readVolumeFile(file, quiet);
  const auto& size = v->geometry().size;
  std::size_t n = 0;
  for (std::size_t k = 0; k < size[2]; ++k) {
    for (std::size_t j = 0; j < size[1]; ++j) {
      for (std::size_t i = 0; i < size[0]; ++i) {
        n += v->valueAt(i, j, k) == value;
      }
    }
  }
  return n;
}

void saveScreenshot(QWidget* widget, const char* name) {
  const char* dir = std::getenv("DELINEATE_TEST_TMP");
  if (dir == nullptr || *dir == '\0') {
    return;
  }
  fs::create_directories(dir);
  widget->grab().save(QString::fromStdString((fs::path(dir) / name).string()));
}

class DatasetUploadTest : public test::EditingWindowTest {
 protected:
  // The queues go under this test's folder (defaultQueueFolder reads XDG_DATA_HOME), set before
  // the window, which looks for queues left from before as it starts.
  DatasetUploadTest() {
    const char* old = std::getenv("XDG_DATA_HOME");
    oldXdg_ = old ? std::optional<std::string>(old) : std::nullopt;
    ::setenv("XDG_DATA_HOME", (dir_ / "xdg").c_str(), 1);
  }
  ~DatasetUploadTest() override {
    oldXdg_ ? ::setenv("XDG_DATA_HOME", oldXdg_->c_str(), 1) : ::unsetenv("XDG_DATA_HOME");
  }

  int connectTo(const UploadServer& server) {
    const int index = ai()->addServer(server.url());
    ai()->setBackend(index);
    EXPECT_TRUE(test::waitUntil([&] { return ai()->connected(); }, 30000))
        << ai()->backends()[std::size_t(index)].status.toStdString();
    return index;
  }

  // The dialog with the cases of `folder`, checked.
  void addAndCheck(const fs::path& folder) {
    window_->action(QStringLiteral("ai.uploadDataset"))->trigger();
    ASSERT_TRUE(dialog()->isVisible());
    dialog()->addFolder(QString::fromStdString(folder.string()));
    ASSERT_TRUE(test::waitUntil([&] { return !dialog()->busy() && dialog()->rows().size() == 3; }))
        << dialog()->messageLabel()->text().toStdString();
    ASSERT_TRUE(dialog()->checkButton()->isEnabled());
    dialog()->checkButton()->click();
    ASSERT_TRUE(test::waitUntil([&] { return !dialog()->busy(); }, 60000));
    for (const auto& r : dialog()->rows()) {
      ASSERT_TRUE(r.checked) << dialog()->messageLabel()->text().toStdString();
    }
  }

  int rowOf(const std::string& stem) const {
    const auto& rows = dialog()->rows();
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (rows[i].picked.image.filename().string() == stem + ".nii.gz") {
        return static_cast<int>(i);
      }
    }
    return -1;
  }

  bool waitQueue(const std::function<bool(const up::QueueCounts&)>& done, int ms = 60000) {
    return test::waitUntil([&] { return done(uploads()->counts()); }, ms);
  }

  app::AiController* ai() const { return editing()->ai(); }
  app::DatasetUploadDialog* dialog() const { return window_->upload()->dialog(); }
  app::UploadController* uploads() const { return window_->upload()->controller(); }
  app::UploadBadge* badge() const { return window_->upload()->badge(); }
  app::UploadQueueView* queueView() const { return window_->upload()->queueView(); }

  std::optional<std::string> oldXdg_;
};

}  // namespace

TEST_F(DatasetUploadTest, CheckSendPauseAndResume) {
  test::ForgetServers forget;
  writeCases(dir_ / "cases");
  UploadServer server(dir_ / "datastore");
  connectTo(server);
  EXPECT_FALSE(badge()->isVisible()) << "nothing was ever queued";
  addAndCheck(dir_ / "cases");
  EXPECT_TRUE(dialog()->serverLabel()->text().contains(QStringLiteral("spleen (1)")));

  QTableWidget* table = dialog()->table();
  const int bad = rowOf("patient3");
  ASSERT_GE(bad, 0);
  const auto& badRow = dialog()->rows()[std::size_t(bad)];
  ASSERT_GT(badRow.errors(), 0);
  const std::string message = badRow.findings.front().message;
  EXPECT_NE(message.find("patient3_labels"), std::string::npos) << message;
  EXPECT_NE(message.find("kidney"), std::string::npos) << message;
  const QTableWidgetItem* badCell = table->item(bad, app::DatasetCaseTable::CheckColumn);
  EXPECT_TRUE(badCell->toolTip().contains(QStringLiteral("kidney")));
  EXPECT_GT(badCell->background().color().red(), badCell->background().color().green())
      << "errors are red";
  for (const char* good : {"patient1", "patient2"}) {
    const int row = rowOf(good);
    ASSERT_GE(row, 0);
    EXPECT_TRUE(dialog()->rows()[std::size_t(row)].findings.empty()) << good;
    const QColor tint = table->item(row, app::DatasetCaseTable::CheckColumn)->background().color();
    EXPECT_GT(tint.green(), tint.red()) << good << ": passing cases are green";
  }
  EXPECT_TRUE(dialog()->details()->toPlainText().contains(QStringLiteral("kidney")))
      << "with nothing selected, every case's findings";
  saveScreenshot(dialog(), "dataset-upload-dialog.png");
  table->selectRow(rowOf("patient1"));
  EXPECT_FALSE(dialog()->details()->toPlainText().contains(QStringLiteral("kidney")));
  table->selectRow(bad);
  EXPECT_TRUE(dialog()->details()->toPlainText().contains(QStringLiteral("kidney")));

  // Send; the first label is held on the server while Pause is pressed.
  server.holdFirstLabel();
  window_->action(QStringLiteral("ai.uploadQueue"))->trigger();
  ASSERT_TRUE(dialog()->sendButton()->isEnabled());
  dialog()->sendButton()->click();
  ASSERT_TRUE(test::waitUntil([&] { return server.held(); }, 60000))
      << uploads()->note().toStdString() << dialog()->messageLabel()->text().toStdString();
  ASSERT_TRUE(test::waitUntil([&] { return badge()->isVisible(); }));
  EXPECT_TRUE(badge()->text().contains(QStringLiteral("2 pending")))
      << badge()->text().toStdString();
  EXPECT_TRUE(uploads()->sending());
  ASSERT_EQ(queueView()->pauseButton()->text(), QStringLiteral("Pause"));
  queueView()->pauseButton()->click();
  server.release();
  ASSERT_TRUE(test::waitUntil([&] { return !uploads()->sending(); }, 60000));
  ASSERT_TRUE(waitQueue([](const up::QueueCounts& c) { return c.done == 1 && c.pending == 1; }))
      << "the case being sent is finished, the next one waits";
  EXPECT_EQ(server.app().datastore().stats()["total"], 1);
  EXPECT_TRUE(badge()->text().contains(QStringLiteral("1 pending")))
      << badge()->text().toStdString();
  EXPECT_TRUE(badge()->text().contains(QStringLiteral("paused")));
  EXPECT_EQ(queueView()->table()->rowCount(), 2);
  EXPECT_EQ(queueView()->pauseButton()->text(), QStringLiteral("Resume"));
  saveScreenshot(queueView(), "upload-queue-paused.png");

  queueView()->pauseButton()->click();
  ASSERT_TRUE(waitQueue([](const up::QueueCounts& c) { return c.done == 2 && c.pending == 0; }))
      << uploads()->note().toStdString();
  ASSERT_TRUE(test::waitUntil([&] { return !badge()->isVisible(); }));

  // Exactly the two good cases, each with its final label in the server's values.
  EXPECT_EQ(server.app().datastore().stats()["total"], 2);
  for (const auto& [stem, value] : {std::pair{"patient1", 1}, std::pair{"patient2", 2}}) {
    const std::string id = dialog()->rows()[std::size_t(rowOf(stem))].id;
    ASSERT_TRUE(server.app().datastore().imageInfo(id)) << stem;
    const auto label = server.app().datastore().labelFile(id, "final");
    ASSERT_TRUE(label) << stem;
    EXPECT_EQ(countValue(*label, value), 4u * 4u * 3u) << stem;
  }
  EXPECT_FALSE(server.app().datastore().imageInfo(badRow.id)) << "the case with errors stays home";
  EXPECT_TRUE(dialog()->rows()[std::size_t(rowOf("patient1"))].outcome.startsWith("queued"));

  // What was sent is a version of the folder: the dialog names its snapshot, and a training
  // request to this server will name it too.
  const auto log = core::dataset::DatasetStore(dir_ / "cases").log();
  ASSERT_EQ(log.size(), 1u) << "one snapshot, taken when sending";
  EXPECT_EQ(log[0].message, "sent to " + server.url().toStdString());
  EXPECT_TRUE(dialog()->snapshotLabel()->text().contains(
      QStringLiteral("Sent snapshot %1 of ").arg(QString::fromStdString(log[0].id.substr(0, 12)))))
      << dialog()->snapshotLabel()->text().toStdString();
  EXPECT_EQ(uploads()->sentSnapshots(server.url()), QStringList{QString::fromStdString(log[0].id)});
  EXPECT_EQ(app::UploadController().sentSnapshots(server.url()),
            QStringList{QString::fromStdString(log[0].id)})
      << "kept for the next start of the app";

  // Clear done empties the view.
  ASSERT_TRUE(queueView()->clearButton()->isEnabled());
  queueView()->clearButton()->click();
  ASSERT_TRUE(test::waitUntil([&] { return uploads()->items().empty(); }));
  EXPECT_EQ(queueView()->table()->rowCount(), 0);
}

TEST_F(DatasetUploadTest, AServerDownKeepsThemPendingAndALaterWindowResumes) {
  test::ForgetServers forget;
  writeCases(dir_ / "cases");
  UploadServer server(dir_ / "datastore");
  const int index = connectTo(server);
  addAndCheck(dir_ / "cases");
  server.stop();

  window_->upload()->showQueue();
  dialog()->sendButton()->click();
  ASSERT_TRUE(test::waitUntil(
      [&] {
        const auto& items = uploads()->items();
        return items.size() == 2 && !items[0].lastError.empty() && !items[1].lastError.empty();
      },
      60000))
      << uploads()->note().toStdString();
  EXPECT_EQ(uploads()->counts().pending, 2);
  EXPECT_TRUE(badge()->isVisible());
  EXPECT_TRUE(badge()->text().contains(QStringLiteral("2 pending")))
      << badge()->text().toStdString();
  const QString error = queueView()->table()->item(0, app::UploadQueueView::ErrorColumn)->text();
  EXPECT_TRUE(error.contains(server.url())) << error.toStdString();
  EXPECT_EQ(server.app().datastore().stats()["total"], 0);
  saveScreenshot(queueView(), "upload-queue-server-down.png");

  // The app goes (its sending stopped, the queue on disk), the server comes back, and a window
  // started later shows the queue in its badge and sends it once the server is chosen.
  uploads()->stop();
  window_.reset();
  const fs::path queue = up::defaultQueueFolder(server.url().toStdString());
  EXPECT_EQ(up::UploadQueue(queue).counts().pending, 2);
  server.start();
  app::MainWindow later(app::MainWindowOptions{.interactive = false, .rememberRecent = false});
  later.show();
  ASSERT_TRUE(test::waitUntil([&] { return later.upload()->badge()->isVisible(); }))
      << "the badge shows what is left from before";
  EXPECT_TRUE(later.upload()->badge()->text().contains(QStringLiteral("2 pending")));
  later.editing()->ai()->setBackend(index);
  ASSERT_TRUE(
      test::waitUntil([&] { return later.upload()->controller()->counts().done == 2; }, 60000))
      << later.upload()->controller()->note().toStdString();
  EXPECT_TRUE(test::waitUntil([&] { return !later.upload()->badge()->isVisible(); }));
  EXPECT_EQ(server.app().datastore().stats()["total"], 2);
  EXPECT_EQ(up::UploadQueue(queue).counts().pending, 0);
}

TEST_F(DatasetUploadTest, ExportWritesAnMsdDatasetOfTheCasesThatPass) {
  test::ForgetServers forget;
  writeCases(dir_ / "cases");
  UploadServer server(dir_ / "datastore");
  connectTo(server);
  addAndCheck(dir_ / "cases");
  const fs::path out = dir_ / "Task01_Test";
  ASSERT_TRUE(dialog()->exportTo(QString::fromStdString(out.string())));
  ASSERT_TRUE(test::waitUntil([&] { return !dialog()->busy(); }, 60000));
  std::ifstream in(out / "dataset.json");
  ASSERT_TRUE(in) << dialog()->messageLabel()->text().toStdString();
  const json dataset = json::parse(in);
  EXPECT_EQ(dataset["numTraining"], 2);
  ASSERT_EQ(dataset["training"].size(), 2u);
  for (const json& pair : dataset["training"]) {
    EXPECT_TRUE(fs::exists(out / pair["image"].get<std::string>())) << pair.dump();
    EXPECT_TRUE(fs::exists(out / pair["label"].get<std::string>())) << pair.dump();
  }
  EXPECT_EQ(dialog()->rows()[std::size_t(rowOf("patient1"))].outcome, QStringLiteral("written"));
  EXPECT_EQ(server.app().datastore().stats()["total"], 0) << "exporting sends nothing";
}

TEST_F(DatasetUploadTest, TheOpenImageWithItsLabelMapIsACase) {
  test::ForgetServers forget;
  UploadServer server(dir_ / "datastore");
  connectTo(server);
  session()->ensureLabelMap();
  ASSERT_TRUE(session()->renameSegment(session()->activeLabel(), QStringLiteral("Liver")));
  window_->action(QStringLiteral("tool.brush"))->trigger();
  editing()->tools()->setBrushRadiusMm(3);
  stroke(view(0), {{0, 0, 0}, {6, 0, 0}});
  ASSERT_TRUE(waitSettled());
  ASSERT_GT(countLabel(), 0u);

  window_->upload()->showDialog();
  dialog()->addOpenImageButton()->click();
  ASSERT_TRUE(test::waitUntil([&] { return dialog()->rows().size() == 1; }, 60000))
      << dialog()->messageLabel()->text().toStdString();
  ASSERT_EQ(dialog()->rows()[0].picked.labels.size(), 1u);
  dialog()->checkButton()->click();
  ASSERT_TRUE(
      test::waitUntil([&] { return !dialog()->busy() && dialog()->rows()[0].checked; }, 60000));
  EXPECT_TRUE(dialog()->rows()[0].findings.empty()) << dialog()->rows()[0].findings.front().message;
  EXPECT_EQ(dialog()->rows()[0].id.rfind("case-", 0), 0u);
}

TEST_F(DatasetUploadTest, TheStudyBrowsersSeriesWithTheirSegsAreCases) {
  test::ForgetServers forget;
  // Two CT series and a SEG ("Liver", segment 7) drawn on the first, opened as one folder.
  const fs::path study = dir_ / "study";
  const core::VolumePtr ct1 = test::throughDicom(*test::boxImage(1), study / "ct1");
  test::throughDicom(*test::boxImage(2, {14, 12, 6}), study / "ct2");
  fs::create_directories(study / "seg");
  core::NullProgress quiet;
  core::writeDicomSeg(test::boxLabel(*ct1, 7, "Liver"), *ct1, study / "seg" / "liver.dcm", {},
                      quiet);
  ASSERT_TRUE(window_->openPath(QString::fromStdString(study.string())));
  ASSERT_TRUE(test::waitUntil([&] { return window_->seriesList()->scan().allSeries().size() == 3; },
                              60000));
  ASSERT_TRUE(waitSettled());
  auto* list = window_->findChild<QListWidget*>(QStringLiteral("seriesList"));
  ASSERT_NE(list, nullptr);
  const auto all = window_->seriesList()->scan().allSeries();
  int ct1Row = -1;
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (all[i]->seriesInstanceUid == ct1->info().seriesInstanceUid) {
      ct1Row = static_cast<int>(i);
    }
  }
  ASSERT_GE(ct1Row, 0);
  list->clearSelection();
  list->item(ct1Row)->setSelected(true);

  UploadServer server(dir_ / "datastore");
  connectTo(server);
  window_->upload()->showDialog();
  ASSERT_TRUE(dialog()->addStudyButton()->isEnabled());
  dialog()->addStudyButton()->click();
  ASSERT_TRUE(test::waitUntil([&] { return !dialog()->busy() && dialog()->rows().size() == 1; }))
      << dialog()->messageLabel()->text().toStdString();
  const auto& row = dialog()->rows()[0];
  ASSERT_EQ(row.picked.labels.size(), 1u) << "the SEG drawn on the picked series comes with it";
  EXPECT_EQ(row.picked.labels[0].filename(), "liver.dcm");
  const QString shown = dialog()->table()->item(0, app::DatasetCaseTable::SourceColumn)->text();
  EXPECT_TRUE(shown.startsWith(QStringLiteral("Series "))) << shown.toStdString();
  EXPECT_TRUE(dialog()
                  ->table()
                  ->item(0, app::DatasetCaseTable::LabelsColumn)
                  ->text()
                  .contains(QStringLiteral("liver.dcm")));

  dialog()->checkButton()->click();
  ASSERT_TRUE(
      test::waitUntil([&] { return !dialog()->busy() && dialog()->rows()[0].checked; }, 60000));
  ASSERT_TRUE(dialog()->rows()[0].findings.empty()) << dialog()->rows()[0].findings[0].message;
  saveScreenshot(window_.get(), "dataset-upload-study-window.png");
  saveScreenshot(dialog(), "dataset-upload-study.png");
  dialog()->sendButton()->click();
  ASSERT_TRUE(waitQueue([](const up::QueueCounts& c) { return c.done == 1 && c.pending == 0; }))
      << uploads()->note().toStdString() << dialog()->messageLabel()->text().toStdString();
  const auto label = server.app().datastore().labelFile(dialog()->rows()[0].id, "final");
  ASSERT_TRUE(label);
  EXPECT_EQ(countValue(*label, 2), 4u * 4u * 3u) << "'Liver' is the server's 2; the SEG's box";
  EXPECT_EQ(countValue(*label, 7), 0u);

  // Nothing selected: every image series; the one already listed is not added twice.
  list->clearSelection();
  dialog()->addStudyButton()->click();
  ASSERT_TRUE(test::waitUntil([&] { return !dialog()->busy() && dialog()->rows().size() == 2; }))
      << dialog()->messageLabel()->text().toStdString();
  EXPECT_TRUE(dialog()->rows()[1].picked.labels.empty());
}
