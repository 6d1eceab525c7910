// The interactive dialogs, answered the way a user would: the close prompt, the colour picker and
// the crash-recovery prompt. Each test checks what the dialog says and what its answer does.
#include <gtest/gtest.h>

#include <QApplication>
#include <QColorDialog>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>

#include "EditingTestSupport.h"
#include "GuiTestSupport.h"
#include "app/gui/editing/EditSession.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/editing/SegmentsDock.h"
#include "app/gui/shell/RecoveryController.h"
#include "core/edit/EditJournal.h"
#include "core/edit/LabelMapEdit.h"
#include "viewers/SliceView.h"

using namespace delineate;

namespace {

// Waits for the next modal dialog and hands it to `answer` (which must close it). `seen` records
// whether one came.
void answerNextDialog(std::function<void(QWidget*)> answer, bool* seen) {
  auto* timer = new QTimer;
  timer->setInterval(20);
  QObject::connect(timer, &QTimer::timeout, [timer, answer, seen] {
    if (QWidget* modal = QApplication::activeModalWidget()) {
      timer->stop();
      timer->deleteLater();
      *seen = true;
      answer(modal);
    }
  });
  timer->start();
}

void clickButton(QWidget* dialog, const QString& text) {
  for (QPushButton* b : dialog->findChildren<QPushButton*>()) {
    if (b->text().remove(QLatin1Char('&')) == text) {
      b->click();
      return;
    }
  }
  ADD_FAILURE() << "no button " << text.toStdString();
  dialog->close();
}

// A journal left by a process that died, with `voxels` voxels of label 1 painted on `image`.
std::filesystem::path leaveDeadSession(const std::filesystem::path& root, const core::Volume& image,
                                       std::size_t voxels) {
  core::LabelMap lost("Lost labels", image.geometry(), {{.label = 1, .name = "Tumour"}});
  std::filesystem::path folder;
  {
    core::EditJournal journal(root, lost, image.info().sourcePath, true);
    core::LabelMapEdit edit(lost);
    for (std::size_t i = 0; i < voxels; ++i) {
      edit.write(10 + i, 12, 7, 1);
    }
    journal.recordDelta(edit.commit(), true);
    folder = journal.folder();
  }
  std::ifstream in(folder / "manifest.json");
  nlohmann::json m = nlohmann::json::parse(in);
  in.close();
  m["pid"] = 999999999;
  std::ofstream(folder / "manifest.json") << m.dump();
  return folder;
}

class DialogsTest : public test::EditingWindowTest {
 protected:
  DialogsTest() {
    interactive_ = true;
    qputenv("DELINEATE_RECOVERY_DIR", QByteArray::fromStdString((dir_ / "recovery").string()));
  }

  void paintSomething() {
    window_->action("tool.brush")->trigger();
    const core::Vec3 c = centre();
    stroke(view(0), {{c[0] - 5, c[1], c[2]}, {c[0] + 5, c[1], c[2]}});
    ASSERT_TRUE(waitSettled());
    ASSERT_GT(countLabel(1), 0u);
  }
};

}  // namespace

TEST_F(DialogsTest, CloseWithUnsavedWorkNamesTheMapAndCancelKeepsTheWindowOpen) {
  paintSomething();
  QString text;
  bool seen = false;
  answerNextDialog(
      [&text](QWidget* w) {
        auto* box = qobject_cast<QMessageBox*>(w);
        ASSERT_NE(box, nullptr);
        text = box->text();
        box->button(QMessageBox::Cancel)->click();
      },
      &seen);
  EXPECT_FALSE(window_->close());
  EXPECT_TRUE(seen);
  EXPECT_TRUE(text.contains(QStringLiteral("Segmentation"))) << text.toStdString();
  EXPECT_TRUE(window_->isVisible());
  EXPECT_GT(countLabel(1), 0u) << "nothing was lost";

  seen = false;
  answerNextDialog(
      [](QWidget* w) { qobject_cast<QMessageBox*>(w)->button(QMessageBox::Discard)->click(); },
      &seen);
  EXPECT_TRUE(window_->close());
  EXPECT_TRUE(seen);
}

TEST_F(DialogsTest, TheColourPickerRecoloursTheSegmentAsOneUndoStep) {
  paintSomething();
  const std::array<std::uint8_t, 3> before = session()->activeMap()->segment(1)->color;
  const QColor old = colourAt(view(0), centre());
  bool seen = false;
  QString title;
  answerNextDialog(
      [&title](QWidget* w) {
        auto* dialog = qobject_cast<QColorDialog*>(w);
        ASSERT_NE(dialog, nullptr);
        title = dialog->windowTitle();
        dialog->setCurrentColor(QColor(200, 30, 40));
        dialog->accept();
      },
      &seen);
  editing()->segmentsDock()->chooseColor(1);
  EXPECT_TRUE(seen);
  EXPECT_TRUE(title.contains(QString::fromStdString(session()->activeMap()->segment(1)->name)));
  const std::array<std::uint8_t, 3> after{200, 30, 40};
  EXPECT_EQ(session()->activeMap()->segment(1)->color, after);
  ASSERT_TRUE(waitSettled());
  const QColor shown = colourAt(view(0), centre());
  EXPECT_GT(shown.red(), old.red() + 20) << "the views draw the new colour";
  EXPECT_LT(shown.green(), old.green() - 20) << "the views draw the new colour";
  session()->undo();
  EXPECT_EQ(session()->activeMap()->segment(1)->color, before);
  EXPECT_GT(countLabel(1), 0u) << "undo of the colour keeps the voxels";
}

TEST_F(DialogsTest, TheRecoveryPromptListsTheLostWorkAndRecoversIt) {
  const auto image = session()->image();
  leaveDeadSession(dir_ / "recovery", *image, 30);
  bool seen = false;
  QString item;
  answerNextDialog(
      [&item](QWidget* w) {
        EXPECT_EQ(w->objectName(), QStringLiteral("recoveryDialog"));
        auto* list = w->findChild<QListWidget*>();
        ASSERT_NE(list, nullptr);
        ASSERT_EQ(list->count(), 1);
        item = list->item(0)->text();
        clickButton(w, QStringLiteral("Recover"));
      },
      &seen);
  const QString source = editing()->recovery()->offer(app::RecoveryController::Mode::Ask, nullptr);
  EXPECT_TRUE(seen);
  EXPECT_TRUE(item.contains(QStringLiteral("Lost labels"))) << item.toStdString();
  EXPECT_EQ(source.toStdString(), image->info().sourcePath);
  ASSERT_TRUE(test::waitUntil([&] { return !editing()->recovery()->pending(); }));
  ASSERT_NE(session()->activeMap(), nullptr);
  EXPECT_EQ(session()->activeMap()->name(), "Lost labels");
  EXPECT_EQ(countLabel(1), 30u);
  EXPECT_TRUE(session()->hasUnsavedChanges());
  session()->undo();
  EXPECT_EQ(countLabel(1), 0u) << "recovery is one undo step";
}

TEST_F(DialogsTest, DiscardAllInTheRecoveryPromptRemovesTheSessions) {
  const auto folder = leaveDeadSession(dir_ / "recovery", *session()->image(), 1);
  bool seen = false;
  answerNextDialog([](QWidget* w) { clickButton(w, QStringLiteral("Discard all")); }, &seen);
  EXPECT_TRUE(editing()->recovery()->offer(app::RecoveryController::Mode::Ask, nullptr).isEmpty());
  EXPECT_TRUE(seen);
  EXPECT_FALSE(std::filesystem::exists(folder));
}
