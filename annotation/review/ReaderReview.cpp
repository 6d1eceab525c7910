#include "annotation/review/ReaderReview.h"

#include <algorithm>

#include "core/Error.h"

namespace delineate::annotation {

namespace {

// The box holding every voxel any reader marked, grown by `margin` and kept inside the grid.
core::VoxelBox grownContent(const core::LabelMap& votes, std::size_t margin) {
  core::VoxelBox box = core::contentBox(votes);
  if (box.empty()) {
    return box;
  }
  const core::Size3& s = votes.geometry().size;
  for (int a = 0; a < 3; ++a) {
    box.lo[a] = box.lo[a] > margin ? box.lo[a] - margin : 0;
    box.hi[a] = std::min(s[a], box.hi[a] + margin);
  }
  return box;
}

// Reader r's structure as value 1 inside `box`, on the box's own grid (same spacing and
// direction, so distances in mm are those of the whole map).
std::shared_ptr<core::LabelMap> croppedMask(const core::LabelMap& reader, std::uint16_t value,
                                            const core::VoxelBox& box, const std::string& name,
                                            const core::Segment& segment) {
  core::ImageGeometry g = reader.geometry();
  g.origin = g.indexToWorld({double(box.lo[0]), double(box.lo[1]), double(box.lo[2])});
  g.size = {box.hi[0] - box.lo[0], box.hi[1] - box.lo[1], box.hi[2] - box.lo[2]};
  auto out = std::make_shared<core::LabelMap>(name, g, std::vector<core::Segment>{segment});
  if (value == 0) {
    return out;
  }
  std::uint16_t* dst = out->mutableData();
  for (std::size_t k = box.lo[2]; k < box.hi[2]; ++k) {
    for (std::size_t j = box.lo[1]; j < box.hi[1]; ++j) {
      const std::uint16_t* src = reader.data() + reader.index(box.lo[0], j, k);
      std::uint16_t* row = dst + out->index(0, j - box.lo[1], k - box.lo[2]);
      for (std::size_t i = 0; i < g.size[0]; ++i) {
        row[i] = src[i] == value ? 1 : 0;
      }
    }
  }
  return out;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  }
  return out;
}

}  // namespace

ReaderReview ReaderReview::compute(Input input, core::ProgressSink& progress) {
  const std::vector<const core::LabelMap*>& maps = input.readers;
  while (input.names.size() < maps.size()) {
    input.names.push_back(maps[input.names.size()]->name());
  }
  ReaderReview out;
  core::SubProgress voting(progress, 0, 0.3);
  out.votes_ = core::readerVotes(maps, input.structure, input.value, voting);
  const std::string what =
      input.structure.empty() ? "label " + std::to_string(input.value) : input.structure;
  if (std::all_of(out.votes_.values.begin(), out.votes_.values.end(),
                  [](std::uint16_t v) { return v == 0; })) {
    throw core::Error(core::ErrorKind::InvalidInput, what, "no reader's label map has it");
  }
  core::SubProgress regions(progress, 0.3, 0.5);
  out.regions_ = core::disagreementRegions(out.votes_, maps, input.minRegionVoxels, regions);

  const core::VoxelBox box = grownContent(*out.votes_.map, 2);
  core::Segment segment = core::defaultSegment(1);
  segment.name = what;
  std::vector<std::shared_ptr<core::LabelMap>> masks;
  std::vector<const core::LabelMap*> maskPtrs;
  if (!box.empty()) {
    for (std::size_t r = 0; r < maps.size(); ++r) {
      masks.push_back(croppedMask(*maps[r], out.votes_.values[r], box, input.names[r], segment));
      maskPtrs.push_back(masks.back().get());
    }
    core::SubProgress measuring(progress, 0.5, 1);
    const core::ReaderAgreement agreement = core::readerAgreement(maskPtrs, input.names, measuring);
    if (!agreement.labels.empty()) {
      out.matrices_ = agreement.labels.front();
    }
  }
  if (out.matrices_.dice.empty()) {
    // Nobody marked anything: every pair agrees on an empty structure.
    const std::size_t n = maps.size();
    out.matrices_.label = what;
    out.matrices_.dice.assign(n, std::vector<double>(n, 1.0));
    out.matrices_.hd95.assign(n, std::vector<double>(n, 0.0));
  }
  out.names_ = std::move(input.names);
  out.tools_ = std::move(input.tools);
  out.tools_.resize(out.names_.size());
  out.segment_ = segment;
  for (std::size_t r = 0; r < maps.size(); ++r) {
    if (const core::Segment* s = maps[r]->segment(out.votes_.values[r])) {
      out.segment_ = *s;
      break;
    }
  }
  progress.report(1.0, "Readers");
  return out;
}

const core::DisagreementRegion* ReaderReview::currentRegion() const {
  return current_ >= 0 && current_ < int(regions_.size()) ? &regions_[std::size_t(current_)]
                                                          : nullptr;
}

bool ReaderReview::next() {
  return select(current_ + 1);
}

bool ReaderReview::previous() {
  return current_ > 0 && select(current_ - 1);
}

bool ReaderReview::select(int region) {
  if (region < 0 || region >= int(regions_.size())) {
    return false;
  }
  current_ = region;
  return true;
}

std::string ReaderReview::describe(int region) const {
  if (region < 0 || region >= int(regions_.size())) {
    return {};
  }
  const core::DisagreementRegion& r = regions_[std::size_t(region)];
  std::vector<std::string> by, notBy;
  for (std::size_t i = 0; i < r.marked.size(); ++i) {
    (r.marked[i] > 0 ? by : notBy)
        .push_back(r.marked[i] > 0 && r.marked[i] < r.voxels.size()
                       ? names_[i] + " (" + std::to_string(r.marked[i]) + ")"
                       : names_[i]);
  }
  std::string out = "Region " + std::to_string(region + 1) + " of " +
                    std::to_string(regions_.size()) + ": " + std::to_string(r.voxels.size()) +
                    (r.voxels.size() == 1 ? " voxel" : " voxels");
  if (!by.empty()) {
    out += ", marked by " + joined(by);
  }
  if (!notBy.empty()) {
    out += ", not by " + joined(notBy);
  }
  return out;
}

std::shared_ptr<core::LabelMap> ReaderReview::majorityOf(const core::ReaderVotes& votes,
                                                         const core::Segment& segment,
                                                         const std::string& name) {
  auto out = std::make_shared<core::LabelMap>(name, votes.map->geometry(),
                                              std::vector<core::Segment>{segment});
  const std::size_t n = votes.readers();
  const std::uint16_t* v = votes.map->data();
  std::uint16_t* dst = out->mutableData();
  for (std::size_t x = 0; x < out->voxelCount(); ++x) {
    dst[x] = 2 * std::size_t(v[x]) > n ? segment.label : 0;
  }
  return out;
}

core::AdjudicationRecord ReaderReview::record(const core::LabelMap& adjudicated,
                                              std::uint16_t label, const std::string& reviewer,
                                              const std::string& signedAt) const {
  core::AdjudicationRecord out;
  out.structure = matrices_.label;
  out.labelMap = adjudicated.name();
  out.readers = names_;
  out.readerTools = tools_;
  out.reviewer = reviewer;
  out.signedAt = signedAt;
  const std::uint16_t* ours = adjudicated.data();
  for (const core::DisagreementRegion& r : regions_) {
    core::AdjudicatedRegion a;
    a.voxels = r.voxels.size();
    a.centre = r.centre;
    std::vector<std::string> matching;
    for (std::size_t i = 0; i < r.markedBy.size(); ++i) {
      std::size_t same = 0;
      for (std::size_t n = 0; n < r.voxels.size(); ++n) {
        same += (ours[r.voxels[n]] == label) == r.markedBy[i][n];
      }
      a.agreement.push_back(r.voxels.empty() ? 1.0 : double(same) / double(r.voxels.size()));
      if (same == r.voxels.size()) {
        matching.push_back(names_[i]);
      }
    }
    a.source = matching.empty() ? "edited" : matching.front();
    for (std::size_t i = 1; i < matching.size(); ++i) {
      a.source += ", " + matching[i];
    }
    out.regions.push_back(std::move(a));
  }
  return out;
}

}  // namespace delineate::annotation
