#pragma once
// What an AI engine says about a mammography study: CAD marks (kind, centre, box, score) and a
// coarse region-of-interest heatmap per image, a case risk score, and whether it is only a
// demonstration. Read and written as a JSON findings file; `findingsFromInferResult` reads what a
// MONAI Label detection or classification model answers.
//
// Findings file (camelCase keys; image pixel coordinates, 0-based, column = x):
//
//   {"format": "delineate-mammo-findings", "version": 1,
//    "source": "Built-in demonstration detector (not a diagnosis)",
//    "demonstration": true,
//    "riskScore": 0.62,                                      // optional, 0..1
//    "images": [
//      {"imageId": "1.2.826.0.1.3680043...",                 // SOP Instance UID or path
//       "marks": [{"kind": "mass", "column": 512.5, "row": 700, "score": 0.81,
//                  "box": [470, 655, 555, 745],            // x0, y0, x1, y1
//                  "intent": "optional",                   // optional, default "required"
//                  "outline": [[470, 700], [512, 655], [555, 700]]}],  // optional polygon
//       "heatmap": {"columns": 160, "rows": 208, "step": 8, // image pixels per heatmap pixel
//                   "encoding": "base64-float32le",
//                   "values": "AAAAAA..."}}]}                // row by row, each 0..1
//
// The heatmap values are written as base64 of little-endian float32 ("encoding":
// "base64-float32le"); a reader also accepts a plain list of numbers ("encoding" absent or
// "array"). "format" and "version", "riskScore", "marks", "heatmap" and "box" may be left out
// (a missing box is the centre point). A mark's "score" may be left out (not scored) and
// "probabilityOfCancer" (0..1) given; "frame" (0-based) places a mark on one frame of a
// tomosynthesis stack. Marks are kept in file order.
#include <array>
#include <cstddef>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace delineate::core::mammo {

// Whether a CAD mark is drawn (DICOM CID 6034 "Rendering Intent").
enum class RenderingIntent { Required, Optional, NotForPresentation };
const char* keyOf(RenderingIntent intent);  // "required", "optional", "notForPresentation"

struct FindingMark {                      // a CAD mark
  std::string kind;                       // "mass", "calcification", "asymmetry", or a label
  double column = 0, row = 0;             // centre, image pixel coordinates (column = x)
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;  // box, image pixels
  double score = 0;                       // 0..1 (0 when not scored)
  bool scored = true;                     // false: the AI gave no score (a CAD SR may not)
  std::optional<double> probability{};    // probability of cancer 0..1, when the AI gave one
  RenderingIntent intent = RenderingIntent::Required;
  std::vector<std::array<double, 2>> outline{};  // (column, row) polygon, when the CAD gave one
  std::optional<int> frame{};  // 0-based frame of a tomosynthesis stack the mark is on
};

// True when a mark with `intent` is drawn: required marks always, optional ones when asked.
inline bool presented(RenderingIntent intent, bool showOptional) {
  return intent == RenderingIntent::Required ||
         (intent == RenderingIntent::Optional && showOptional);
}

struct FindingHeatmap {  // region-of-interest probability, coarser than the image
  std::size_t columns = 0, rows = 0;
  double step = 1;  // image pixels per heatmap pixel (both axes): heatmap pixel (i, j) covers
                    // image columns [i * step, (i + 1) * step) and rows [j * step, ...)
  std::vector<float> values;  // 0..1, row by row
};

struct ImageFindings {
  std::string imageId;
  std::vector<FindingMark> marks;
  std::optional<FindingHeatmap> heatmap;
};

struct StudyFindings {
  std::string source;               // e.g. "Built-in demonstration detector (not a diagnosis)"
  bool demonstration = false;       // true: shown as a demonstration, never as a diagnosis
  std::optional<double> riskScore;  // case score 0..1
  std::vector<ImageFindings> images;
  std::string processingSummary;              // as a CAD SR states it; empty when not stated
  std::vector<std::string> failedAlgorithms;  // algorithms a CAD SR says did not succeed
};

// The largest heatmap a file may hold (columns * rows); larger ones are refused as invalid.
constexpr std::size_t kMaxHeatmapValues = std::size_t(1) << 24;

// Parses a findings file's text. Throws Error(InvalidInput) whose `where` is "<source>:<line>"
// and whose detail says what is wrong: not JSON, a missing or mistyped field, a score or heatmap
// value outside 0..1, a box whose corners are swapped, a heatmap whose value count is not
// columns * rows, bad base64, an unknown format or version.
StudyFindings parseStudyFindings(std::string_view text, const std::string& source);
// Reads a findings file; Error(Io) naming the file when it cannot be read.
StudyFindings readStudyFindings(const std::filesystem::path& file);
// The findings file's JSON, as documented above.
nlohmann::json toJson(const StudyFindings& findings);
// Writes the file atomically (a temporary beside it, then renamed); Error(Io) naming the file.
void writeStudyFindings(const StudyFindings& findings, const std::filesystem::path& file);

// Tolerant reading of a MONAI Label model's JSON result for one image:
//   detection:      {"boxes": [[x0, y0, x1, y1], ...], "scores": [...], "labels": [...]}
//                   (also MONAI's detector keys "box", "label_scores", "label"; boxes in image
//                   pixels, corners in either order; scores default to 1 when absent, and a
//                   "score" list of one per box is taken for the scores; labels are
//                   names, or numbers named through "label_names" ({"mass": 1} or a list), else
//                   "label N"; no labels: "finding")
//   classification: {"probability" | "score" | "risk": p}, p a number or a list of one number
//                   or of two class probabilities [negative, positive] (the positive one counts)
// Returns the marks (sorted by score, highest first) as the study's one image and p as
// riskScore; `source` is left empty for the caller. Throws Error(InvalidInput), `where` naming
// the image, when the result is not an object, has neither boxes nor a probability, or holds a
// malformed box, a non-finite number, a score outside 0..1, or lists of different lengths.
StudyFindings findingsFromInferResult(const nlohmann::json& result, const std::string& imageId);

}  // namespace delineate::core::mammo
