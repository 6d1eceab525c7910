// The annotator loop in the real window against delineate-server's handler in this process (on
// 127.0.0.1, a file datastore of two synthetic CTs, a shell training command): Next sample shows
// the server's first unlabelled image (read from the server's disk, or downloaded when the server
// is "remote" and its paths are not on this disk), a painted segment named as the server's label
// is submitted as the image's final label with the server's value, the next sample is the other
// image, a segment the server does not know is refused before anything is sent, training is
// started (after submitting, when asked), followed to DONE with its epochs plotted, and stopped;
// a server that went away gives a message naming it, and the buttons work again.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QTimer>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <thread>

#include "EditingTestSupport.h"
#include "GuiTestSupport.h"
#include "LoopServer.h"
#include "SyntheticCt.h"
#include "annotation/engine/LocalEngineBackend.h"
#include "app/gui/MainWindow.h"
#include "app/gui/ai/AiController.h"
#include "app/gui/annotator/AnnotatorLoop.h"
#include "app/gui/annotator/AnnotatorLoopDock.h"
#include "app/gui/annotator/AnnotatorLoopFeature.h"
#include "app/gui/annotator/TrainingChart.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/editing/ToolController.h"
#include "app/gui/upload/UploadController.h"
#include "app/gui/upload/UploadFeature.h"
#include "core/io/VolumeFileIO.h"

using namespace delineate;
using nlohmann::json;
using test::LoopServer;
using test::SyntheticCt;

namespace {

// Three epochs of about a second, each leaving train_stats.json (by rename) in the shape
// delineate-server reads: current/total epochs, best metric, the metrics and their history.
constexpr const char* kTrainCommand = R"(h=''
for e in 1 2 3; do
  sleep 1
  d=$((5 + e)); l=$((9 - 2 * e))
  h="${h:+$h, }{\"epoch\": $e, \"train_loss\": 0.$l, \"val_mean_dice\": 0.$d}"
  printf '{"current_epoch": %d, "total_epochs": 3, "best_metric": 0.%d, "train": {"metrics": {"train_loss": 0.%d}}, "eval": {"metrics": {"val_mean_dice": 0.%d}, "key_metric_name": "val_mean_dice", "best_metric": 0.%d, "best_metric_epoch": %d}, "history": [%s]}' $e $d $l $d $d $e "$h" > train_stats.json.part
  mv train_stats.json.part train_stats.json
done)";

class AnnotatorLoopTest : public test::EditingWindowTest {
 protected:
  // Two synthetic CTs in the server's datastore folder: images the datastore lists as it opens.
  std::filesystem::path makeDatastore() {
    const std::filesystem::path store = dir_ / "datastore";
    std::filesystem::create_directories(store / "images");
    const core::VolumePtr ct = SyntheticCt::make();
    core::writeVolumeFile(*ct, store / "images" / "case_a.nii.gz");
    core::writeVolumeFile(*ct, store / "images" / "case_b.nii.gz");
    return store;
  }

  void connectTo(const LoopServer& server) {
    const int index = ai()->addServer(server.url());
    ai()->setBackend(index);
    ASSERT_TRUE(test::waitUntil([&] { return ai()->connected() && loop()->server(); }, 30000))
        << ai()->backends()[std::size_t(index)].status.toStdString();
    window_->annotatorLoop()->show();
    ASSERT_TRUE(test::waitUntil([&] { return panel()->strategyCombo()->count() > 0; }));
  }

  // Next sample by "first" from the dock; waits until the image is shown (or the job ended).
  void nextSample() {
    panel()->strategyCombo()->setCurrentText(QStringLiteral("first"));
    ASSERT_TRUE(panel()->nextButton()->isEnabled());
    bool shown = false;
    const auto c =
        QObject::connect(loop(), &app::AnnotatorLoop::sampleShown, [&shown] { shown = true; });
    panel()->nextButton()->click();
    const bool ok = test::waitUntil([&] { return shown; }, 60000);
    QObject::disconnect(c);
    ASSERT_TRUE(ok) << panel()->messageLabel()->text().toStdString();
    ASSERT_TRUE(waitSettled());
  }

  // A brush stroke through the bead's slice into a new label map's first segment, named `name`.
  void paintSegment(const QString& name) {
    session()->ensureLabelMap();
    ASSERT_TRUE(session()->renameSegment(session()->activeLabel(), name));
    window_->action("tool.brush")->trigger();
    editing()->tools()->setBrushRadiusMm(3);
    stroke(view(0), {{0, 0, 0}, {6, 0, 0}});
    ASSERT_TRUE(waitSettled());
    ASSERT_GT(countLabel(), 0u);
  }

  bool waitIdle(int ms = 60000) {
    return test::waitUntil([&] { return !loop()->busy(); }, ms);
  }

  app::AiController* ai() const { return editing()->ai(); }
  app::AnnotatorLoop* loop() const { return window_->annotatorLoop()->loop(); }
  app::AnnotatorLoopDock* panel() const { return window_->annotatorLoop()->panel(); }
  QString shownPath() const { return QString::fromStdString(window_->volume()->info().sourcePath); }
};

std::size_t countValue(const core::Volume& v, double value) {
  const auto& size = v.geometry().size;
  std::size_t n = 0;
  for (std::size_t k = 0; k < size[2]; ++k) {
    for (std::size_t j = 0; j < size[1]; ++j) {
      for (std::size_t i = 0; i < size[0]; ++i) {
        n += v.valueAt(i, j, k) == value;
      }
    }
  }
  return n;
}

}  // namespace

TEST_F(AnnotatorLoopTest, NextSampleSubmitAndTheNextImageAfterIt) {
  test::ForgetServers forget;
  const std::filesystem::path store = makeDatastore();
  LoopServer server(store, kTrainCommand);
  connectTo(server);
  EXPECT_TRUE(panel()->serverLabel()->text().contains(server.url()));
  EXPECT_TRUE(loop()->schemaNames().contains(QStringLiteral("Lateral ventricles")));

  nextSample();
  EXPECT_EQ(loop()->sampleId(), QStringLiteral("case_a"));
  EXPECT_EQ(panel()->sampleLabel()->text(), QStringLiteral("case_a"));
  EXPECT_EQ(std::filesystem::path(shownPath().toStdString()), store / "images" / "case_a.nii.gz")
      << "the server's file, read in place: this machine sees its disk";
  EXPECT_TRUE(panel()->submitButton()->isEnabled());

  // The annotator's own spelling of one of the server's labels.
  paintSegment(QStringLiteral("lateral ventricles "));
  const std::size_t painted = countLabel();
  EXPECT_TRUE(session()->hasUnsavedChanges());
  bool submitted = false;
  QObject::connect(loop(), &app::AnnotatorLoop::submitted, [&submitted] { submitted = true; });
  panel()->submitButton()->click();
  ASSERT_TRUE(test::waitUntil([&] { return submitted; }, 60000))
      << panel()->messageLabel()->text().toStdString();
  EXPECT_FALSE(session()->hasUnsavedChanges()) << "the server holds the work now";

  const auto file = server.app().datastore().labelFile("case_a", "final");
  ASSERT_TRUE(file.has_value());
  core::NullProgress quiet;
  const core::VolumePtr stored = core::readVolumeFile(*file, quiet);
  EXPECT_EQ(countValue(*stored, 2), painted) << "the server's value of Lateral ventricles";
  EXPECT_EQ(countValue(*stored, 1), 0u);
  const json info = server.app().datastore().all()["objects"]["case_a"]["labels"]["final"]["info"];
  ASSERT_TRUE(info.contains("label_info")) << info.dump();
  ASSERT_EQ(info["label_info"].size(), 1u) << info.dump();
  EXPECT_EQ(info["label_info"][0]["name"], "Lateral ventricles");
  EXPECT_EQ(info["label_info"][0]["idx"], 2);
  EXPECT_FALSE(loop()->polling()) << "no training asked for, nothing polled";

  ASSERT_TRUE(waitIdle());
  nextSample();
  EXPECT_EQ(loop()->sampleId(), QStringLiteral("case_b")) << "case_a has its final label";
  EXPECT_EQ(countLabel(), 0u) << "a new image starts without labels";
}

TEST_F(AnnotatorLoopTest, EachReaderSubmitsTheirReadingAndTheNextOpensThemAll) {
  test::ForgetServers forget;
  QSettings().setValue(QStringLiteral("preferences/readerName"), QStringLiteral("Dr A"));
  const std::filesystem::path store = makeDatastore();
  LoopServer server(store, kTrainCommand);
  connectTo(server);
  nextSample();
  EXPECT_EQ(panel()->submitReadingButton()->text(), QStringLiteral("Submit as Dr A's reading"));
  paintSegment(QStringLiteral("Lateral ventricles"));
  const std::size_t paintedA = countLabel();
  int submitted = 0;
  QObject::connect(loop(), &app::AnnotatorLoop::submitted, [&submitted] { ++submitted; });
  panel()->submitReadingButton()->click();
  ASSERT_TRUE(test::waitUntil([&] { return submitted == 1; }, 60000))
      << panel()->messageLabel()->text().toStdString();
  EXPECT_TRUE(panel()->messageLabel()->text().contains(QStringLiteral("reader-dr_a")))
      << panel()->messageLabel()->text().toStdString();
  EXPECT_FALSE(session()->hasUnsavedChanges()) << "the server holds the reading";

  // A second reader at the same workstation, reading more of it.
  QSettings().setValue(QStringLiteral("preferences/readerName"), QStringLiteral("Dr B"));
  ASSERT_TRUE(waitIdle());
  stroke(view(0), {{0, 8, 0}, {6, 8, 0}});
  ASSERT_TRUE(waitSettled());
  const std::size_t paintedB = countLabel();
  ASSERT_GT(paintedB, paintedA);
  panel()->submitReadingButton()->click();
  ASSERT_TRUE(test::waitUntil([&] { return submitted == 2; }, 60000))
      << panel()->messageLabel()->text().toStdString();
  QSettings().remove(QStringLiteral("preferences/readerName"));
  EXPECT_FALSE(server.app().datastore().labelFile("case_a", "final").has_value())
      << "readings leave the final label to the adjudicator";
  EXPECT_TRUE(server.app().datastore().labelFile("case_a", "reader-dr_a").has_value());
  EXPECT_TRUE(server.app().datastore().labelFile("case_a", "reader-dr_b").has_value());

  // The adjudicator's Next sample: the same image, still without a final label, with both
  // readings as label maps named after their readers.
  ASSERT_TRUE(waitIdle());
  panel()->readersBox()->setChecked(true);
  nextSample();
  EXPECT_EQ(loop()->sampleId(), QStringLiteral("case_a"));
  ASSERT_TRUE(test::waitUntil([&] { return session()->document().labelMaps().size() == 2; }, 60000))
      << panel()->messageLabel()->text().toStdString();
  ASSERT_TRUE(waitSettled());
  std::map<std::string, std::size_t> voxels;
  for (const auto& map : session()->document().labelMaps()) {
    const core::Segment* s = map->segment(2);
    ASSERT_NE(s, nullptr) << map->name();
    EXPECT_EQ(s->name, "Lateral ventricles") << "the server's name for value 2";
    std::size_t n = 0;
    for (std::size_t i = 0; i < map->voxelCount(); ++i) {
      n += map->data()[i] == 2 ? 1 : 0;
    }
    voxels[map->name()] = n;
  }
  EXPECT_EQ(voxels["Dr A"], paintedA);
  EXPECT_EQ(voxels["Dr B"], paintedB);
  EXPECT_TRUE(panel()->messageLabel()->text().contains(QStringLiteral("Dr A, Dr B")))
      << panel()->messageLabel()->text().toStdString();
}

TEST_F(AnnotatorLoopTest, ASegmentTheServerDoesNotKnowIsRefusedBeforeAnythingIsSent) {
  test::ForgetServers forget;
  LoopServer server(makeDatastore(), kTrainCommand);
  connectTo(server);
  nextSample();
  paintSegment(QStringLiteral("Tumour"));
  const std::vector<std::uint16_t> before = labelVoxels();
  panel()->submitButton()->click();
  ASSERT_TRUE(waitIdle());
  ASSERT_TRUE(test::waitUntil([&] { return !errors_.empty(); }));
  const QString shown = panel()->messageLabel()->text();
  EXPECT_TRUE(shown.contains(QStringLiteral("'Tumour'"))) << shown.toStdString();
  EXPECT_TRUE(
      shown.contains(QStringLiteral("White matter, Lateral ventricles, Left hippocampus, "
                                    "Right hippocampus")))
      << shown.toStdString();
  EXPECT_TRUE(shown.contains(server.url())) << shown.toStdString();
  EXPECT_FALSE(server.app().datastore().labelFile("case_a", "final").has_value());
  EXPECT_EQ(server.app().datastore().stats()["completed"], 0);
  EXPECT_EQ(labelVoxels(), before) << "the annotation is untouched";
  EXPECT_TRUE(session()->hasUnsavedChanges());
  EXPECT_TRUE(panel()->submitButton()->isEnabled());
  EXPECT_TRUE(panel()->nextButton()->isEnabled());
}

TEST_F(AnnotatorLoopTest, AServerOnAnotherMachineSendsTheImageAndItsOriginalLabel) {
  test::ForgetServers forget;
  const std::filesystem::path store = makeDatastore();
  LoopServer server(store, kTrainCommand, /*remote=*/true);
  // A model's pre-segmentation stored as case_a's `original` label: the bead as value 1.
  {
    const core::VolumePtr ct = SyntheticCt::make();
    core::LabelMap original("original", ct->geometry());
    const auto& size = ct->geometry().size;
    for (std::size_t k = 0; k < size[2]; ++k) {
      for (std::size_t j = 0; j < size[1]; ++j) {
        for (std::size_t i = 0; i < size[0]; ++i) {
          original.mutableData()[original.index(i, j, k)] = ct->valueAt(i, j, k) > 900 ? 1 : 0;
        }
      }
    }
    const std::filesystem::path file = dir_ / "original.nii.gz";
    core::writeVolumeFile(*original.asVolume(), file);
    std::ifstream in(file, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), {});
    ASSERT_TRUE(server.app().datastore().putLabel("case_a", "original", "case_a.nii.gz", bytes,
                                                  json::object()));
  }
  connectTo(server);
  panel()->originalBox()->setChecked(true);
  const std::size_t mapsBefore = session()->document().labelMaps().size();
  nextSample();
  EXPECT_EQ(loop()->sampleId(), QStringLiteral("case_a"));
  EXPECT_NE(std::filesystem::path(shownPath().toStdString()).parent_path(), store / "images");
  EXPECT_TRUE(shownPath().endsWith(QStringLiteral("case_a.nii.gz"))) << shownPath().toStdString();
  EXPECT_TRUE(panel()->messageLabel()->text().contains(QStringLiteral("downloaded")))
      << panel()->messageLabel()->text().toStdString();
  ASSERT_TRUE(test::waitUntil([&] { return !session()->document().labelMaps().empty(); }));
  ASSERT_TRUE(waitSettled());
  EXPECT_GE(session()->document().labelMaps().size(), std::max<std::size_t>(mapsBefore, 1));
  EXPECT_GT(countLabel(1), 150u) << "the original label: the bead";
}

TEST_F(AnnotatorLoopTest, SubmittingStartsTrainingWhichIsFollowedToDoneAndPlotted) {
  test::ForgetServers forget;
  LoopServer server(makeDatastore(), kTrainCommand);
  connectTo(server);
  loop()->setPollInterval(150);
  nextSample();
  paintSegment(QStringLiteral("White matter"));
  panel()->trainAfterSubmitBox()->setChecked(true);
  QStringList states;
  QObject::connect(loop(), &app::AnnotatorLoop::trainingChanged, [&] {
    if (loop()->trainStatus()) {
      states << QString::fromStdString(loop()->trainStatus()->state);
    }
  });
  panel()->submitButton()->click();
  // SUBMITTED is the start call's own answer; RUNNING comes from a poll.
  ASSERT_TRUE(test::waitUntil(
      [&] {
        return states.contains(QStringLiteral("SUBMITTED")) ||
               states.contains(QStringLiteral("RUNNING"));
      },
      30000))
      << panel()->messageLabel()->text().toStdString();
  EXPECT_TRUE(loop()->polling()) << "the dock is visible and a run is going";
  EXPECT_FALSE(panel()->startTrainingButton()->isEnabled());
  EXPECT_TRUE(panel()->stopTrainingButton()->isEnabled());
  ASSERT_TRUE(test::waitUntil([&] { return states.contains(QStringLiteral("DONE")); }, 30000))
      << states.join(QLatin1Char(',')).toStdString() << " / "
      << panel()->messageLabel()->text().toStdString();
  const QString status = panel()->trainingLabel()->text();
  EXPECT_TRUE(status.contains(QStringLiteral("DONE"))) << status.toStdString();
  EXPECT_TRUE(status.contains(QStringLiteral("epoch 3/3"))) << status.toStdString();
  EXPECT_TRUE(status.contains(QStringLiteral("best val_mean_dice 0.800"))) << status.toStdString();
  EXPECT_EQ(panel()->chart()->metricPoints(), 3);
  EXPECT_EQ(panel()->chart()->lossPoints(), 3);
  EXPECT_EQ(panel()->chart()->metricName(), QStringLiteral("val_mean_dice"));
  EXPECT_FALSE(loop()->polling()) << "done: no more polls";
  EXPECT_TRUE(panel()->startTrainingButton()->isEnabled());
  const QByteArray tmp = qgetenv("DELINEATE_TEST_TMP");
  const QString folder =
      tmp.isEmpty() ? QString::fromStdString(dir_.path().string()) : QString::fromLocal8Bit(tmp);
  ASSERT_TRUE(QDir().mkpath(folder)) << folder.toStdString();  // a fresh build has none yet
  const QString shot = folder + QStringLiteral("/annotator-loop-dock.png");
  EXPECT_TRUE(window_->annotatorLoop()->dock()->grab().save(shot));
}

TEST_F(AnnotatorLoopTest, AStatusAskedBeforeTrainingStartedDoesNotEndTheFollowing) {
  test::ForgetServers forget;
  LoopServer server(makeDatastore(), kTrainCommand);
  server.delayNextStatus(2500);
  const int index = ai()->addServer(server.url());
  ai()->setBackend(index);
  ASSERT_TRUE(test::waitUntil([&] { return ai()->connected() && loop()->server(); }, 30000));
  window_->annotatorLoop()->show();  // asks once what runs now; the answer is held back
  ASSERT_TRUE(test::waitUntil([&] { return panel()->startTrainingButton()->isEnabled(); }));
  panel()->startTrainingButton()->click();
  ASSERT_TRUE(test::waitUntil([&] {
    return loop()->trainStatus() && loop()->trainStatus()->running;
  })) << panel()->messageLabel()->text().toStdString();
  // The held-back answer ("nothing runs") lands after the start: it must not stop the polls.
  ASSERT_TRUE(test::waitUntil(
      [&] { return loop()->trainStatus() && loop()->trainStatus()->state == "DONE"; }, 30000))
      << panel()->trainingLabel()->text().toStdString();
  EXPECT_TRUE(panel()->trainingLabel()->text().contains(QStringLiteral("epoch 3/3")))
      << panel()->trainingLabel()->text().toStdString();
}

// The snapshot of the folder uploaded to this server (the upload dialog records it) is named in
// the training request, and the server's run keeps it beside the snapshot of its own datastore.
TEST_F(AnnotatorLoopTest, TrainingNamesTheSnapshotUploadedToThisServer) {
  test::ForgetServers forget;
  LoopServer server(makeDatastore(), kTrainCommand);
  connectTo(server);
  const QString id = QStringLiteral("3f1c9a2b7d10") + QString(52, QLatin1Char('a'));
  window_->upload()->controller()->setSentSnapshots(server.url(), {id});
  window_->annotatorLoop()->show();
  ASSERT_TRUE(test::waitUntil([&] { return panel()->startTrainingButton()->isEnabled(); }));
  panel()->startTrainingButton()->click();
  // The start's answer (or a poll after it) is the run's status, with the request it was given.
  ASSERT_TRUE(test::waitUntil(
      [&] { return loop()->trainStatus() && loop()->trainStatus()->raw.contains("request"); },
      30000))
      << panel()->messageLabel()->text().toStdString();
  const nlohmann::json raw = loop()->trainStatus()->raw;
  EXPECT_EQ(raw["request"].value("dataset_snapshot", ""), id.toStdString()) << raw.dump();
  EXPECT_EQ(raw.value("dataset_snapshot", "").size(), 64u) << "the server's own snapshot";
  EXPECT_TRUE(panel()->messageLabel()->text().contains(QStringLiteral("3f1c9a2b7d10")))
      << panel()->messageLabel()->text().toStdString();
  ASSERT_TRUE(test::waitUntil(
      [&] { return loop()->trainStatus() && loop()->trainStatus()->state == "DONE"; }, 30000));
}

// A poll that fails (the server busy with a long inference) is tried again: the run is followed
// to its end.
TEST_F(AnnotatorLoopTest, AFailedStatusPollIsTriedAgainAndTheRunFollowedToItsEnd) {
  test::ForgetServers forget;
  LoopServer server(makeDatastore(), kTrainCommand);
  connectTo(server);
  loop()->setPollInterval(150);
  window_->annotatorLoop()->show();
  ASSERT_TRUE(test::waitUntil([&] { return panel()->startTrainingButton()->isEnabled(); }));
  panel()->startTrainingButton()->click();
  ASSERT_TRUE(test::waitUntil([&] { return loop()->polling(); }, 30000))
      << panel()->messageLabel()->text().toStdString();
  server.failNextStatuses(2);
  ASSERT_TRUE(test::waitUntil([&] {
    return panel()->messageLabel()->text().contains(QStringLiteral("trying again"));
  })) << panel()->messageLabel()->text().toStdString();
  EXPECT_TRUE(loop()->polling()) << "one failed poll does not end the following";
  ASSERT_TRUE(test::waitUntil(
      [&] { return loop()->trainStatus() && loop()->trainStatus()->state == "DONE"; }, 30000))
      << panel()->messageLabel()->text().toStdString();
}

TEST_F(AnnotatorLoopTest, TrainingStopsWhenAskedAndPollingStopsWhenTheDockHides) {
  test::ForgetServers forget;
  LoopServer server(makeDatastore(), "sleep 30");
  connectTo(server);
  loop()->setPollInterval(150);
  panel()->startTrainingButton()->click();
  ASSERT_TRUE(test::waitUntil([&] { return loop()->polling(); }, 30000))
      << panel()->messageLabel()->text().toStdString();
  window_->annotatorLoop()->dock()->hide();
  EXPECT_FALSE(loop()->polling()) << "nobody looks: no polls";
  window_->action("ai.training")->trigger();
  EXPECT_TRUE(window_->annotatorLoop()->dock()->isVisible());
  EXPECT_TRUE(loop()->polling());
  ASSERT_TRUE(test::waitUntil([&] { return panel()->stopTrainingButton()->isEnabled(); }));
  panel()->stopTrainingButton()->click();
  ASSERT_TRUE(test::waitUntil(
      [&] { return loop()->trainStatus() && loop()->trainStatus()->state == "STOPPED"; }, 30000))
      << panel()->trainingLabel()->text().toStdString();
  EXPECT_FALSE(loop()->polling());
  EXPECT_TRUE(panel()->trainingLabel()->text().contains(QStringLiteral("STOPPED")));
  EXPECT_TRUE(panel()->startTrainingButton()->isEnabled());
}

TEST_F(AnnotatorLoopTest, AServerThatWentAwayIsNamedAndTheWorkAndButtonsStay) {
  test::ForgetServers forget;
  LoopServer server(makeDatastore(), kTrainCommand);
  connectTo(server);
  nextSample();
  paintSegment(QStringLiteral("White matter"));
  const std::vector<std::uint16_t> before = labelVoxels();
  server.stop();

  errors_.clear();
  panel()->submitButton()->click();
  ASSERT_TRUE(waitIdle());
  ASSERT_TRUE(test::waitUntil([&] { return !errors_.empty(); }));
  EXPECT_TRUE(errors_.back().contains(server.url())) << errors_.back().toStdString();
  EXPECT_EQ(labelVoxels(), before);
  EXPECT_TRUE(session()->hasUnsavedChanges());

  errors_.clear();
  window_->action("ai.nextSample")->trigger();
  ASSERT_TRUE(waitIdle());
  ASSERT_TRUE(test::waitUntil([&] { return !errors_.empty(); }));
  EXPECT_TRUE(errors_.back().contains(server.url())) << errors_.back().toStdString();
  EXPECT_TRUE(panel()->messageLabel()->text().contains(server.url()));
  EXPECT_EQ(loop()->sampleId(), QStringLiteral("case_a")) << "still the image shown";
  EXPECT_EQ(labelVoxels(), before);
  EXPECT_TRUE(panel()->nextButton()->isEnabled());
  EXPECT_TRUE(panel()->submitButton()->isEnabled());
  EXPECT_TRUE(panel()->startTrainingButton()->isEnabled());
}

namespace {

// Dialogs are shown: Next sample over unsaved work asks first, as opening any image does.
class AnnotatorLoopAskingTest : public AnnotatorLoopTest {
 protected:
  AnnotatorLoopAskingTest() {
    interactive_ = true;
    qputenv("DELINEATE_RECOVERY_DIR", QByteArray::fromStdString((dir_ / "recovery").string()));
  }
};

// Presses `button` in the next message box and records its text.
void answerNextMessageBox(QMessageBox::StandardButton button, QString* text) {
  auto* timer = new QTimer;
  timer->setInterval(20);
  QObject::connect(timer, &QTimer::timeout, [=] {
    auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget());
    if (box == nullptr || !box->isVisible()) {
      return;
    }
    timer->stop();
    timer->deleteLater();
    *text = box->text();
    box->button(button)->click();
  });
  timer->start();
}

}  // namespace

TEST_F(AnnotatorLoopAskingTest, NextSampleOverUnsavedWorkAsksBeforeAskingTheServer) {
  test::ForgetServers forget;
  LoopServer server(makeDatastore(), kTrainCommand);
  connectTo(server);
  paintSegment(QStringLiteral("White matter"));
  const std::vector<std::uint16_t> before = labelVoxels();
  const QString image = shownPath();

  QString asked;
  answerNextMessageBox(QMessageBox::Cancel, &asked);
  panel()->nextButton()->click();
  EXPECT_TRUE(asked.contains(QStringLiteral("Unsaved changes"))) << asked.toStdString();
  ASSERT_TRUE(waitIdle());
  EXPECT_EQ(shownPath(), image);
  EXPECT_EQ(labelVoxels(), before);
  EXPECT_FALSE(
      server.app().datastore().all()["objects"]["case_a"]["image"]["info"].contains("strategy"))
      << "nothing was asked of the server";

  asked.clear();
  answerNextMessageBox(QMessageBox::Discard, &asked);
  bool shown = false;
  QObject::connect(loop(), &app::AnnotatorLoop::sampleShown, [&shown] { shown = true; });
  panel()->nextButton()->click();
  EXPECT_FALSE(asked.isEmpty());
  ASSERT_TRUE(test::waitUntil([&] { return shown; }, 60000));
  EXPECT_EQ(loop()->sampleId(), QStringLiteral("case_a"));
}

TEST_F(AnnotatorLoopTest, TheLoopsCommandsHaveShortcutsNoOtherCommandUses) {
  std::map<QString, QStringList> byKey;
  for (const QString& id : window_->commandIds()) {
    for (const QKeySequence& key : window_->action(id)->shortcuts()) {
      byKey[key.toString()] << id;
    }
  }
  for (const char* id : {"ai.nextSample", "ai.submitLabel", "ai.training"}) {
    const QAction* a = window_->action(QString::fromLatin1(id));
    ASSERT_NE(a, nullptr) << id;
    ASSERT_FALSE(a->shortcut().isEmpty()) << id;
    EXPECT_EQ(byKey[a->shortcut().toString()], QStringList{QString::fromLatin1(id)})
        << a->shortcut().toString().toStdString();
  }
  // Without a server the loop says what is missing instead of failing later.
  EXPECT_FALSE(panel()->nextButton()->isEnabled());
  EXPECT_FALSE(panel()->submitButton()->isEnabled());
  EXPECT_TRUE(panel()->serverLabel()->text().contains(QStringLiteral("AI panel")));
}
