#pragma once
// Hanging protocols as data (JSON), so that a site can add its own: a grid of viewports, each
// asking for one breast and view of the current study or of the most recent prior, the side its
// chest wall is put against (left or right edge: with "mirror" placement the two breasts face
// each other), and the reading sequence the keyboard steps through. The built-in protocols are
// `builtinHangingProtocols()`; a site's files are read with `readHangingProtocols()`, whose errors
// name the file and the line.
//
//   {"protocols": [
//     {"id": "mammo-4up", "name": "Screening 4-up", "rows": 2, "columns": 2,
//      "viewports": [
//        {"laterality": "R", "view": "CC",  "chestWall": "right"},
//        {"laterality": "L", "view": "CC",  "chestWall": "left"},
//        {"laterality": "R", "view": "MLO", "chestWall": "right"},
//        {"laterality": "L", "view": "MLO", "chestWall": "left"}]},
//     {"id": "mammo-tomo-cc", "viewports": [..., {"laterality": "R", "view": "CC",
//                                                   "image": "stack"}, ...]}],
//    "sequence": ["mammo-4up", "mammo-2up-cc", ...],
//    "prior": {"minMonthsEarlier": 9, "maxMonthsEarlier": 60, "fetch": 1}}
//
// Viewports fill the grid row by row. "study" is "current" (default) or "prior": the latest
// earlier study of the same patient that the set's prior rule admits (PriorRule.h). "image" is
// "2d" (default: a synthetic 2-D view first, then an ordinary mammogram, a tomosynthesis stack
// only when the view has no 2-D image) or "stack" (the view's tomosynthesis stack only).
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/mammo/MammoView.h"
#include "core/mammo/PriorRule.h"

namespace delineate::core::mammo {

enum class StudyChoice { Current, Prior };
enum class ChestWall { Left, Right };       // the viewport edge the chest wall is placed against
enum class ImageChoice { Picture, Stack };  // "2d" / "stack"

struct ViewportSpec {
  Laterality laterality = Laterality::Unknown;
  ViewCode view = ViewCode::Unknown;
  StudyChoice study = StudyChoice::Current;
  ChestWall chestWall = ChestWall::Left;
  ImageChoice image = ImageChoice::Picture;
};

struct HangingProtocol {
  std::string id;  // usable as `delineate --layout ID`
  std::string name;
  int rows = 1;
  int columns = 1;
  std::vector<ViewportSpec> viewports;  // rows * columns, row by row
};

struct HangingProtocolSet {
  std::vector<HangingProtocol> protocols;
  std::vector<std::string> sequence;  // ids, in reading order (keyboard stepping)
  std::optional<PriorRule> prior;     // as the file gives it; priorRule() has the default

  PriorRule priorRule() const { return prior.value_or(PriorRule{}); }

  const HangingProtocol* find(std::string_view id) const;
  // Adds `other`'s protocols (replacing ours of the same id) and, when it has them, its sequence
  // and prior rule.
  void merge(const HangingProtocolSet& other);
};

// Parses protocol JSON. Throws Error(InvalidInput) whose `where` is "<source>:<line>" and whose
// detail says what is wrong (not JSON, a missing or unknown field value, a grid that does not
// match its viewports, a sequence naming an unknown protocol, a duplicate id).
HangingProtocolSet parseHangingProtocols(std::string_view text, const std::string& source);
HangingProtocolSet readHangingProtocols(const std::filesystem::path& file);

// The protocols every installation has: mammo-4up (screening), mammo-2up-cc, mammo-2up-mlo,
// mammo-8up (current over prior), mammo-1up-rcc, -lcc, -rmlo, -lmlo, mammo-tomo-cc and
// mammo-tomo-mlo (both breasts' 2-D views over their stacks); and the reading sequence 4-up,
// 8-up, the tomosynthesis pairs, CCs, MLOs, then each view alone (a reader skips protocols that
// need a stack when the study has none: usableFor()).
// True when `protocol` asks for no stack, or `views` hold a stack.
bool usableFor(const HangingProtocol& protocol, const std::vector<MammoView>& views);
const HangingProtocolSet& builtinHangingProtocols();

}  // namespace delineate::core::mammo
