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
