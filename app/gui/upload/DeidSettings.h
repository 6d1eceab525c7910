#pragma once
// Edit > Preferences > De-identification, kept in the user's settings: the PS3.15 Basic Profile
// options applied to DICOM files sent to a research archive ("deid/options", the JSON of
// core::deid::toJson) and the re-identification map's file ("deid/map"; empty: the default
// under $XDG_DATA_HOME). A damaged "deid/options" gives the defaults (de-identify the most).
#include <QString>
#include <filesystem>

#include "core/deid/DeidOptions.h"

namespace delineate::app {

struct DeidSettings {
  core::deid::DeidOptions options;
  QString mapPath;  // empty: core::deid::ReidentificationMap::defaultPath()

  static DeidSettings load();
  void save() const;
  // The map's file; throws core::Error when there is no default (no HOME) and none was set.
  std::filesystem::path mapFile() const;
};

}  // namespace delineate::app
