#pragma once
// nnInteractive's v2 remote-inference routes (docs/ai-protocol.md, "nnInteractive v2"), answered
// by the built-in engine's prompt segmenter, so that any nnInteractive client (3D Slicer's,
// napari's, Delineate's) can use a machine without a GPU:
//   GET /healthz, GET /capabilities, POST /claim, /release, /heartbeat, GET /lease_status,
//   POST /set_image (packed array [C, a0, a1, a2]), /set_target_buffer, /set_do_autozoom,
//   /reset_interactions, /undo, /add_point_interaction, /add_bbox_interaction,
//   /add_scribble_interaction, /add_lasso_interaction, /add_initial_seg_interaction.
// A static API key (Authorization: Bearer KEY) guards every route but /healthz when set; it is
// checked before the lease, as the reference server does. Leases: InteractiveLeases.
// Coordinates index the uploaded array's axes; an image stored x fastest arrives as
// [1, nz, ny, nx], so a0 = k, a1 = j, a2 = i. `image_properties.spacing` in set_image's X-Meta,
// when given (in array-axis order), is used as the voxel size; else 1 mm.
#include <optional>
#include <string>

#include "annotation/engine/PromptSegmenter.h"
#include "app/server/InteractiveLeases.h"
#include "core/net/HttpServer.h"

namespace delineate::server {

struct NnInteractiveOptions {
  LeaseOptions leases;
  std::string apiKey;                                // empty: no key needed
  std::size_t maxImageBytes = std::size_t(4) << 30;  // a set_image array larger is refused (413)
};

class NnInteractiveApi {
 public:
  explicit NnInteractiveApi(NnInteractiveOptions options);

  // The answer when `r.path` is one of the routes above, else nullopt.
  std::optional<core::net::HttpResponse> handle(const core::net::ServerRequest& r);

  InteractiveLeases& leases() { return leases_; }

 private:
  core::net::HttpResponse route(const std::string& path, const core::net::ServerRequest& r);
  core::net::HttpResponse setImage(InteractiveSession& s, const core::net::ServerRequest& r);
  core::net::HttpResponse setTargetBuffer(InteractiveSession& s, const core::net::ServerRequest& r);
  core::net::HttpResponse addPrompt(InteractiveSession& s, const std::string& kind,
                                    const core::net::ServerRequest& r);
  core::net::HttpResponse addInitialSeg(InteractiveSession& s, const core::net::ServerRequest& r);
  core::net::HttpResponse undo(InteractiveSession& s);
  // Runs the engine on the session's prompts and answers the changed region.
  core::net::HttpResponse predict(InteractiveSession& s, const core::VoxelBox& promptRegion);

  NnInteractiveOptions options_;
  InteractiveLeases leases_;
  annotation::PromptSegmenter segmenter_;
};

}  // namespace delineate::server
