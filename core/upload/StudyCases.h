#pragma once
// Cases picked in the study browser: series of one DICOM scan. A picked image series is a case
// whose labels are the DICOM SEGs of the scan that reference it (Referenced Series Sequence, else
// the one image series of the SEG's frame of reference); a picked SEG makes a case of the series
// it references, with every SEG of that series. Picking a series and its SEG gives one case.
#include <cstddef>
#include <vector>

#include "core/io/DicomSeries.h"
#include "core/jobs/ProgressSink.h"
#include "core/upload/DatasetCase.h"

namespace delineate::core::upload {

// `picked` are indices into scan.allSeries(). Reads the SEGs' headers only. Throws
// Error(InvalidInput) naming the SEG file when a picked SEG refers to no image series of the
// scan, and naming the index when it is out of range.
std::vector<DatasetCase> casesFromSeries(const DicomScanResult& scan,
                                         const std::vector<std::size_t>& picked,
                                         ProgressSink& progress);

// A DICOM Segmentation series (by modality, or SOP class when the modality is missing).
bool isSegSeries(const DicomSeries& series);

}  // namespace delineate::core::upload
