#pragma once
// delineate-server's mammography model: the built-in demonstration detector
// (core::mammo::DemoMammoDetector) as a MONAI Label "detection" model, dimension 2, labels
// {"mass": 1, "calcification": 2, "asymmetry": 3}. Not a diagnosis: every answer says
// "demonstration": true.
//
// POST /infer/mammo_demo_detector with one 2-D image (uploaded `file`: NIfTI/NRRD/MetaImage, or a
// DICOM MG/DX file, whose Image Laterality, View Position and Photometric Interpretation are
// read; or a session / datastore image) answers JSON only, as MONAI Label does for a model that
// writes no file (docs/ai-protocol.md, "/infer answers and errors"): the result params as the body,
// application/json, whatever `output` asked for apart from `image` and `dicom_seg` (those get a
// 500: there is no image):
//
//   {"boxes": [[x0, y0, x1, y1], ...],   // image pixels (column = x), 0-based
//    "scores": [0.81, ...], "labels": [1, ...],
//    "label_names": {"mass": 1, "calcification": 2, "asymmetry": 3},
//    "probability": 0.81,                // the image's score: its highest mark score, 0 if none
//    "demonstration": true, "laterality": "L", "view": "MLO",   // null when unknown
//    "latencies": {"pre": s, "infer": s, "post": s, "total": s}}
//
// Params read: "laterality" ("L"/"R") and "view" ("CC", "MLO", ...) for an image whose file does
// not say (NIfTI carries neither): the view decides whether the pectoral muscle is looked for;
// "mark_threshold" (0..1, default 0.3). One image has no other breast to compare with, so this
// model never reports "asymmetry" (the label stays listed for clients that map labels).
#include <nlohmann/json.hpp>
#include <string>

#include "core/jobs/ProgressSink.h"
#include "core/mammo/DemoMammoDetector.h"

namespace delineate::server {

inline constexpr const char* kMammoDetectorModel = "mammo_demo_detector";
// The same detector as a "segmentation" model whose answer image is its probability map: a
// float32 NIfTI on the request image's grid (each pixel the value of the coarse heatmap block it
// lies in, 0..1), with the detector's JSON as the params (multipart; output=image: the image
// alone; output=json: the params alone).
inline constexpr const char* kMammoHeatmapModel = "mammo_demo_heatmap";
nlohmann::json mammoHeatmapInfo();

// The model's entry in GET /info/ "models".
nlohmann::json mammoDetectorInfo();

// Whether an uploaded file is DICOM: its name ends in .dcm/.dicom or its bytes carry the "DICM"
// preamble.
bool isDicomUpload(const std::string& bytes, const std::string& filename);

// An uploaded DICOM file (one frame) as the detector's input: pixels through the DICOM loader
// (rescale, MONOCHROME1 kept for the detector to invert), laterality and view from its header.
// Throws core::Error(InvalidInput) when it is not a readable single-frame DICOM image.
core::mammo::DetectorImage readDicomUpload(const std::string& bytes, const std::string& filename,
                                           core::ProgressSink& progress);

// Runs the detector on one image with the request's params (see above) and gives the result
// params (without latencies). Throws core::Error(InvalidInput) for a "mark_threshold" that is
// not a number in 0..1 or a "laterality"/"view" that is not a text (an unknown text is ignored),
// Error(Unsupported) for an image of more than one slice. With `probability`, also the detector's
// heatmap on the image's grid (float32, 0..1), as mammo_demo_heatmap answers it.
nlohmann::json runMammoDetector(core::mammo::DetectorImage image, const nlohmann::json& params,
                                core::ProgressSink& progress,
                                core::VolumePtr* probability = nullptr);

}  // namespace delineate::server
