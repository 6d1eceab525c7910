#pragma once
// DCMTK needs its codecs registered once per process before it can decode or encode JPEG,
// JPEG-LS and RLE pixel data. Every DICOM entry point of core calls this first.

namespace delineate::core {

// Registers the JPEG, JPEG-LS and RLE decoders and encoders exactly once (thread-safe; later
// calls return at once), and quiets DCMTK's own console logging: core reports every failure
// through Error instead. Set DELINEATE_DCMTK_LOG=warn|info|debug to see DCMTK's log.
void ensureDicomCodecs();

}  // namespace delineate::core
