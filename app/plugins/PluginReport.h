#pragma once
// What the plugin host found in one library file: the plugin it is (from its metadata), and
// whether it was loaded or why not. Meant for the log and an About/Plugins dialog.
#include <QString>

namespace delineate::app {

struct PluginReport {
  QString file;  // the library's absolute path
  QString kind;  // the metadata's "kind"; empty when the metadata has none
  QString name;  // the metadata's "name"
  QString description;
  bool loaded = false;
  QString message;  // why it was refused or failed to load, naming the file; empty when loaded
};

}  // namespace delineate::app
