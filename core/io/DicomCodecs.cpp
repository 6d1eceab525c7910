#include "core/io/DicomCodecs.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcobject.h>
#include <dcmtk/dcmdata/dcrledrg.h>
#include <dcmtk/dcmdata/dcrleerg.h>
#include <dcmtk/dcmjpeg/djdecode.h>
#include <dcmtk/dcmjpeg/djencode.h>
#include <dcmtk/dcmjpls/djdecode.h>
#include <dcmtk/dcmjpls/djencode.h>
#include <dcmtk/oflog/oflog.h>

#include <cstdlib>
#include <mutex>
#include <string>

namespace delineate::core {

namespace {

OFLogger::LogLevel logLevelFromEnvironment() {
  const char* env = std::getenv("DELINEATE_DCMTK_LOG");
  const std::string level = env ? env : "";
  if (level == "debug") {
    return OFLogger::DEBUG_LOG_LEVEL;
  }
  if (level == "info") {
    return OFLogger::INFO_LOG_LEVEL;
  }
  if (level == "warn") {
    return OFLogger::WARN_LOG_LEVEL;
  }
  if (level == "error") {
    return OFLogger::ERROR_LOG_LEVEL;
  }
  return OFLogger::FATAL_LOG_LEVEL;
}

void registerOnce() {
  OFLog::configure(logLevelFromEnvironment());
  // Attributes stored with VR UN (written by a system that did not know them, or passed on by an
  // archive) are read by their dictionary VR: a Rescale Slope in UN is still a decimal string.
  dcmEnableUnknownVRConversion.set(OFTrue);

  // Decoders: never invent new SOP Instance UIDs; we only read pixels.
  DJDecoderRegistration::registerCodecs(EDC_photometricInterpretation, EUC_never);
  DJLSDecoderRegistration::registerCodecs(EJLSUC_never);
  DcmRLEDecoderRegistration::registerCodecs(OFFalse);

  // Encoders: keep the caller's UIDs (deterministic output), never convert to Secondary Capture.
  // Lossy JPEG: map the stored value range 1:1 (usePixelValues off); DCMTK would otherwise
  // stretch the image's own min..max onto the output range without recording it.
  DJEncoderRegistration::registerCodecs(ECC_lossyYCbCr, EUC_never, OFFalse, 0, 0, 0, OFTrue,
                                        ESS_422, OFTrue, OFFalse, 0, 0, 0.0, 0.0, 0, 0, 0, 0,
                                        OFFalse /* usePixelValues */, OFFalse, OFFalse, OFFalse,
                                        OFTrue /* realLossless */);
  // Raw (not "cooked") encoding: straight from the pixel data, without DicomImage; the cooked
  // path of DCMTK 3.6.7 also leaves an uninitialised pad byte in odd-length frames (valgrind).
  DJLSEncoderRegistration::registerCodecs(0, 0, 0, 0, OFFalse, 0, OFTrue, EJLSUC_never, OFFalse);
  DcmRLEEncoderRegistration::registerCodecs(OFFalse, 0, OFTrue, OFFalse);
}

}  // namespace

void ensureDicomCodecs() {
  static std::once_flag once;
  std::call_once(once, registerOnce);
}

}  // namespace delineate::core
