#include "app/gui/shell/RecoveryController.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cstdlib>

#include "app/gui/editing/EditSession.h"
#include "app/gui/shell/JobRunner.h"
#include "core/edit/LabelMapEdit.h"

namespace delineate::app {

namespace fs = std::filesystem;

namespace {

// The dialog: which session to recover, or discard them all, or decide later.
enum class Choice { Recover, Discard, Later };

Choice askUser(const std::vector<core::RecoverableSession>& sessions, QWidget* parent, int& row) {
  QDialog dialog(parent);
  dialog.setObjectName(QStringLiteral("recoveryDialog"));
  dialog.setWindowTitle(QObject::tr("Recover unsaved segmentations"));
  auto* text = new QLabel(QObject::tr("Delineate stopped before these label maps were saved. "
                                      "Recover one?"),
                          &dialog);
  text->setWordWrap(true);
  auto* list = new QListWidget(&dialog);
  for (const core::RecoverableSession& s : sessions) {
    list->addItem(QObject::tr("%1 — %2\n    started %3")
                      .arg(QString::fromStdString(s.labelName),
                           QString::fromStdString(s.sourcePath),
                           QString::fromStdString(s.started)));
  }
  list->setCurrentRow(0);
  auto* buttons = new QDialogButtonBox(&dialog);
  QPushButton* recover = buttons->addButton(QObject::tr("Recover"), QDialogButtonBox::AcceptRole);
  QPushButton* discard =
      buttons->addButton(QObject::tr("Discard all"), QDialogButtonBox::DestructiveRole);
  buttons->addButton(QObject::tr("Not now"), QDialogButtonBox::RejectRole);
  Choice choice = Choice::Later;
  QObject::connect(recover, &QPushButton::clicked, &dialog, [&] {
    choice = Choice::Recover;
    dialog.accept();
  });
  QObject::connect(discard, &QPushButton::clicked, &dialog, [&] {
    choice = Choice::Discard;
    dialog.accept();
  });
  QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
  auto* layout = new QVBoxLayout(&dialog);
  layout->addWidget(text);
  layout->addWidget(list);
  layout->addWidget(buttons);
  dialog.resize(560, 260);
  dialog.exec();
  row = std::max(0, list->currentRow());
  return choice;
}

}  // namespace

RecoveryController::RecoveryController(EditSession* session, bool interactive, QObject* parent)
    : QObject(parent), edits_(session), jobs_(new JobRunner(this)), interactive_(interactive) {}

RecoveryController::~RecoveryController() {
  jobs_->cancel();
  jobs_->waitForIdle();
}

fs::path RecoveryController::recoveryRoot() {
  if (const char* dir = std::getenv("DELINEATE_RECOVERY_DIR"); dir != nullptr && *dir != '\0') {
    return dir;
  }
  return core::EditJournal::defaultRoot();
}

std::vector<core::RecoverableSession> RecoveryController::findSessions() {
  auto sessions = core::EditJournal::findRecoverable(recoveryRoot());
  // A journal without records lost nothing: its base is what was opened or last saved.
  std::erase_if(sessions, [](const core::RecoverableSession& s) {
    if (s.records > 0) {
      return false;
    }
    std::error_code ec;
    std::filesystem::remove_all(s.folder, ec);
    return true;
  });
  std::sort(sessions.begin(), sessions.end(),
            [](const auto& a, const auto& b) { return a.started > b.started; });
  return sessions;
}

QString RecoveryController::offer(Mode mode, QWidget* parent) {
  const auto sessions = findSessions();
  if (sessions.empty() || mode == Mode::Skip || (mode == Mode::Ask && !interactive_)) {
    return QString();
  }
  int row = 0;
  if (mode == Mode::Ask) {
    const Choice choice = askUser(sessions, parent, row);
    if (choice == Choice::Discard) {
      for (const auto& s : sessions) {
        std::error_code ec;
        fs::remove_all(s.folder, ec);
      }
      return QString();
    }
    if (choice == Choice::Later) {
      return QString();
    }
  }
  const core::RecoverableSession& chosen = sessions[static_cast<std::size_t>(row)];
  recover(chosen);
  return QString::fromStdString(chosen.sourcePath);
}

std::shared_ptr<RecoveryController::Built> RecoveryController::build(
    const core::RecoverableSession& session, core::ProgressSink& progress) {
  progress.report(0.0, "Reading the journal");
  const core::LabelMap recovered = core::EditJournal::recover(session);
  progress.throwIfCancelled();
  std::vector<core::Segment> unlocked = recovered.segments();
  for (core::Segment& s : unlocked) {
    s.locked = false;  // the edit below must be able to write every label
  }
  auto built = std::make_shared<Built>();
  built->map = std::make_shared<core::LabelMap>(recovered.name(), recovered.geometry(), unlocked);
  core::LabelMapEdit edit(*built->map);
  const core::Size3& n = recovered.geometry().size;
  const std::uint16_t* src = recovered.data();
  for (std::size_t k = 0, idx = 0; k < n[2]; ++k) {
    progress.report(0.5 + 0.5 * static_cast<double>(k) / static_cast<double>(n[2]),
                    "Rebuilding the label map");
    for (std::size_t j = 0; j < n[1]; ++j) {
      for (std::size_t i = 0; i < n[0]; ++i, ++idx) {
        if (src[idx] != 0) {
          edit.write(i, j, k, src[idx]);
        }
      }
    }
  }
  built->restore = edit.commit();
  built->map->segments() = recovered.segments();
  return built;
}

void RecoveryController::recover(const core::RecoverableSession& session) {
  reading_ = true;
  session_ = session;
  source_ = QString::fromStdString(session.sourcePath);
  jobs_->run<std::shared_ptr<Built>>(
      tr("Recovering %1").arg(QString::fromStdString(session.labelName)),
      [session](core::ProgressSink& progress) { return build(session, progress); },
      [this](std::shared_ptr<Built> built) {
        reading_ = false;
        recovered_ = std::move(built);
        tryInstall();
      },
      [this](const QString& error, bool) {
        reading_ = false;
        const QString message = tr("Cannot recover the session in %1:\n%2")
                                    .arg(QString::fromStdString(session_.folder.string()), error);
        Q_EMIT failed(message);
      });
}

void RecoveryController::tryInstall() {
  const core::VolumePtr& image = edits_->image();
  if (!recovered_ || !image) {
    return;
  }
  const std::string diff = recovered_->map->geometry().differenceFrom(image->geometry());
  if (!diff.empty()) {
    // Not the image it was drawn on: leave the session on disk for a later start.
    recovered_.reset();
    Q_EMIT failed(tr("The recovered label map was drawn on %1, not on the image shown (%2). "
                     "It stays in %3 for the next start.")
                      .arg(source_, QString::fromStdString(diff),
                           QString::fromStdString(session_.folder.string())));
    return;
  }
  EditSession::RecoveredMap install{recovered_->map, std::move(recovered_->restore), nullptr};
  recovered_.reset();
  try {
    install.journal = core::EditJournal::adopt(session_);
  } catch (const std::exception& e) {
    // Still recovered; only its own crash protection is missing until the next snapshot.
    Q_EMIT edits_->statusMessage(
        tr("Recovered, but cannot continue its journal: %1").arg(e.what()));
  }
  edits_->installRecovered(std::move(install));
  Q_EMIT edits_->statusMessage(tr("Recovered the unsaved label map of %1").arg(source_));
  Q_EMIT recovered(source_);
}

}  // namespace delineate::app
