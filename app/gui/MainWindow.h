#pragma once
// The workstation window: the view layout in the centre, the study/series browser and the
// patient/study information docks, a status bar with the value under the mouse and job progress
// with Cancel. Menus and toolbars bind to command ids ("view.layout.2x2", "file.open", ...).
// Segmentation editing (tools, segments dock, label files, undo, recovery) is EditingFeature's.
// Loading runs off the GUI thread; a bad file shows a message naming it and the window stays
// usable.
#include <QHash>
#include <QMainWindow>
#include <QString>
#include <vector>

#include "core/io/DicomSeries.h"
#include "core/model/Volume.h"
#include "viewers/PointerInfo.h"

class QAction;
class QDockWidget;
class QActionGroup;
class QLabel;
class QMenu;

namespace delineate::viewers {
class ViewLayout;
}

namespace delineate::app {

class AnnotatorLoopFeature;
class CommandRegistry;
class CompareFeature;
class ReadersFeature;
class DatasetEvaluationDialog;
class EditingFeature;
class EvaluationCaseOpener;
class FrameBar;
class FrameCurveChart;
class FramesFeature;
class JobRunner;
class MammoFeature;
class ReportFeature;
class SeriesBrowser;
class SeriesListController;
class ShortcutsDialog;
class StudyInfoPanel;
class PacsFeature;
class UploadFeature;

struct MainWindowOptions {
  // false: errors go to stderr and loadFailed() instead of a message box (--screenshot, tests).
  bool interactive = true;
  // Remember opened paths in QSettings ("Recent").
  bool rememberRecent = true;
};

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(MainWindowOptions options = {}, QWidget* parent = nullptr);
  ~MainWindow() override;

  // A file (research format or DICOM) or a folder; runs as a background job. False when the
  // user chose to keep unsaved label maps instead. A folder of only mammograms (DX/MG) opens in
  // the mammography reading view; a report file (JSON, "delineate-report-...") in its dock.
  bool openPath(const QString& path);
  // The same for an image file or folder without asking about unsaved label maps: the caller
  // asked already (the annotator loop's Next sample). False for a report file.
  bool openImage(const QString& path);
  // The built-in sample brain MR (written to the user's cache on first use).
  void openSample();
  // One series of the last DICOM scan (index into the browser's list).
  void loadSeries(int index);

  QAction* action(const QString& commandId) const;
  QStringList commandIds() const;
  CommandRegistry* commands() const { return commands_; }
  // Segmentation editing: session, tools, segments dock, label files, recovery.
  EditingFeature* editing() const { return editing_; }
  // The compare view (two label maps: agreement overlay, metrics, per-slice Dice).
  CompareFeature* compare() const { return compare_; }
  // The readers view (several readers' maps: agreement heat map, votes, adjudication).
  ReadersFeature* readers() const { return readers_; }
  // "Evaluate dataset" (analysis.evaluateDataset), non-modal; created on first use, then kept.
  DatasetEvaluationDialog* datasetEvaluation();
  // The annotator loop with an AI server: Next sample, Submit label, training (AI menu).
  AnnotatorLoopFeature* annotatorLoop() const { return annotatorLoop_; }
  SeriesListController* seriesList() const { return seriesList_; }
  ShortcutsDialog* shortcutsDialog() const { return shortcuts_; }
  // Dataset upload to an AI server's datastore (AI menu, status bar badge, the upload queue).
  UploadFeature* upload() const { return upload_; }
  PacsFeature* pacs() const { return pacs_; }
  // The mammography reading mode (hanging protocols, reading tools, AI findings).
  MammoFeature* mammo() const { return mammo_; }
  // Reports: the measurement report dock, opening report files (File > Open report…).
  ReportFeature* reports() const { return reports_; }
  // Opens a dataset evaluation's case in the compare view (its double-click).
  EvaluationCaseOpener* caseOpener() const { return caseOpener_; }
  // True once a shown image's label files, jobs and surfaces are done (screenshots wait).
  bool editingSettled() const;

  viewers::ViewLayout* views() const { return views_; }
  SeriesBrowser* browser() const { return browser_; }
  StudyInfoPanel* infoPanel() const { return info_; }
  JobRunner* jobs() const { return jobs_; }
  const core::VolumePtr& volume() const { return volume_; }
  // The frame bar of a 4-D image (hidden for 3-D ones), and showing frame k of the open one.
  FrameBar* frameBar() const;
  // The value over the frames at the cursor (the "Frame curve" dock, shown for 4-D images).
  FrameCurveChart* frameCurve() const;
  void showFrame(std::size_t frame);
  QString pointerText() const;
  QStringList recentPaths() const;

 Q_SIGNALS:
  void volumeShown();
  void loadFailed(const QString& message);

 protected:
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;
  void closeEvent(QCloseEvent* event) override;

 private:
  QAction* addCommand(const QString& id, const QString& text, const QKeySequence& shortcut = {});
  bool confirmDiscard();
  void createActions();
  void connectPacs();  // MainWindowPacs.cpp
  void createDocks();
  void createStatusBar();
  void showVolume(core::VolumePtr volume);
  void rebuildWindowMenu();
  void reportError(const QString& message);
  void addRecent(const QString& path);
  void chooseFile();
  void chooseFolder();
  void showPointer(const viewers::PointerInfo& info);
  void setLayoutCommand(const QString& name);

  MainWindowOptions options_;
  viewers::ViewLayout* views_ = nullptr;
  SeriesBrowser* browser_ = nullptr;
  StudyInfoPanel* info_ = nullptr;
  JobRunner* jobs_ = nullptr;
  SeriesListController* seriesList_ = nullptr;
  ShortcutsDialog* shortcuts_ = nullptr;
  QLabel* pointer_ = nullptr;
  QMenu* windowMenu_ = nullptr;
  QActionGroup* layoutGroup_ = nullptr;
  CommandRegistry* commands_ = nullptr;
  EditingFeature* editing_ = nullptr;
  CompareFeature* compare_ = nullptr;
  ReadersFeature* readers_ = nullptr;
  MammoFeature* mammo_ = nullptr;
  ReportFeature* reports_ = nullptr;
  AnnotatorLoopFeature* annotatorLoop_ = nullptr;
  UploadFeature* upload_ = nullptr;
  PacsFeature* pacs_ = nullptr;
  DatasetEvaluationDialog* datasetEvaluation_ = nullptr;
  EvaluationCaseOpener* caseOpener_ = nullptr;
  QStringList windowCommandIds_;
  FramesFeature* frames_ = nullptr;

  core::VolumePtr volume_;
};

}  // namespace delineate::app
