# Compile time. Measured on one file each, on the 2-core reference machine (quiet):
# - A dock of the app spends 4.5 of its 5 s parsing Qt, JSON and standard headers: the Qt
#   targets precompile what their files share (5.0 -> 2.85 s a file). Targets whose files include
#   little (core, the CLI) get slower with a 120 MB precompiled header to load (1.0 -> 1.5 s of
#   parsing), so they have none.
# - A test file spends most of its 14.5 s optimising and describing GoogleTest's expanded macros:
#   test code is compiled at -Og (8.5 s); the code under test keeps the build type's -O2.
# - Full debug info costs a third of a file's time: the presets ask for line tables only (-g1),
#   enough for backtraces and sanitizer reports with file and line.
option(DELINEATE_PCH "Precompile the headers the Qt targets' files share" ON)

set(DELINEATE_PCH_STD
  <algorithm> <array> <cmath> <cstdint> <functional> <map> <memory> <optional> <string>
  <utility> <vector> <nlohmann/json.hpp>)
set(DELINEATE_PCH_QT
  <QObject> <QString> <QStringList> <QWidget> <QAction> <QDialog> <QLabel> <QPushButton>
  <QToolButton> <QComboBox> <QCheckBox> <QSpinBox> <QLineEdit> <QBoxLayout> <QSettings> <QTimer>
  <QFileInfo> <QMenu> <QPainter> <QImage> <QApplication>)
set(DELINEATE_PCH_TEST <gtest/gtest.h>)

# delineate_pch(TARGET [TEST]): the standard, JSON and Qt widget headers, plus GoogleTest.
function(delineate_pch target)
  if(NOT DELINEATE_PCH)
    return()
  endif()
  cmake_parse_arguments(PCH "TEST" "" "" ${ARGN})
  set(headers ${DELINEATE_PCH_STD} ${DELINEATE_PCH_QT})
  if(PCH_TEST)
    list(APPEND headers ${DELINEATE_PCH_TEST})
  endif()
  target_precompile_headers(${target} PRIVATE ${headers})
endfunction()

# delineate_test_flags(TARGET): a test program's own code at -Og (see above).
function(delineate_test_flags target)
  target_compile_options(${target} PRIVATE -Og)
endfunction()
