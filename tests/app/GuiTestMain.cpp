// Test main for the GUI suite: the QApplication exists only when an X display does (tests then
// run under Xvfb); without one, GUI tests skip and the Qt-free ones still run. Listing the tests
// (gtest_discover_tests) never creates it.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include <QApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <cstdlib>
#include <memory>

#include "viewers/VtkOpenGLWidget.h"

namespace {

int g_argc = 1;
char g_arg0[] = "delineate_app_tests";
char* g_argv[] = {g_arg0, nullptr};

class GuiEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    const char* display = std::getenv("DISPLAY");
    if (display == nullptr || *display == '\0') {
      return;
    }
    delineate::viewers::VtkOpenGLWidget::prepareApplication();
    QStandardPaths::setTestModeEnabled(true);
    app_ = std::make_unique<QApplication>(g_argc, g_argv);
    QApplication::setOrganizationName(QStringLiteral("DelineateTests"));
    QApplication::setApplicationName(QStringLiteral("delineate_app_tests"));
    // Settings of this process only: ctest runs test processes side by side, and one test's
    // servers or label rules must not show up in another's window.
    settings_ = std::make_unique<QTemporaryDir>();
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings_->path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings_->path());
  }
  void TearDown() override {
    app_.reset();
    settings_.reset();
  }

 private:
  std::unique_ptr<QApplication> app_;
  std::unique_ptr<QTemporaryDir> settings_;
};

}  // namespace

int main(int argc, char** argv) {
  // The test binary does not sit beside the app's plugins (PluginHost's build-tree folder), so
  // point the host at them, as a user would, unless the caller chose other plugins.
  if (!qEnvironmentVariableIsSet("DELINEATE_PLUGIN_PATH")) {
    qputenv("DELINEATE_PLUGIN_PATH", DELINEATE_APP_PLUGIN_DIR);
  }
  // Test processes run in parallel: each keeps its own report audit trail.
  if (!qEnvironmentVariableIsSet("DELINEATE_AUDIT_FILE")) {
    qputenv("DELINEATE_AUDIT_FILE", QByteArray(std::filesystem::temp_directory_path().c_str()) +
                                        "/delineate-test-audit-" + QByteArray::number(::getpid()) +
                                        ".jsonl");
  }
  ::testing::InitGoogleTest(&argc, argv);
  ::testing::AddGlobalTestEnvironment(new GuiEnvironment);
  return RUN_ALL_TESTS();
}
