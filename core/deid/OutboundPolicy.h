#pragma once
// What a server is trusted with, per server (docs/deidentification.md, "What leaves the
// machine"): whoever sends pixels to it (the AI clients for inference and sessions, the dataset
// upload) asks here first. Names and headers sent never carry identifiers, whatever the policy:
// the clients send generic file names and NIfTI written from the voxels alone.
#include <optional>
#include <string>

#include "core/model/Volume.h"

namespace delineate::core::deid {

struct OutboundPolicy {
  // De-identify before sending: images that may show identifying text in their pixels
  // (holdBackReason) are not sent. Off only for a server trusted with identifiable images (one
  // inside the hospital).
  bool deidentify = true;

  bool operator==(const OutboundPolicy&) const = default;
};

// How a warning names `info`'s image to the user on this workstation (never sent): its source
// file or folder, else its series description, else "the image".
std::string describeImage(const VolumeInfo& info);

// Why `image` must not be sent under `policy` ("the image /data/us1 is held back: Burned In
// Annotation is YES: ..."), or nullopt when it may go.
std::optional<std::string> outboundRefusal(const Volume& image, const OutboundPolicy& policy);

// Throws HeldBackError naming `server` when outboundRefusal says no; nothing is sent then.
void requireSendable(const Volume& image, const OutboundPolicy& policy, const std::string& server);

}  // namespace delineate::core::deid
