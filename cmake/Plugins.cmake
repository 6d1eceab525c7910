# Run-time plugins (docs/plugins.md). The build tree puts the app's plugins next to the
# `delineate` executable, in the `plugins` folder PluginHost searches there.
set(DELINEATE_PLUGIN_BUILD_DIR ${CMAKE_BINARY_DIR}/app/gui/plugins)
# Fixed, not GNUInstallDirs' multiarch libdir: PluginHost looks in <bin>/../lib/delineate/plugins.
set(DELINEATE_PLUGIN_INSTALL_DIR lib/delineate/plugins)

# delineate_plugin(TARGET [APP] [OUTPUT_DIRECTORY DIR] SOURCES ...): a Qt plugin (a MODULE library
# with its JSON metadata) linking the plugin API. APP: one of the app's own plugins, built into
# DELINEATE_PLUGIN_BUILD_DIR whenever the app is (global property DELINEATE_APP_PLUGINS).
# Only the two Qt plugin entry points are exported: the static libraries a plugin links (core,
# its backend) stay private to it, so the app's copies and the plugin's never bind to each other.
function(delineate_plugin target)
  cmake_parse_arguments(PLUGIN "APP" "OUTPUT_DIRECTORY" "SOURCES" ${ARGN})
  if(PLUGIN_APP)
    set(PLUGIN_OUTPUT_DIRECTORY ${DELINEATE_PLUGIN_BUILD_DIR})
    set_property(GLOBAL APPEND PROPERTY DELINEATE_APP_PLUGINS ${target})
  endif()
  add_library(${target} MODULE ${PLUGIN_SOURCES})
  target_link_libraries(${target} PRIVATE delineate_plugin_api)
  set_target_properties(${target} PROPERTIES
    AUTOMOC ON
    CXX_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON
    LIBRARY_OUTPUT_DIRECTORY ${PLUGIN_OUTPUT_DIRECTORY})
  target_link_options(${target} PRIVATE "LINKER:--exclude-libs,ALL")
  delineate_warnings(${target})
  if(PLUGIN_APP)
    # The installed app finds them in <bin>/../lib/delineate/plugins (PluginHost::searchPath).
    install(TARGETS ${target} LIBRARY DESTINATION ${DELINEATE_PLUGIN_INSTALL_DIR})
  endif()
endfunction()
