#include "core/deid/OutboundPolicy.h"

#include "core/deid/HeldBackError.h"
#include "core/deid/HoldBackPolicy.h"

namespace delineate::core::deid {

std::string describeImage(const VolumeInfo& info) {
  if (!info.sourcePath.empty()) {
    return "the image " + info.sourcePath;
  }
  if (!info.seriesDescription.empty()) {
    return "the image '" + info.seriesDescription + "'";
  }
  return "the image";
}

std::optional<std::string> outboundRefusal(const Volume& image, const OutboundPolicy& policy) {
  if (!policy.deidentify) {
    return std::nullopt;
  }
  const std::optional<std::string> reason = holdBackReason(image.info());
  if (!reason) {
    return std::nullopt;
  }
  return describeImage(image.info()) + " is held back: " + *reason;
}

void requireSendable(const Volume& image, const OutboundPolicy& policy, const std::string& server) {
  if (const std::optional<std::string> refusal = outboundRefusal(image, policy)) {
    throw HeldBackError(server, "not sent: " + *refusal +
                                    " (this server has de-identification on; turn it off only "
                                    "for a server trusted with identifiable images)");
  }
}

}  // namespace delineate::core::deid
