#pragma once
// The DICOM files of a mammography study's views as the SR writers refer to them (the BI-RADS
// report SR and the Mammography CAD SR). Internal to core/report.
#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmsr/dsrdoc.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/io/DicomHeader.h"

namespace delineate::core::report::sr {

// The files' headers, each SOP instance once, in the order given. Throws Error(InvalidInput)
// naming a file that has no SOP Class or SOP Instance UID (a report could not refer to it).
std::vector<DicomFileHeader> readViewHeaders(const std::vector<std::filesystem::path>& files);

// The view `imageId` names (AI findings and report links name images by SOP Instance UID or by
// path): its SOP Instance UID first, else its file (the same path, or the same file on disk).
std::optional<std::size_t> viewNamed(const std::string& imageId,
                                     const std::vector<DicomFileHeader>& views);

// Lists every view in the document's Current Requested Procedure Evidence. Throws Error naming
// `where` when DCMTK refuses one.
void listEvidence(DSRDocument& doc, const std::vector<DicomFileHeader>& views,
                  const std::string& where);

}  // namespace delineate::core::report::sr
