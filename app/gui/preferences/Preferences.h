#pragma once
// The workstation-wide settings of Edit > Preferences, kept in the user's settings (QSettings,
// "preferences/..."). Values out of range fall back to their defaults. The AI servers and the
// DICOM nodes are lists kept by their own owners (AiController, DicomNodeList).
#include <QString>

#include "app/gui/shell/ThemeController.h"
#include "viewers/VolumeQuality.h"

namespace delineate::app {

struct Preferences {
  static constexpr int kMinUndoSteps = 10, kMaxUndoSteps = 5000;
  static constexpr int kMinUndoMegabytes = 32, kMaxUndoMegabytes = 16384;
  static constexpr int kMaxAutosaveMinutes = 120;

  int undoSteps = 200;
  int undoMegabytes = 512;
  // Saves the active label map to its file (where it was opened or last saved) every so many
  // minutes while it has unsaved changes; 0: never. Crash recovery journals every edit anyway.
  int autosaveMinutes = 0;
  ThemeMode theme = ThemeMode::FollowDesktop;
  viewers::VolumeQuality volumeQuality = viewers::VolumeQuality::Balanced;
  // The name label maps are recorded under (correction records, readers, server label tags)
  // when no AI server sign-in names the user; empty: the login name.
  QString readerName;

  static Preferences load();
  void save() const;
  bool operator==(const Preferences&) const = default;
};

// Who is reading: `signedIn` (the AI server's sign-in) when given, else the Preferences reader
// name, else the login name ($USER); never empty ("reader" when even $USER is unset).
QString readerName(const QString& signedIn = {});

}  // namespace delineate::app
