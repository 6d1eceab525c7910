#pragma once
// Edit > Preferences… (Ctrl+,): the settings a user changes for the whole workstation, in pages:
// General (light/dark theme, autosave, the reader name), Editing (the undo budget), AI servers (the
// list the AI panel chooses from, with de-identification per server), DICOM nodes (the PACS to send
// to) and 3D rendering (quality). The values of General, Editing and 3D rendering are kept and
// applied on OK or Apply; the lists change at once, as in the AI panel.
#include <QDialog>

#include "app/gui/preferences/Preferences.h"

class QComboBox;
class QLineEdit;
class QSpinBox;
class QTabWidget;

namespace delineate::app {

class AiController;
class AiServersPage;

class PreferencesDialog : public QDialog {
  Q_OBJECT

 public:
  // `ai` feeds the AI servers page (null: no such page).
  explicit PreferencesDialog(AiController* ai, QWidget* parent = nullptr);
  // A page of another part of the app (its objectName names it for showPage), before
  // "3D rendering".
  void insertPage(QWidget* page, const QString& title);

  // Shows `p` in the fields.
  void setPreferences(const Preferences& p);
  Preferences preferences() const;
  // Brings a page to the front: "general", "editing", "servers", "nodes", "rendering".
  void showPage(const QString& name);

  QTabWidget* pages() const { return pages_; }
  QSpinBox* undoStepsBox() const { return undoSteps_; }
  QSpinBox* undoMegabytesBox() const { return undoMegabytes_; }
  QSpinBox* autosaveBox() const { return autosave_; }
  QComboBox* themeBox() const { return theme_; }
  QComboBox* qualityBox() const { return quality_; }
  QLineEdit* readerNameEdit() const { return readerName_; }
  AiServersPage* serversPage() const { return servers_; }

 Q_SIGNALS:
  // OK or Apply: the preferences were saved and are to be applied.
  void applied(const delineate::app::Preferences& preferences);

 private:
  QWidget* generalPage();
  QWidget* editingPage();
  QWidget* renderingPage();
  void apply();

  QTabWidget* pages_;
  QSpinBox* undoSteps_ = nullptr;
  QSpinBox* undoMegabytes_ = nullptr;
  QSpinBox* autosave_ = nullptr;
  QComboBox* theme_ = nullptr;
  QComboBox* quality_ = nullptr;
  QLineEdit* readerName_ = nullptr;
  AiServersPage* servers_ = nullptr;
};

}  // namespace delineate::app
