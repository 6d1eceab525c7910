# The user guide's screenshots (docs/guide/), taken during the build by `delineate --screenshot`
# from the built-in sample data, so that they show the app as built. They are installed with the
# guide; scripts/update-guide-images.sh copies them into docs/guide/images for the source tree.
# Not in the sanitizer and fuzzing builds (slow there, and the release build has them).
option(DELINEATE_BUILD_GUIDE "Take the user guide's screenshots during the build" ON)
if(NOT DELINEATE_BUILD_GUIDE OR NOT TARGET delineate OR DELINEATE_SANITIZE OR DELINEATE_BUILD_FUZZ)
  return()
endif()

set(DELINEATE_GUIDE_IMAGES ${CMAKE_BINARY_DIR}/docs/guide/images CACHE INTERNAL "the guide's screenshots")
set(guide_sample ${CMAKE_BINARY_DIR}/docs/sample)
set(guide_stamp ${guide_sample}/.delineate-sample-v4)
add_custom_command(OUTPUT ${guide_stamp}
  COMMAND delineate-cli sample ${guide_sample}
  DEPENDS delineate-cli
  COMMENT "Writing the sample data for the user guide")

get_property(guide_plugins GLOBAL PROPERTY DELINEATE_APP_PLUGINS)
set(guide_shot ${PROJECT_SOURCE_DIR}/scripts/guide-screenshot.sh $<TARGET_FILE:delineate>)
set(guide_size --size 1400x900)
set(guide_pngs)
# delineate_guide_image(NAME ARGS...): images/NAME.png from `delineate --screenshot` with ARGS.
function(delineate_guide_image name)
  set(out ${DELINEATE_GUIDE_IMAGES}/${name}.png)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${DELINEATE_GUIDE_IMAGES}
    COMMAND ${guide_shot} ${out} ${guide_size} ${ARGN}
    DEPENDS delineate ${guide_plugins} ${guide_stamp} ${PROJECT_SOURCE_DIR}/scripts/guide-screenshot.sh
    COMMENT "User guide: ${name}.png"
    VERBATIM)
  set(guide_pngs ${guide_pngs} ${out} PARENT_SCOPE)
endfunction()

delineate_guide_image(quickstart --layout 2x2
  --labels ${guide_sample}/brain-mr/brain-mr_labels.nii.gz ${guide_sample}/brain-mr/brain-mr.nii.gz)
delineate_guide_image(reading-ct --layout 1x3 ${guide_sample}/abdomen-ct/dicom)
delineate_guide_image(reading-colour-cine --layout 1x1 ${guide_sample}/ultrasound/carotid-cine.dcm)
delineate_guide_image(annotating-ai --layout 2x2 --show aiDock
  --labels ${guide_sample}/brain-mr/brain-mr_labels.nii.gz ${guide_sample}/brain-mr/brain-mr.nii.gz)
# The AI box tool's prompt round the left hippocampus head (label 4: its largest axial slice,
# k 55, spans i 99-112, j 79-96), run by the built-in engine.
delineate_guide_image(annotating-ai-box --layout 2x2 --show aiDock --show aiBox:99,79,55,112,96,55
  ${guide_sample}/brain-mr/brain-mr.nii.gz)
delineate_guide_image(mammography --layout mammo-4up --findings demo
  ${guide_sample}/mammo/screening-2026)
delineate_guide_image(report --layout 1x3 --show report.measurements --show "Create from segments"
  --labels ${guide_sample}/brain-mr/brain-mr_labels.nii.gz ${guide_sample}/brain-mr/brain-mr.nii.gz)
delineate_guide_image(uploading --layout 1x3 --show ai.uploadDataset --show "Add open image"
  --show Check --labels ${guide_sample}/brain-mr/brain-mr_labels.nii.gz
  ${guide_sample}/brain-mr/brain-mr.nii.gz)
delineate_guide_image(preferences --layout 2x2 --show edit.preferences
  --labels ${guide_sample}/brain-mr/brain-mr_labels.nii.gz ${guide_sample}/brain-mr/brain-mr.nii.gz)
# Three readers of the sample brain (its own labels and the two of brain-mr/readers) compared in
# the readers view, at their largest disagreement region (Next), with each reader's version side
# by side below the views.
delineate_guide_image(readers --layout 2x2 --show review.readers --show "Compare readers" --show Next
  --show "Show the readers side by side"
  --labels ${guide_sample}/brain-mr/brain-mr_labels.nii.gz
  --labels ${guide_sample}/brain-mr/readers/reader-b.nii.gz
  --labels ${guide_sample}/brain-mr/readers/reader-c.nii.gz
  ${guide_sample}/brain-mr/brain-mr.nii.gz)
delineate_guide_image(deidentification --layout 2x2 --show edit.preferences
  --show De-identification ${guide_sample}/brain-mr/brain-mr.nii.gz)
add_custom_target(delineate_user_guide ALL DEPENDS ${guide_pngs})

install(DIRECTORY ${DELINEATE_GUIDE_IMAGES}/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/guide/images)
