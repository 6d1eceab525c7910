#include "core/mammo/ServerFindings.h"

#include <algorithm>

#include "core/Error.h"
#include "core/mammo/ProbabilityImage.h"

namespace delineate::core::mammo {

using nlohmann::json;

namespace {

// What the user knows the image by: its file, else the caller's id.
std::string imageName(const DetectorImage& input, std::size_t index) {
  if (input.image) {
    const VolumeInfo& info = input.image->info();
    if (info.sourceFiles.size() == 1 && !info.sourceFiles.front().empty()) {
      return info.sourceFiles.front();
    }
    if (!info.sourcePath.empty()) {
      return info.sourcePath;
    }
  }
  return input.view.id.empty() ? "image " + std::to_string(index + 1) : input.view.id;
}

// The image with dense tissue bright: MONOCHROME1 inverted (min + max - value), as the
// detector's own reading does (MammoImageOps toFloatImage); others unchanged.
VolumePtr brightIsDense(const VolumePtr& image) {
  if (image->info().photometric != "MONOCHROME1") {
    return image;
  }
  // A plain variable: clang 14 cannot capture a structured binding in the lambda below.
  const double flip = image->valueRange().first + image->valueRange().second;
  auto voxels = std::make_shared<VoxelBuffer>(image->scalarType(), image->voxels().count());
  dispatchScalar(image->scalarType(), [&](auto tag) {
    using T = decltype(tag);
    const T* in = image->data<T>();
    T* out = voxels->as<T>();
    for (std::size_t i = 0; i < voxels->count(); ++i) {
      out[i] = static_cast<T>(flip - static_cast<double>(in[i]));
    }
  });
  VolumeInfo info = image->info();
  info.photometric = "MONOCHROME2";
  return std::make_shared<const Volume>(image->geometry(), std::move(voxels), std::move(info));
}

// Whether a result's params hold marks or an image probability (else only its image speaks).
bool hasFindings(const json& params) {
  if (!params.is_object()) {
    return false;
  }
  for (const char* key : {"boxes", "box", "probability", "score", "risk"}) {
    if (params.contains(key)) {
      return true;
    }
  }
  return false;
}

// A segmentation model's labels as a map of 1 where any segment is and 0 elsewhere.
ProbabilityImage labelsAsProbability(const LabelMap& labels) {
  const ImageGeometry& g = labels.geometry();
  ProbabilityImage p;
  p.columns = g.size[0];
  p.rows = g.size[1];
  p.values.resize(p.columns * p.rows);
  const std::uint16_t* v = labels.data();
  for (std::size_t i = 0; i < p.values.size(); ++i) {
    p.values[i] = v[i] != 0 ? 1.0f : 0.0f;
  }
  return p;
}

}  // namespace

StudyFindings findingsFromServer(ai::AiBackend& backend, const std::string& model,
                                 const std::vector<DetectorImage>& images, ProgressSink& progress) {
  const std::string server = backend.displayName();
  StudyFindings out;
  out.source = server + " model " + model;
  double noneFound = 1;  // prod(1 - p) over the images that gave a probability
  bool anyProbability = false;
  for (std::size_t i = 0; i < images.size(); ++i) {
    progress.throwIfCancelled();
    const DetectorImage& input = images[i];
    const std::string name = imageName(input, i);
    if (!input.image) {
      throw Error(ErrorKind::InvalidInput, server, name + ": no image");
    }
    progress.report(double(i) / double(images.size()), "AI findings: " + name);
    ai::InferRequest request;
    request.model = model;
    request.image = brightIsDense(input.image);
    request.acceptProbability = true;
    request.options = json::object();
    if (input.view.laterality != Laterality::Unknown) {
      request.options["laterality"] = toString(input.view.laterality);
    }
    if (input.view.view != ViewCode::Unknown) {
      request.options["view"] = toString(input.view.view);
    }
    ai::InferResult result;
    try {
      SubProgress sub(progress, double(i) / double(images.size()),
                      double(i + 1) / double(images.size()));
      result = backend.infer(request, sub);
    } catch (const CancelledError&) {
      throw;
    } catch (const Error& e) {
      // The backend's errors name the server already ("where" is its URL): keep the reason.
      const bool aboutServer = e.where().empty() || server.find(e.where()) != std::string::npos;
      throw Error(e.kind(), server, name + ": " + (aboutServer ? e.detail() : e.what()));
    }
    StudyFindings one;
    const bool hasImage = result.probability || result.labels;
    try {
      if (hasImage && !hasFindings(result.params)) {
        one.images.push_back({input.view.id, {}, std::nullopt});  // the image is the answer
      } else {
        one = findingsFromInferResult(result.params, input.view.id);
      }
      if (hasImage) {
        const ImageGeometry& g = input.image->geometry();
        one.images.front().heatmap =
            heatmapOnImage(result.probability ? probabilityFromVolume(*result.probability, server)
                                              : labelsAsProbability(*result.labels),
                           g.size[0], g.size[1], server + ": " + name);
      }
    } catch (const Error& e) {
      throw Error(
          ErrorKind::InvalidInput, server,
          name + ": the answer of model '" + model + "' is not a findings result: " + e.detail());
    }
    if (result.params.is_object()) {
      const auto demo = result.params.find("demonstration");
      out.demonstration |= demo != result.params.end() && demo->is_boolean() && demo->get<bool>();
    }
    if (one.riskScore) {
      anyProbability = true;
      noneFound *= 1 - std::clamp(*one.riskScore, 0.0, 1.0);
    }
    out.images.push_back(std::move(one.images.front()));
  }
  if (anyProbability) {
    out.riskScore = 1 - noneFound;
  }
  progress.report(1.0, "AI findings");
  return out;
}

}  // namespace delineate::core::mammo
