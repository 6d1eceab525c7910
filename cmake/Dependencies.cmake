# Third-party packages, all from Debian 12.
find_package(ITK 5.2 REQUIRED COMPONENTS
  ITKCommon ITKIOImageBase ITKIONIFTI ITKNIFTI ITKIONRRD ITKIOMeta ITKIOGDCM ITKImageIntensity
  ITKImageFilterBase ITKThresholding ITKSmoothing ITKImageGrid ITKRegionGrowing ITKDistanceMap
  ITKLabelMap ITKMathematicalMorphology ITKBinaryMathematicalMorphology ITKConnectedComponents)
include(${ITK_USE_FILE})

find_package(DCMTK CONFIG REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
find_package(ZLIB REQUIRED)
find_package(Threads REQUIRED)
find_library(LIBDEFLATE_LIBRARY deflate REQUIRED)  # one-shot inflate floor in benchmarks
find_library(ISAL_LIBRARY isal REQUIRED)  # streaming gzip inflate for .nii.gz (libisal-dev)
# Blosc2 chunks of nnInteractive's packed arrays (Debian 12 has no libblosc2): libzstd-dev,
# liblz4-dev.
find_library(ZSTD_LIBRARY zstd REQUIRED)
find_library(LZ4_LIBRARY lz4 REQUIRED)
# HTTP for the AI-server client and delineate-server; kept behind core/net's own interface.
find_package(cpprestsdk CONFIG REQUIRED)
find_package(OpenSSL REQUIRED)

# Qt 6 only. VTK's own Qt module is built for Qt 5 on Debian and is never linked.
find_package(Qt6 REQUIRED COMPONENTS Core Gui Widgets OpenGL OpenGLWidgets Concurrent Charts Svg DBus)
find_package(VTK 9.1 REQUIRED COMPONENTS
  CommonCore CommonDataModel CommonExecutionModel CommonMath CommonTransforms
  ImagingCore ImagingGeneral ImagingStatistics
  FiltersCore FiltersGeneral FiltersModeling
  RenderingCore RenderingOpenGL2 RenderingVolume RenderingVolumeOpenGL2 RenderingImage
  RenderingFreeType RenderingAnnotation RenderingUI InteractionStyle)

add_compile_definitions(QT_NO_KEYWORDS)

# delineate_vtk_autoinit(TARGET...): vtk_module_autoinit() for the VTK modules we link, with its
# generated header named relative to the build folder (found through an include path) instead of
# by its absolute path: an absolute path in a definition is part of every compile's cache key and
# differs in every clone (docs/ci.md).
function(delineate_vtk_autoinit)
  vtk_module_autoinit(TARGETS ${ARGN} MODULES ${VTK_LIBRARIES})
  foreach(target IN LISTS ARGN)
    get_target_property(defs ${target} COMPILE_DEFINITIONS)
    if(NOT defs)
      continue()
    endif()
    set(relative_defs)
    foreach(def IN LISTS defs)
      string(REPLACE "_AUTOINIT_INCLUDE=\"${CMAKE_BINARY_DIR}/" "_AUTOINIT_INCLUDE=\"" def "${def}")
      list(APPEND relative_defs "${def}")
    endforeach()
    set_property(TARGET ${target} PROPERTY COMPILE_DEFINITIONS "${relative_defs}")
    target_include_directories(${target} PRIVATE ${CMAKE_BINARY_DIR})
  endforeach()
endfunction()
