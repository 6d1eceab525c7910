#include "core/upload/CasePreparation.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <sstream>

#include "core/Error.h"
#include "core/deid/HoldBackPolicy.h"
#include "core/io/DicomSegReader.h"
#include "core/io/DicomSeriesLoader.h"
#include "core/io/LabelMapFileIO.h"
#include "core/io/PathLoader.h"
#include "core/io/VolumeFileIO.h"
#include "core/upload/FileDigest.h"

namespace delineate::core::upload {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// A copy of the volume's description without anything that names the patient, the study or the
// file; the voxels are shared, not copied.
VolumePtr withoutIdentity(const VolumePtr& volume) {
  VolumeInfo info;
  info.modality = volume->info().modality;
  // Volume never writes through its buffer; the cast only satisfies the shared constructor.
  auto voxels = std::const_pointer_cast<VoxelBuffer>(volume->sharedVoxels());
  return std::make_shared<const Volume>(volume->geometry(), std::move(voxels), std::move(info));
}

std::string caseId(const Volume& image, const std::string& prefix) {
  std::ostringstream grid;
  const ImageGeometry& g = image.geometry();
  grid.precision(9);
  grid << g.size[0] << ' ' << g.size[1] << ' ' << g.size[2] << ' ' << g.spacing[0] << ' '
       << g.spacing[1] << ' ' << g.spacing[2] << ' ' << g.origin[0] << ' ' << g.origin[1] << ' '
       << g.origin[2] << ' ' << static_cast<int>(image.scalarType()) << '\n';
  const std::string voxels(static_cast<const char*>(image.voxels().data()), image.voxels().bytes());
  return prefix + "-" + sha256OfBytes(grid.str() + voxels).substr(0, 12);
}

std::string schemaText(const std::vector<ai::ModelLabel>& schema) {
  std::string out;
  for (const ai::ModelLabel& l : schema) {
    if (!l.background) {
      out += (out.empty() ? "" : ", ") + std::to_string(l.value) + " " + l.name;
    }
  }
  return out;
}

// Source value -> schema value for one label file; findings for what has no place in the schema.
std::map<std::uint16_t, std::uint16_t> schemaValues(const LabelMap& file, bool hasTable,
                                                    const std::vector<std::uint16_t>& present,
                                                    const PrepareOptions& options,
                                                    const std::string& where,
                                                    std::vector<LintFinding>& findings) {
  std::map<std::uint16_t, std::uint16_t> out;
  for (std::uint16_t value : present) {
    if (options.schema.empty()) {
      out[value] = value;
      continue;
    }
    const Segment* segment = file.segment(value);
    const ai::ModelLabel* match = nullptr;
    for (const ai::ModelLabel& l : options.schema) {
      const bool same = hasTable && segment ? lower(l.name) == lower(segment->name)
                                            : l.value == static_cast<int>(value);
      if (!l.background && same) {
        match = &l;
      }
    }
    if (match && match->value > 0 && match->value <= 65535) {
      out[value] = static_cast<std::uint16_t>(match->value);
    } else if (hasTable && segment) {
      findings.push_back({LintFinding::Severity::Error, where + ": segment '" + segment->name +
                                                            "' is not among the server's labels (" +
                                                            schemaText(options.schema) + ")"});
    } else {
      findings.push_back({LintFinding::Severity::Error, where + ": label value " +
                                                            std::to_string(value) +
                                                            " is not among the server's labels (" +
                                                            schemaText(options.schema) + ")"});
    }
  }
  return out;
}

std::vector<std::uint16_t> valuesPresent(const LabelMap& map) {
  std::vector<bool> seen(65536, false);
  const std::uint16_t* v = map.data();
  for (std::size_t i = 0, n = map.voxelCount(); i < n; ++i) {
    seen[v[i]] = true;
  }
  std::vector<std::uint16_t> out;
  for (std::size_t value = 1; value < seen.size(); ++value) {
    if (seen[value]) {
      out.push_back(static_cast<std::uint16_t>(value));
    }
  }
  return out;
}

std::string nameOf(std::uint16_t value, const PrepareOptions& options, const LabelMap* file) {
  for (const ai::ModelLabel& l : options.schema) {
    if (l.value == value && !l.background) {
      return l.name;
    }
  }
  const Segment* s = file ? file->segment(value) : nullptr;
  return s ? s->name : "label " + std::to_string(value);
}

}  // namespace

bool PreparedCase::sendable() const {
  return image && std::none_of(findings.begin(), findings.end(), [](const LintFinding& f) {
           return f.severity == LintFinding::Severity::Error;
         });
}

PreparedCase prepareCase(const DatasetCase& picked, const PrepareOptions& options,
                         ProgressSink& progress) {
  PreparedCase out;
  out.source = picked.image.string();
  try {
    SubProgress reading(progress, 0.0, 0.6);
    const VolumePtr image = picked.series                ? loadDicomSeries(*picked.series, reading)
                            : isVolumeFile(picked.image) ? readVolumeFile(picked.image, reading)
                                                         : openPath(picked.image, reading).volume;
    out.image = withoutIdentity(image);
    if (const auto reason =
            options.outbound.deidentify ? deid::holdBackReason(image->info()) : std::nullopt) {
      out.findings.push_back({LintFinding::Severity::Error,
                              picked.image.string() + ": held back, not sent: " + *reason});
    }
  } catch (const CancelledError&) {
    throw;
  } catch (const Error& e) {
    out.findings.push_back({LintFinding::Severity::Error, e.what()});
    return out;
  }
  progress.report(0.6, "checking the labels");
  out.id = caseId(*out.image, options.idPrefix);
  if (picked.labels.empty()) {
    return out;
  }

  auto merged = std::make_shared<LabelMap>("label", out.image->geometry());
  std::uint16_t* dst = merged->mutableData();
  std::map<std::uint16_t, const LabelMap*> origin;  // schema value -> file that named it
  std::vector<LabelMap> files;
  files.reserve(picked.labels.size());
  std::vector<std::string> fileOf(65536);
  for (const fs::path& path : picked.labels) {
    progress.throwIfCancelled();
    // A file that is not a volume is a DICOM SEG: its segments carry their names.
    const bool seg = !isVolumeFile(path);
    try {
      if (seg) {
        NullProgress quiet;
        std::vector<std::string> warnings;
        files.push_back(readDicomSeg(path, out.image->geometry(), quiet, &warnings));
        for (const std::string& w : warnings) {
          out.findings.push_back({LintFinding::Severity::Warning, path.string() + ": " + w});
        }
      } else {
        files.push_back(readLabelMapFiles(path, &out.image->geometry()));
      }
    } catch (const Error& e) {
      out.findings.push_back({LintFinding::Severity::Error, e.what()});
      continue;
    }
    const LabelMap& file = files.back();
    const bool hasTable = seg || fs::exists(segmentTablePathFor(path));
    const auto map =
        schemaValues(file, hasTable, valuesPresent(file), options, path.string(), out.findings);
    std::map<std::pair<std::uint16_t, std::uint16_t>, std::size_t> overlaps;
    const std::uint16_t* src = file.data();
    for (std::size_t i = 0, n = file.voxelCount(); i < n; ++i) {
      if (src[i] == 0) {
        continue;
      }
      const auto it = map.find(src[i]);
      if (it == map.end()) {
        continue;
      }
      if (dst[i] != 0 && dst[i] != it->second) {
        ++overlaps[{dst[i], it->second}];
      }
      dst[i] = it->second;
    }
    for (const auto& [source, target] : map) {
      origin.emplace(target, &file);
      fileOf[target] = path.filename().string();
    }
    for (const auto& [pair, count] : overlaps) {
      out.findings.push_back({LintFinding::Severity::Warning,
                              path.string() + ": " + std::to_string(count) + " voxels labelled '" +
                                  nameOf(pair.first, options, origin[pair.first]) + "' in " +
                                  fileOf[pair.first] + " are '" +
                                  nameOf(pair.second, options, &file) +
                                  "' here; merged into one label map, this file's label is kept"});
    }
  }
  const std::vector<std::uint16_t> present = valuesPresent(*merged);
  const bool unmapped = std::any_of(out.findings.begin(), out.findings.end(), [](const auto& f) {
    return f.severity == LintFinding::Severity::Error;
  });
  if (present.empty() && !options.allowEmptyLabel && !unmapped) {
    out.findings.push_back(
        {LintFinding::Severity::Error, picked.labels.front().string() + ": the label is empty"});
  }
  for (std::uint16_t value : present) {
    const auto it = origin.find(value);
    const std::string name = nameOf(value, options, it == origin.end() ? nullptr : it->second);
    Segment s = defaultSegment(value);
    s.name = name;
    merged->segments().push_back(s);
    out.labelInfo.push_back({{"name", name}, {"idx", value}});
  }
  out.label = std::move(merged);
  progress.report(1.0, "checked");
  return out;
}

void writeCaseFiles(const PreparedCase& prepared, const fs::path& imageFile,
                    const fs::path& labelFile) {
  writeVolumeFile(*prepared.image, imageFile, true);
  if (prepared.label) {
    writeVolumeFile(*prepared.label->asVolume(), labelFile, true);
  }
}

}  // namespace delineate::core::upload
