#include "core/pacs/LocalInstance.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcfilefo.h>

#include <system_error>

#include "core/io/DicomCodecs.h"

namespace delineate::core::pacs {

bool localInstanceIsWhole(const std::filesystem::path& file, const std::string& sopInstanceUid) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec) || std::filesystem::file_size(file, ec) == 0 ||
      ec) {
    return false;
  }
  ensureDicomCodecs();  // also quiets DCMTK's log about the damaged ones
  DcmFileFormat format;
  // Values longer than 4 KB are skipped by seeking: a file cut inside its pixel data still
  // fails, since the element's end lies past the end of the file.
  if (format.loadFile(file.c_str(), EXS_Unknown, EGL_noChange, 4096, ERM_autoDetect).bad()) {
    return false;
  }
  OFString sop;
  format.getDataset()->findAndGetOFString(DCM_SOPInstanceUID, sop);
  return sop == sopInstanceUid.c_str();
}

}  // namespace delineate::core::pacs
