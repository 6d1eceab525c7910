# Project-wide warnings; third-party headers come in as SYSTEM includes so they stay quiet.
function(delineate_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wno-deprecated-declarations)
endfunction()
