// libFuzzer harness: arbitrary bytes as a MONAI Label server answer. Byte 0 picks the
// Content-Type (multipart with a fixed plain or quoted boundary, one read from the input up to
// its first newline, JSON, octet-stream, none, text), byte 1 the HTTP status; the rest is the
// body, fed to parseInferResponse, parseMultipart, parseMonaiInfo and Clara AIAA's
// parseAiaaModels, (as a site's file) to parseHangingProtocols, (as a findings file) to
// parseStudyFindings and, when it is JSON, (as a model's result) to findingsFromInferResult,
// as a returned label to labelMapFromNiftiBytes (on the 8x8x4 grid of the label seeds), and
// as a DICOMweb answer to the QIDO-RS readers and the STOW-RS judge, and (as a file beside a
// label map) to the correction and adjudication record readers.
// Anything but a core::Error is a finding, and so is a part that points outside the body.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/Error.h"
#include "core/ai/AiaaModels.h"
#include "core/ai/InferResponse.h"
#include "core/ai/MonaiInfo.h"
#include "core/ai/Multipart.h"
#include "core/ai/NiftiLabelBytes.h"
#include "core/jobs/ProgressSink.h"
#include "core/mammo/HangingProtocol.h"
#include "core/mammo/MammoFindings.h"
#include "core/metrics/AdjudicationRecord.h"
#include "core/metrics/CorrectionRecord.h"
#include "core/pacs/DicomJson.h"
#include "core/pacs/StowAnswer.h"

using namespace delineate;

namespace {

constexpr int kStatuses[16] = {200, 200, 200, 200, 401, 403, 404, 406,
                               422, 429, 440, 500, 502, 307, 418, 204};

void checkInside(const std::vector<core::ai::MultipartPart>& parts, std::string_view body) {
  for (const auto& part : parts) {
    if (!part.body.empty() && (part.body.data() < body.data() ||
                               part.body.data() + part.body.size() > body.data() + body.size())) {
      std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) {
    return 0;
  }
  const int status = kStatuses[data[1] % 16];
  std::string_view body(reinterpret_cast<const char*>(data) + 2, size - 2);
  std::string contentType;
  switch (data[0] % 8) {
    case 0:
      contentType = "multipart/form-data; boundary=b";
      break;
    case 1:
      contentType = "multipart/form-data; boundary=\"0123456789abcdef0123456789abcdef\"";
      break;
    case 2: {
      const std::size_t eol = body.find('\n');
      if (eol != std::string_view::npos && eol < 512) {
        contentType.assign(body.substr(0, eol));
        body.remove_prefix(eol + 1);
      }
      break;
    }
    case 3:
      contentType = "application/json";
      break;
    case 4:
      contentType = "application/octet-stream";
      break;
    case 5:
      break;  // no Content-Type: sniffed
    case 6:
      contentType = "text/plain; charset=utf-8";
      break;
    default:
      contentType = "multipart/mixed; BOUNDARY=b; charset=utf-8";
      break;
  }
  try {
    const core::ai::InferResponse r =
        core::ai::parseInferResponse(status, contentType, body, "attachment; filename=r.nii.gz");
    if (r.hasImage && r.image.size() > body.size()) {
      std::abort();
    }
  } catch (const core::Error&) {
  }
  try {
    checkInside(core::ai::parseMultipart(contentType, body), body);
  } catch (const core::Error&) {
  }
  try {
    checkInside(core::ai::parseMultipartWithBoundary("b", body), body);
  } catch (const core::Error&) {
  }
  core::ai::classifyServerAnswer(status, contentType, body);
  try {
    core::ai::parseMonaiInfo(body, "fuzz");
  } catch (const core::Error&) {
  }
  try {
    core::ai::aiaaInfo(core::ai::parseAiaaModels(body, "fuzz"), "fuzz");
  } catch (const core::Error&) {
  }
  try {
    core::mammo::parseHangingProtocols(body, "fuzz.json");
  } catch (const core::Error&) {
  }
  try {
    const core::mammo::StudyFindings f = core::mammo::parseStudyFindings(body, "fuzz.json");
    for (const auto& image : f.images) {
      if (image.heatmap &&
          image.heatmap->values.size() != image.heatmap->columns * image.heatmap->rows) {
        std::abort();
      }
    }
  } catch (const core::Error&) {
  }
  try {
    core::ImageGeometry grid;
    grid.size = {8, 8, 4};
    core::NullProgress progress;
    const auto labels =
        core::ai::labelMapFromNiftiBytes(std::string(body), grid, "fuzz", {}, "fuzz", progress);
    if (labels && labels->voxelCount() != grid.voxelCount()) {
      std::abort();
    }
  } catch (const core::Error&) {
  }
  try {
    core::pacs::studiesFromDicomJson(body, "fuzz");
    core::pacs::seriesFromDicomJson(body, "fuzz");
    core::pacs::instancesFromDicomJson(body, "fuzz");
  } catch (const core::Error&) {
  }
  try {
    core::correctionRecordFromJson(std::string(body), "fuzz.correction.json");
  } catch (const core::Error&) {
  }
  try {
    const core::AdjudicationRecord a =
        core::adjudicationRecordFromJson(std::string(body), "fuzz.adjudication.json");
    // What it read writes back to what reads the same.
    if (core::adjudicationRecordFromJson(core::adjudicationRecordJson(a), "again") != a) {
      std::abort();
    }
  } catch (const core::Error&) {
  }
  const auto outcomes = core::pacs::stowOutcomes(status, body, {"1.1", "1.2"});
  if (outcomes.size() != 2) {
    std::abort();
  }
  const nlohmann::json result = nlohmann::json::parse(body, nullptr, false);
  if (!result.is_discarded()) {
    try {
      core::mammo::findingsFromInferResult(result, "fuzz");
    } catch (const core::Error&) {
    }
  }
  return 0;
}
