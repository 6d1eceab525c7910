#include "core/io/DicomFloatPixels.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>

#include <cstring>
#include <string>

#include "core/Error.h"
#include "core/io/DicomCondition.h"

namespace delineate::core {

void readDicomFloatFrames(const DicomFileHeader& h,
                          const std::vector<std::pair<std::size_t, std::size_t>>& frames,
                          unsigned char* base, std::size_t slotBytes, ProgressSink& progress) {
  DcmFileFormat file;
  checkDicom(
      file.loadFile(h.path.c_str(), EXS_Unknown, EGL_noChange, DCM_MaxReadLength, ERM_autoDetect),
      h.path, "reading the file (truncated or corrupt?)");
  DcmDataset* ds = file.getDataset();
  const bool isDouble = h.floatPixelBits == 64;
  const std::string name = isDouble ? "Double Float Pixel Data" : "Float Pixel Data";
  const void* data = nullptr;
  unsigned long count = 0;
  if (isDouble) {
    const Float64* values = nullptr;
    if (ds->findAndGetFloat64Array(DCM_DoubleFloatPixelData, values, &count).good()) {
      data = values;
    }
  } else {
    const Float32* values = nullptr;
    if (ds->findAndGetFloat32Array(DCM_FloatPixelData, values, &count).good()) {
      data = values;
    }
  }
  if (data == nullptr) {
    throw Error(ErrorKind::InvalidInput, h.path, name + " is missing or unreadable");
  }
  const std::size_t perFrame = h.rows * h.columns;
  if (count < perFrame * h.frames) {
    throw Error(ErrorKind::InvalidInput, h.path,
                name + " holds " + std::to_string(count) + " values but " +
                    std::to_string(h.frames) + " frame(s) of " + std::to_string(h.columns) + "x" +
                    std::to_string(h.rows) + " need " + std::to_string(perFrame * h.frames));
  }
  const std::size_t bytes = perFrame * (isDouble ? 8 : 4);
  if (bytes > slotBytes) {
    throw Error(ErrorKind::Internal, h.path, "float slice larger than its slot");
  }
  for (const auto& [frame, slice] : frames) {
    progress.throwIfCancelled();
    std::memcpy(base + slice * slotBytes, static_cast<const unsigned char*>(data) + frame * bytes,
                bytes);
  }
}

}  // namespace delineate::core
