#include "core/io/DicomCondition.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcerror.h>
#include <dcmtk/ofstd/ofcond.h>

namespace delineate::core {

namespace {

ErrorKind kindOf(const OFCondition& c) {
  if (c == EC_MemoryExhausted) {
    return ErrorKind::TooLarge;
  }
  if (c == EC_UnsupportedEncoding || c == EC_CannotChangeRepresentation ||
      c == EC_RepresentationNotFound || c == EC_UnknownTransferSyntax) {
    return ErrorKind::Unsupported;
  }
  if (c == EC_InvalidFilename) {
    return ErrorKind::Io;
  }
  if (c.module() == OFM_dcmnet) {  // associations, DIMSE messages, TCP connections
    return ErrorKind::Network;
  }
  // Conditions that carry an operating-system error (open, write) come from module OFM_ofstd/
  // dcmdata with the system's text; DCMTK gives them no dedicated constant, so look at the text.
  const std::string text = c.text();
  for (const char* osText : {"No such file", "Permission denied", "No space left",
                             "Read-only file system", "Is a directory"}) {
    if (text.find(osText) != std::string::npos) {
      return ErrorKind::Io;
    }
  }
  return ErrorKind::InvalidInput;
}

}  // namespace

Error dicomError(const OFCondition& condition, const std::string& file, std::string_view doing) {
  std::string what(doing);
  what += ": ";
  what += condition.text();
  return Error(kindOf(condition), file, what);
}

void checkDicom(const OFCondition& condition, const std::string& file, std::string_view doing) {
  if (condition.bad()) {
    throw dicomError(condition, file, doing);
  }
}

}  // namespace delineate::core
