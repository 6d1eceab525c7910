#pragma once
// Segmentation editing in the workstation window: wires the EditSession (document, undo,
// recovery) to the views, tools, segments dock, segment operations, label files, measurements,
// 3D surfaces and crash recovery, and contributes their menus (File: label maps; Edit: undo/redo;
// Segment: operations; 3D: volume/surfaces), the Tools tool bar, the Segments dock and a job area
// in the status bar. MainWindow owns one and tells it when an image is shown or the window
// closes.
#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>
#include <utility>
#include <vector>

#include "core/model/Volume.h"

class QDockWidget;
class QMainWindow;
class QMenu;
class QMenuBar;
class QToolBar;
class QWidget;

namespace delineate::viewers {
class ViewLayout;
}

namespace delineate::app {

class Autosaver;
class PreferencesDialog;
class ThemeController;
struct Preferences;

class CommandRegistry;
class EditJobs;
class EditSession;
class LabelFileController;
class AiController;
class AiDock;
class CorrectionRecorder;
class RecoveryController;
class RecoverySnapshots;
class SegmentMeasurer;
class SegmentOperationsController;
class SegmentsDock;
class SurfaceController;
class ToolController;

class EditingFeature : public QObject {
  Q_OBJECT

 public:
  EditingFeature(QMainWindow* window, CommandRegistry* commands, viewers::ViewLayout* views,
                 bool interactive);
  ~EditingFeature() override;

  void populateFileMenu(QMenu* file);
  void createEditMenu(QMenuBar* bar);
  void createSegmentMenu(QMenuBar* bar);
  void populate3dMenu(QMenu* render);
  // The AI menu's prompt commands (the box's end slices).
  void populateAiMenu(QMenu* ai);
  QToolBar* createToolBar(QWidget* parent);
  QDockWidget* createDock(QWidget* parent);
  // The AI panel (backend, model, Accept/Reject/Freeze).
  QDockWidget* createAiDock(QWidget* parent);

  // A new image is shown: its label maps start empty; pending labels or a pending recovery
  // install onto it.
  void imageShown(const core::VolumePtr& image);
  // Another frame of the shown 4-D image.
  void frameShown(const core::VolumePtr& frame);
  // Opens this label file once the next image is shown (--labels, the sample's ground truth).
  void setPendingLabels(const QStringList& paths);
  // Before another image replaces the labels: false when the user keeps them.
  bool confirmDiscard();
  // Before the window closes: false keeps it open (the user cancelled, or a save started and
  // the window closes when it succeeds).
  bool confirmClose();
  // Nothing pending: label files read, jobs done, surfaces built, measurements current.
  bool settled() const;
  void showError(const QString& message);

  EditSession* session() const { return session_; }
  // Edit > Preferences… (made on first use).
  PreferencesDialog* preferencesDialog();
  // A page another part of the window adds to Edit > Preferences (made with the dialog).
  void addPreferencesPage(const QString& title, std::function<QWidget*()> make);
  // The undo budget of the preferences, on the session's undo stack.
  void applyPreferences(const delineate::app::Preferences& preferences);
  EditJobs* jobs() const { return jobs_; }
  ToolController* tools() const { return tools_; }
  SegmentOperationsController* operations() const { return operations_; }
  LabelFileController* files() const { return files_; }
  SegmentMeasurer* measurer() const { return measurer_; }
  SurfaceController* surfaces() const { return surfaces_; }
  RecoveryController* recovery() const { return recovery_; }
  RecoverySnapshots* snapshots() const { return snapshots_; }
  Autosaver* autosaver() const { return autosaver_; }
  ThemeController* theme() const { return theme_; }
  SegmentsDock* segmentsDock() const { return dock_; }
  AiController* ai() const { return ai_; }
  AiDock* aiDock() const { return aiDock_; }
  // How AI proposals were corrected, per label map (saved beside the label file).
  CorrectionRecorder* corrections() const { return corrections_; }

 Q_SIGNALS:
  void errorShown(const QString& message);

 private:
  QStringList unsavedMapNames() const;
  void exportCorrectionRecord();
  void updateUndoActions();

  QMainWindow* window_;
  CommandRegistry* commands_;
  viewers::ViewLayout* views_;
  bool interactive_;
  PreferencesDialog* preferences_ = nullptr;
  std::vector<std::pair<QString, std::function<QWidget*()>>> preferencePages_;
  EditSession* session_ = nullptr;
  EditJobs* jobs_ = nullptr;
  ToolController* tools_ = nullptr;
  AiController* ai_ = nullptr;
  AiDock* aiDock_ = nullptr;
  CorrectionRecorder* corrections_ = nullptr;
  SegmentOperationsController* operations_ = nullptr;
  LabelFileController* files_ = nullptr;
  SegmentMeasurer* measurer_ = nullptr;
  SurfaceController* surfaces_ = nullptr;
  RecoveryController* recovery_ = nullptr;
  RecoverySnapshots* snapshots_ = nullptr;
  Autosaver* autosaver_ = nullptr;
  ThemeController* theme_ = nullptr;
  SegmentsDock* dock_ = nullptr;
  QStringList pendingLabels_;
  bool closeAfterSave_ = false;
};

}  // namespace delineate::app
