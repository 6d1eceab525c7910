#pragma once
// Mammography reading mode in the workstation window: opens a study (and its prior) found under
// one or more folders, hangs it by a hanging protocol (built in, or a site's JSON named in the
// settings key "mammo/protocolsFile"), and shows the MammoReadingView in place of the slice views.
// Images appear as coarse previews as soon as each is read, then at full quality; the job shows
// progress and can be cancelled. Commands: "mammo.open" (a folder), "mammo.layout.<id>" per
// protocol, "mammo.nextLayout" / "mammo.previousLayout" (the reading sequence; also Page Down /
// Page Up, Space / Shift+Space in the view), "mammo.fit", "mammo.oneToOne", "mammo.invert",
// "mammo.tool.<pan|window|magnifier|ruler|ellipse>", "mammo.report" (the report dock),
// "mammo.close" (back to the slice views).
// AI findings are MammoFindingsController's. MainWindow owns one.
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <map>
#include <optional>
#include <vector>

#include "core/mammo/HangingAssignment.h"
#include "core/mammo/HangingProtocol.h"
#include "core/mammo/MammoStudyLoader.h"
#include "viewers/mammo/MammoImage.h"

class QDockWidget;
class QMainWindow;
class QMenu;
class QStackedWidget;
class QToolBar;

namespace delineate::viewers {
class MammoReadingView;
}

namespace delineate::app {

class CommandRegistry;
class JobRunner;
class MammoFindingsController;
class MammoStackCommands;
class MammoReportPanel;

class MammoFeature : public QObject {
  Q_OBJECT

 public:
  MammoFeature(QMainWindow* window, CommandRegistry* commands, JobRunner* jobs,
               QStackedWidget* centre, bool interactive);
  ~MammoFeature() override;

  viewers::MammoReadingView* view() const { return view_; }
  const QList<QToolBar*>& toolBars() const { return toolBars_; }
  MammoFindingsController* findings() const { return findings_; }
  MammoStackCommands* stacks() const { return stacks_; }
  // The report dock (Mammography > Report…, "mammo.report"): hidden until asked for.
  MammoReportPanel* reportPanel() const { return reportPanel_; }
  QDockWidget* reportDock() const { return reportDock_; }
  void populateMenu(QMenu* menu);

  // Shows the reading view and loads the study under `paths` hung by `layoutId` (a protocol id;
  // empty: the first of the reading sequence). False when the id is unknown (message given).
  bool open(const QStringList& paths, const QString& layoutId = {});
  // The built-in sample's mammography study with its prior.
  bool openSample(const QString& layoutId = {});
  // Back to the slice views.
  void close();
  bool active() const;

  bool setLayout(const QString& id);
  QString layoutId() const { return layoutId_; }
  // The folders (or files) of the study opened last, as given to open().
  const QStringList& paths() const { return paths_; }
  void stepLayout(int delta);
  const core::mammo::HangingProtocolSet& protocols() const { return protocols_; }
  // The first protocol of the reading sequence (else of the set) that shows a prior: where a
  // study opened with its priors is hung. Empty when none does.
  QString priorLayout() const;
  const core::mammo::MammoStudyFiles& files() const { return files_; }
  const core::mammo::Hanging& hanging() const { return hanging_; }
  // The loaded image of a view (index into files().views), nullptr while it loads.
  const viewers::MammoImage* image(std::size_t view) const;
  // True when the study is loaded, every shown image is at full quality and no job runs.
  bool settled() const;

 Q_SIGNALS:
  void opened();  // the hanging is known and the grid set up (images may still load)
  void loaded();  // every image is at full quality
  void failed(const QString& message);
  void layoutChanged(const QString& id);

 private:
  void createCommands();
  // Entering the reading view hides the docks and tool bars of the slice views (the images get
  // the whole window); leaving it shows again those that were shown.
  void enterReadingMode();
  void applyHanging();
  void imageArrived(const core::mammo::LoadedMammoImage& image, unsigned generation);
  void reportError(const QString& message);
  QStringList notesWithProblems() const;

  QMainWindow* window_;
  CommandRegistry* commands_;
  JobRunner* jobs_;
  QStackedWidget* centre_;
  bool interactive_;
  viewers::MammoReadingView* view_;
  QList<QToolBar*> toolBars_;
  MammoFindingsController* findings_ = nullptr;
  MammoStackCommands* stacks_ = nullptr;
  MammoReportPanel* reportPanel_ = nullptr;
  QDockWidget* reportDock_ = nullptr;
  QMenu* layoutMenu_ = nullptr;

  core::mammo::HangingProtocolSet protocols_;
  QString layoutId_;
  QStringList paths_;
  core::mammo::MammoStudyFiles files_;
  core::mammo::Hanging hanging_;
  std::map<std::size_t, viewers::MammoImage> images_;
  std::vector<std::string> loadProblems_;
  QList<QWidget*> hiddenForReading_;
  unsigned generation_ = 0;
  bool loading_ = false;
};

}  // namespace delineate::app
