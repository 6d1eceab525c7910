// libFuzzer harness: arbitrary bytes as a DICOM structured report file, through the display
// reader of any SR (readSrDocument) and the readers of the reports Delineate writes (mammography
// report, TID 1500 measurement report) and of any vendor's Mammography CAD SR. Any outcome but a
// core::Error (crash, sanitizer report, other exception) is a finding. Seeds: make_fuzz_seeds
// writes mammography report SRs to sr/; tests/fuzz/corpus/sr keeps two CAD SRs (one written by
// xml2dsr from tests/data/cad-sr/vendor-cad.xml, one by `delineate-cli detect --sr`).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "FuzzTempFile.h"
#include "core/Error.h"
#include "core/report/MammoCadSr.h"
#include "core/report/MammographyReportSr.h"
#include "core/report/MeasurementReportSr.h"
#include "core/report/SrDocument.h"

using namespace delineate;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = fuzz::writeInput("input-sr.dcm", data, size);
  try {
    const core::report::SrDocument d = core::report::readSrDocument(path);
    // Walk the tree once, as a display would.
    std::size_t chars = d.title.size();
    std::vector<const core::report::SrNode*> pending{&d.root};
    while (!pending.empty()) {
      const core::report::SrNode* n = pending.back();
      pending.pop_back();
      chars += n->value.size() + n->name.meaning.size();
      for (const core::report::SrNode& c : n->children) {
        pending.push_back(&c);
      }
    }
    (void)chars;
  } catch (const core::Error&) {
  }
  try {
    core::report::readMammographyReportSr(path);
  } catch (const core::Error&) {
  }
  try {
    core::report::readMeasurementReportSr(path);
  } catch (const core::Error&) {
  }
  try {
    core::report::readMammographyCadSr(path);
  } catch (const core::Error&) {
  }
  return 0;
}
