#pragma once
// What Run does with the steps given so far, decided from what the backend declares
// (BackendCapabilities, ServerInfo) and never from its protocol's name: the request, whether it
// refines the target segment, whether it must wait for more extreme points, and what to tell the
// user. Qt-free, so that the choices are tested headless; the app's AiController only carries
// them out (the segment's mask is read in the job, from a worker copy of its map).
#include <optional>
#include <string>

#include "annotation/ai/AiInteraction.h"
#include "core/ai/AiBackend.h"

namespace delineate::annotation {

struct AiRequestPlan {
  enum class Next {
    Send,                  // run `request`
    WaitForExtremePoints,  // 1 to 5 of the six extreme points so far: say so, send nothing
  };
  Next next = Next::Send;
  core::ai::InferRequest request;
  // The request refines the target segment: its voxels go in as InferRequest::initialMask.
  bool refinesSegment = false;
  // For the status line: "3 of 6 extreme points", "starts afresh: it takes no segment to
  // refine" (the backend's name goes before it).
  std::string note;
};

struct AiRequestInputs {
  std::string model;             // the model chosen in the AI panel
  core::VolumePtr image;         // the image the steps were placed on
  std::string segmentName;       // the target segment's name (deepgrow / deepedit label)
  bool segmentToRefine = false;  // Refine the selected segment is on and the segment exists
};

// The plan for the interaction's current target.
// - A backend that keeps prompts on the server (server undo) and takes points gets the clicks as
//   point prompts in the order they were given with the others; any other gets them as
//   foreground / background clicks.
// - Six extreme points go to the server's own extreme-point model (type "dextr3d") when its
//   `info` lists one, else to the chosen model (the built-in engine's).
// - A segment to refine goes in when the backend takes an initial mask, else the request starts
//   afresh and the note says so. Extreme points never refine.
AiRequestPlan planAiRequest(const AiInteraction& interaction, const AiRequestInputs& inputs,
                            const core::ai::BackendCapabilities& capabilities,
                            const core::ai::ServerInfo* info);

}  // namespace delineate::annotation
