#include "core/metrics/Consensus.h"

#include <itkImage.h>
#include <itkSTAPLEImageFilter.h>

#include <algorithm>
#include <map>

#include "core/Error.h"
#include "core/metrics/SameGrid.h"

namespace delineate::core {

namespace {

using Mask = itk::Image<unsigned char, 3>;
using Posterior = itk::Image<float, 3>;

struct Box {
  std::array<std::size_t, 3> from{0, 0, 0}, to{0, 0, 0};  // `to` exclusive
  std::size_t count() const { return (to[0] - from[0]) * (to[1] - from[1]) * (to[2] - from[2]); }
  // Calls f(index in the map, index in the box) for every voxel of the box.
  template <class F>
  void each(const Size3& size, F f) const {
    std::size_t b = 0;
    for (std::size_t k = from[2]; k < to[2]; ++k) {
      for (std::size_t j = from[1]; j < to[1]; ++j) {
        const std::size_t row = size[0] * (j + size[1] * k);
        for (std::size_t i = from[0]; i < to[0]; ++i) {
          f(row + i, b++);
        }
      }
    }
  }
};

// The box holding every reader's labels, grown by `margin` (clipped to the grid); empty when no
// reader labelled anything.
Box labelBox(const std::vector<const LabelMap*>& readers, int margin) {
  const Size3 n = readers.front()->geometry().size;
  std::array<std::size_t, 3> lo{n[0], n[1], n[2]}, hi{0, 0, 0};
  for (const LabelMap* r : readers) {
    const std::uint16_t* d = r->data();
    for (std::size_t k = 0; k < n[2]; ++k) {
      for (std::size_t j = 0; j < n[1]; ++j) {
        const std::uint16_t* row = d + n[0] * (j + n[1] * k);
        for (std::size_t i = 0; i < n[0]; ++i) {
          if (row[i] != 0) {
            lo = {std::min(lo[0], i), std::min(lo[1], j), std::min(lo[2], k)};
            hi = {std::max(hi[0], i + 1), std::max(hi[1], j + 1), std::max(hi[2], k + 1)};
          }
        }
      }
    }
  }
  Box box;
  if (hi[0] == 0) {
    return box;
  }
  const std::size_t m = std::size_t(std::max(margin, 0));
  for (int a = 0; a < 3; ++a) {
    box.from[a] = lo[a] > m ? lo[a] - m : 0;
    box.to[a] = std::min(hi[a] + m, n[a]);
  }
  return box;
}

Mask::Pointer maskOf(const LabelMap& reader, const Box& box, std::uint16_t label) {
  auto mask = Mask::New();
  Mask::RegionType region;
  region.SetSize({box.to[0] - box.from[0], box.to[1] - box.from[1], box.to[2] - box.from[2]});
  mask->SetRegions(region);
  mask->Allocate();
  unsigned char* out = mask->GetBufferPointer();
  const std::uint16_t* in = reader.data();
  box.each(reader.geometry().size,
           [&](std::size_t v, std::size_t b) { out[b] = in[v] == label ? 1 : 0; });
  return mask;
}

// Sensitivity and specificity of `reader` for `label` against `truth`, inside the box.
ReaderLabelAgreement measure(const LabelMap& reader, const LabelMap& truth, const Box& box,
                             std::uint16_t label) {
  std::size_t tp = 0, fn = 0, tn = 0, fp = 0;
  box.each(reader.geometry().size, [&](std::size_t v, std::size_t) {
    const bool r = reader.data()[v] == label;
    const bool t = truth.data()[v] == label;
    tp += r && t;
    fn += !r && t;
    fp += r && !t;
    tn += !r && !t;
  });
  return {label, tp + fn ? double(tp) / double(tp + fn) : 1.0,
          tn + fp ? double(tn) / double(tn + fp) : 1.0};
}

std::vector<Segment> segmentsOf(const std::vector<const LabelMap*>& readers,
                                const std::vector<std::uint16_t>& labels) {
  std::vector<Segment> out;
  for (std::uint16_t label : labels) {
    const Segment* found = nullptr;
    for (const LabelMap* r : readers) {
      if ((found = r->segment(label)) != nullptr) {
        break;
      }
    }
    out.push_back(found != nullptr ? *found : defaultSegment(label));
  }
  return out;
}

void staple(const std::vector<const LabelMap*>& readers, const ConsensusOptions& options,
            const Box& box, ConsensusResult& result, ProgressSink& progress) {
  const Size3 n = readers.front()->geometry().size;
  std::vector<float> best(box.count(), 0.0f);
  std::vector<std::uint16_t> bestLabel(box.count(), 0);
  for (std::size_t l = 0; l < result.labels.size(); ++l) {
    progress.report(double(l) / double(result.labels.size()),
                    "STAPLE, label " + std::to_string(result.labels[l]));
    if (progress.cancelled()) {
      throw CancelledError();
    }
    using Filter = itk::STAPLEImageFilter<Mask, Posterior>;
    auto filter = Filter::New();
    filter->SetForegroundValue(1);
    filter->SetMaximumIterations(unsigned(std::max(options.maxIterations, 1)));
    std::vector<Mask::Pointer> masks;
    for (std::size_t r = 0; r < readers.size(); ++r) {
      masks.push_back(maskOf(*readers[r], box, result.labels[l]));
      filter->SetInput(unsigned(r), masks.back());
    }
    filter->Update();
    const float* w = filter->GetOutput()->GetBufferPointer();
    for (std::size_t b = 0; b < box.count(); ++b) {
      if (w[b] >= 0.5f && w[b] > best[b]) {
        best[b] = w[b];
        bestLabel[b] = result.labels[l];
      }
    }
    for (std::size_t r = 0; r < readers.size(); ++r) {
      result.readers[r][l] = {result.labels[l], filter->GetSensitivity(unsigned(r)),
                              filter->GetSpecificity(unsigned(r))};
    }
    result.iterations[l] = int(filter->GetElapsedIterations());
  }
  std::uint16_t* out = result.consensus->mutableData();
  box.each(n, [&](std::size_t v, std::size_t b) { out[v] = bestLabel[b]; });
}

void vote(const std::vector<const LabelMap*>& readers, const Box& box, ConsensusResult& result) {
  std::uint16_t* out = result.consensus->mutableData();
  std::vector<std::pair<std::uint16_t, int>> counts;
  box.each(readers.front()->geometry().size, [&](std::size_t v, std::size_t) {
    counts.clear();
    for (const LabelMap* r : readers) {
      const std::uint16_t label = r->data()[v];
      auto it = std::find_if(counts.begin(), counts.end(),
                             [&](const auto& c) { return c.first == label; });
      if (it == counts.end()) {
        counts.emplace_back(label, 1);
      } else {
        ++it->second;
      }
    }
    int top = 0, atTop = 0;
    std::uint16_t label = 0;
    for (const auto& [value, count] : counts) {
      if (count > top) {
        top = count;
        atTop = 1;
        label = value;
      } else if (count == top) {
        ++atTop;
      }
    }
    if (atTop > 1) {
      label = 0;
      ++result.undecided;
    }
    out[v] = label;
  });
  for (std::size_t r = 0; r < readers.size(); ++r) {
    for (std::size_t l = 0; l < result.labels.size(); ++l) {
      result.readers[r][l] = measure(*readers[r], *result.consensus, box, result.labels[l]);
    }
  }
}

}  // namespace

const char* toString(ConsensusMethod method) {
  return method == ConsensusMethod::Staple ? "staple" : "vote";
}

ConsensusResult computeConsensus(const std::vector<const LabelMap*>& readers,
                                 const ConsensusOptions& options, ProgressSink& progress) {
  if (readers.size() < 2) {
    throw Error(ErrorKind::InvalidInput, "consensus", "it needs at least two readers' label maps");
  }
  for (std::size_t r = 1; r < readers.size(); ++r) {
    requireSameGrid(*readers.front(), *readers[r]);
  }
  std::vector<bool> used(65536, false);
  for (const LabelMap* r : readers) {
    const std::uint16_t* d = r->data();
    for (std::size_t v = 0; v < r->voxelCount(); ++v) {
      used[d[v]] = true;
    }
  }
  ConsensusResult result;
  for (std::size_t label = 1; label < used.size(); ++label) {
    if (used[label]) {
      result.labels.push_back(std::uint16_t(label));
    }
  }
  result.consensus =
      std::make_shared<LabelMap>(std::string(toString(options.method)) + " consensus",
                                 readers.front()->geometry(), segmentsOf(readers, result.labels));
  result.readers.assign(readers.size(), std::vector<ReaderLabelAgreement>(result.labels.size()));
  result.iterations.assign(result.labels.size(), 0);
  const Box box = labelBox(readers, options.margin);
  result.boxFrom = box.from;
  result.boxTo = box.to;
  if (box.count() > 0) {
    if (options.method == ConsensusMethod::Staple) {
      staple(readers, options, box, result, progress);
    } else {
      vote(readers, box, result);
    }
  }
  result.voxels.assign(result.labels.size(), 0);
  const std::uint16_t* c = result.consensus->data();
  for (std::size_t v = 0; v < result.consensus->voxelCount(); ++v) {
    if (c[v] != 0) {
      const auto at = std::lower_bound(result.labels.begin(), result.labels.end(), c[v]);
      ++result.voxels[std::size_t(at - result.labels.begin())];
    }
  }
  progress.report(1, "consensus");
  return result;
}

nlohmann::json ConsensusResult::toJson(const std::vector<std::string>& names,
                                       ConsensusMethod method) const {
  nlohmann::json labelList = nlohmann::json::array();
  for (std::size_t l = 0; l < labels.size(); ++l) {
    const Segment* s = consensus->segment(labels[l]);
    nlohmann::json j = {{"label", labels[l]},
                        {"name", s != nullptr ? s->name : std::string()},
                        {"consensus_voxels", voxels[l]}};
    if (method == ConsensusMethod::Staple) {
      j["iterations"] = iterations[l];
    }
    labelList.push_back(j);
  }
  nlohmann::json readerList = nlohmann::json::array();
  for (std::size_t r = 0; r < readers.size(); ++r) {
    nlohmann::json per = nlohmann::json::array();
    for (const ReaderLabelAgreement& a : readers[r]) {
      per.push_back(
          {{"label", a.label}, {"sensitivity", a.sensitivity}, {"specificity", a.specificity}});
    }
    readerList.push_back(
        {{"reader", r < names.size() ? names[r] : std::to_string(r + 1)}, {"labels", per}});
  }
  nlohmann::json out = {{"method", toString(method)},
                        {"labels", labelList},
                        {"readers", readerList},
                        {"box", {{"from", boxFrom}, {"to", boxTo}}}};
  if (method == ConsensusMethod::Vote) {
    out["undecided_voxels"] = undecided;
  }
  return out;
}

}  // namespace delineate::core
