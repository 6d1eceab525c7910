#pragma once
// Mammography AI findings from an AI server (a MONAI Label detection or classification model,
// e.g. delineate-server's `mammo_demo_detector`) through any core::ai::AiBackend: one inference
// per image, each answer read by findingsFromInferResult, merged into one StudyFindings. Qt-free
// and blocking: run it as a job.
//
// Per image the request carries the image and the model's name, and as params "laterality"
// ("L"/"R") and "view" ("CC", "MLO", ...) when the image's MammoView knows them (a NIfTI upload
// carries neither; a server that does not know these keys ignores them). A MONOCHROME1 image is
// sent inverted (min + max - value), so that dense tissue is bright whatever the server reads:
// NIfTI has no photometric interpretation.
//
// The merged findings: one ImageFindings per input image, in input order, imageId = view.id,
// marks as the server gave them (sorted by score); source "<backend.displayName()> model
// <model>" (e.g. "MONAI Label at http://gpu:8000 model mammo_demo_detector"); demonstration true
// if any answer said "demonstration": true; riskScore = 1 - prod(1 - p_i) over the images whose
// answer gave a probability p_i ("probability" / "score" / "risk"), i.e. the chance that at least
// one image shows something if the p_i were independent probabilities, and absent when no answer
// gave one. Unlike the built-in detector (which takes the highest score per breast), a lesion
// seen in both views of a breast counts twice. A model answering an image (a segmentation model)
// gives the image's heatmap from it: a probability map (floating-point values in 0..1, the
// request sets InferRequest::acceptProbability) as it is, labels as 1 where any label is; its
// params may then hold no findings at all (no marks).
#include <string>
#include <vector>

#include "core/ai/AiBackend.h"
#include "core/jobs/ProgressSink.h"
#include "core/mammo/DemoMammoDetector.h"
#include "core/mammo/MammoFindings.h"

namespace delineate::core::mammo {

// Throws Error whose `where` is backend.displayName() and whose detail names the image file
// (Volume info's source file, else view.id) and what went wrong: the server's error (the kind of
// the backend's Error kept), or an answer that is not a findings result (InvalidInput, as
// findingsFromInferResult says), e.g. "MONAI Label at http://gpu:8000: /data/L_CC.dcm: the
// answer of model 'm' is not a findings result: ...". Error(InvalidInput) for a null image;
// CancelledError when `progress` is cancelled.
StudyFindings findingsFromServer(core::ai::AiBackend& backend, const std::string& model,
                                 const std::vector<DetectorImage>& images, ProgressSink& progress);

}  // namespace delineate::core::mammo
