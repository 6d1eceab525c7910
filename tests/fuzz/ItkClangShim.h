// Force-included (-include) by the "fuzz" preset. Debian's ITK 5.2 headers were generated for
// GCC only: itk_compiler_detection.h stops with "Unsupported compiler" under clang. Let that
// header detect features as if this were GCC 12 (clang 14 has every feature it asks about),
// then restore the real compiler macros. Its include guard keeps later inclusions no-ops.
#pragma once
#if defined(__clang__) && defined(__cplusplus) && __has_include(<itk_compiler_detection.h>)
#pragma push_macro("__clang__")
#pragma push_macro("__GNUC__")
#pragma push_macro("__GNUC_MINOR__")
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wbuiltin-macro-redefined"
#undef __clang__
#undef __GNUC__
#undef __GNUC_MINOR__
#define __GNUC__ 12
#define __GNUC_MINOR__ 2
#include <itk_compiler_detection.h>
#pragma clang diagnostic pop
#pragma pop_macro("__GNUC_MINOR__")
#pragma pop_macro("__GNUC__")
#pragma pop_macro("__clang__")
#endif
