// The hanging protocols every installation has, in the same JSON a site writes its own in.
#include "core/mammo/HangingProtocol.h"

namespace delineate::core::mammo {

namespace {

// Right breast images are placed with the chest wall against the right edge, left ones against
// the left edge: side by side, the two breasts face each other (ACR / IHE Mammography Image
// profile convention), the right breast on the viewer's left.
constexpr const char* kBuiltin = R"json({
  "protocols": [
    {"id": "mammo-4up", "name": "Screening 4-up", "rows": 2, "columns": 2, "viewports": [
      {"laterality": "R", "view": "CC"}, {"laterality": "L", "view": "CC"},
      {"laterality": "R", "view": "MLO"}, {"laterality": "L", "view": "MLO"}]},
    {"id": "mammo-tomo-cc", "name": "CC: 2D over stack", "rows": 2, "columns": 2, "viewports": [
      {"laterality": "R", "view": "CC"}, {"laterality": "L", "view": "CC"},
      {"laterality": "R", "view": "CC", "image": "stack"},
      {"laterality": "L", "view": "CC", "image": "stack"}]},
    {"id": "mammo-tomo-mlo", "name": "MLO: 2D over stack", "rows": 2, "columns": 2, "viewports": [
      {"laterality": "R", "view": "MLO"}, {"laterality": "L", "view": "MLO"},
      {"laterality": "R", "view": "MLO", "image": "stack"},
      {"laterality": "L", "view": "MLO", "image": "stack"}]},
    {"id": "mammo-2up-cc", "name": "Both CC", "rows": 1, "columns": 2, "viewports": [
      {"laterality": "R", "view": "CC"}, {"laterality": "L", "view": "CC"}]},
    {"id": "mammo-2up-mlo", "name": "Both MLO", "rows": 1, "columns": 2, "viewports": [
      {"laterality": "R", "view": "MLO"}, {"laterality": "L", "view": "MLO"}]},
    {"id": "mammo-8up", "name": "Current over prior", "rows": 2, "columns": 4, "viewports": [
      {"laterality": "R", "view": "CC"}, {"laterality": "L", "view": "CC"},
      {"laterality": "R", "view": "MLO"}, {"laterality": "L", "view": "MLO"},
      {"laterality": "R", "view": "CC", "study": "prior"},
      {"laterality": "L", "view": "CC", "study": "prior"},
      {"laterality": "R", "view": "MLO", "study": "prior"},
      {"laterality": "L", "view": "MLO", "study": "prior"}]},
    {"id": "mammo-2up-rcc-prior", "name": "R CC, current and prior", "rows": 1, "columns": 2,
     "viewports": [{"laterality": "R", "view": "CC"},
                   {"laterality": "R", "view": "CC", "study": "prior", "chestWall": "left"}]},
    {"id": "mammo-1up-rcc", "name": "R CC", "rows": 1, "columns": 1, "viewports": [
      {"laterality": "R", "view": "CC"}]},
    {"id": "mammo-1up-lcc", "name": "L CC", "rows": 1, "columns": 1, "viewports": [
      {"laterality": "L", "view": "CC"}]},
    {"id": "mammo-1up-rmlo", "name": "R MLO", "rows": 1, "columns": 1, "viewports": [
      {"laterality": "R", "view": "MLO"}]},
    {"id": "mammo-1up-lmlo", "name": "L MLO", "rows": 1, "columns": 1, "viewports": [
      {"laterality": "L", "view": "MLO"}]}
  ],
  "sequence": ["mammo-4up", "mammo-8up", "mammo-tomo-cc", "mammo-tomo-mlo", "mammo-2up-cc",
               "mammo-2up-mlo", "mammo-1up-rcc",
               "mammo-1up-lcc", "mammo-1up-rmlo", "mammo-1up-lmlo"]
})json";

}  // namespace

HangingProtocolSet parseBuiltinHangingProtocols(const char* text);

const HangingProtocolSet& builtinHangingProtocols() {
  static const HangingProtocolSet set = parseBuiltinHangingProtocols(kBuiltin);
  return set;
}

}  // namespace delineate::core::mammo
