# delineate_gtest_suites(TARGET [TIMEOUT seconds] [LABELS l...] [ENVIRONMENT VAR=value...]
#                        [FIXTURES_REQUIRED f...])
#
# One ctest entry per GoogleTest suite of TARGET (named "Suite", or "Prefix/Suite" for
# instantiated parameterised suites), running `TARGET --gtest_filter=Suite.*`. Every test still
# runs, each suite in a process of its own: far fewer processes than one per test (an
# instrumented test program takes most of a second to start), while ctest still runs suites side
# by side and a crash names its suite. The suites are listed after each build, as
# gtest_discover_tests does (cmake/GTestSuitesList.cmake). Each process writes GoogleTest's XML
# report to ${CMAKE_BINARY_DIR}/test-xml/TARGET.Suite.xml, which scripts/slowest-tests.sh reads
# for the per-test times.
set(DELINEATE_GTEST_SUITES_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/GTestSuitesList.cmake)

function(delineate_gtest_suites target)
  cmake_parse_arguments(arg "" "TIMEOUT" "LABELS;ENVIRONMENT;FIXTURES_REQUIRED" ${ARGN})
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 900)
  endif()
  set(base ${CMAKE_CURRENT_BINARY_DIR}/${target})
  set(props_file ${base}_suite_props.cmake)
  set(suites_file ${base}_suites.cmake)
  set(include_file ${base}_suites_include.cmake)
  # The properties every suite of this target gets, as a macro the generated list calls: written
  # here, at configure time, so that lists and semicolons need no escaping through -D.
  set(props "TIMEOUT ${arg_TIMEOUT}")
  if(arg_LABELS)
    string(APPEND props " LABELS [==[${arg_LABELS}]==]")
  endif()
  if(arg_ENVIRONMENT)
    string(APPEND props " ENVIRONMENT [==[${arg_ENVIRONMENT}]==]")
  endif()
  if(arg_FIXTURES_REQUIRED)
    string(APPEND props " FIXTURES_REQUIRED [==[${arg_FIXTURES_REQUIRED}]==]")
  endif()
  file(WRITE ${props_file} "macro(delineate_suite_props name)\n"
                           "  set_tests_properties(\"\${name}\" PROPERTIES ${props})\n"
                           "endmacro()\n")
  add_custom_command(TARGET ${target} POST_BUILD
    BYPRODUCTS ${suites_file}
    COMMAND ${CMAKE_COMMAND} -D TEST_EXECUTABLE=$<TARGET_FILE:${target}> -D TARGET_NAME=${target}
            -D SUITES_FILE=${suites_file} -D PROPS_FILE=${props_file}
            -D XML_DIR=${CMAKE_BINARY_DIR}/test-xml -P ${DELINEATE_GTEST_SUITES_SCRIPT}
    VERBATIM)
  file(WRITE ${include_file} "if(EXISTS \"${suites_file}\")\n"
                             "  include(\"${suites_file}\")\n"
                             "else()\n"
                             "  add_test(${target}_NOT_BUILT ${target}_NOT_BUILT)\n"
                             "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${include_file})
endfunction()

# Paths compiled into test programs are relative to the folder ctest runs them in (the folder of
# their CMakeLists, where the programs themselves are written): an absolute path in a definition
# would be part of ccache's key (or of the preprocessed text) and differ in every clone.
# delineate_test_path(VAR PATH): PATH relative to the current binary folder.
function(delineate_test_path var path)
  file(RELATIVE_PATH rel ${CMAKE_CURRENT_BINARY_DIR} ${path})
  if(rel STREQUAL "")
    set(rel .)
  endif()
  set(${var} ${rel} PARENT_SCOPE)
endfunction()

# delineate_test_target_path(VAR TARGET): the relative path of TARGET's executable.
function(delineate_test_target_path var target)
  get_target_property(dir ${target} RUNTIME_OUTPUT_DIRECTORY)
  if(NOT dir)
    get_target_property(dir ${target} BINARY_DIR)
  endif()
  delineate_test_path(rel ${dir})
  set(${var} "${rel}/$<TARGET_FILE_NAME:${target}>" PARENT_SCOPE)
endfunction()
