# Run by delineate_gtest_suites() after a test program is built: lists its GoogleTest suites and
# writes SUITES_FILE, one add_test() per suite, for ctest to include.
# Inputs: TEST_EXECUTABLE, TARGET_NAME, SUITES_FILE, PROPS_FILE, XML_DIR.
execute_process(COMMAND ${TEST_EXECUTABLE} --gtest_list_tests
  OUTPUT_VARIABLE listing ERROR_VARIABLE errors RESULT_VARIABLE result TIMEOUT 120)
if(NOT result EQUAL 0)
  file(REMOVE ${SUITES_FILE})
  message(FATAL_ERROR "Listing the tests of ${TEST_EXECUTABLE} failed (${result}):\n${listing}\n${errors}")
endif()
string(REPLACE ";" "\\;" listing "${listing}")
string(REPLACE "\n" ";" lines "${listing}")
set(body "include(\"${PROPS_FILE}\")\n")
set(count 0)
foreach(line IN LISTS lines)
  # Suite lines start in the first column and end with '.', perhaps followed by a comment
  # ("  # TypeParam = int"); test lines are indented.
  if(line MATCHES "^([A-Za-z0-9_/]+)\\.( .*)?$")
    set(suite ${CMAKE_MATCH_1})
    if(suite MATCHES "^DISABLED_" OR suite MATCHES "/DISABLED_")
      continue()
    endif()
    string(REPLACE "/" "_" xml_name "${suite}")
    string(APPEND body
      "add_test([==[${suite}]==] [==[${TEST_EXECUTABLE}]==] [==[--gtest_filter=${suite}.*]==] "
      "[==[--gtest_output=xml:${XML_DIR}/${TARGET_NAME}.${xml_name}.xml]==])\n"
      "delineate_suite_props([==[${suite}]==])\n")
    math(EXPR count "${count} + 1")
  endif()
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "${TEST_EXECUTABLE} lists no test suite")
endif()
file(WRITE ${SUITES_FILE} "${body}")
