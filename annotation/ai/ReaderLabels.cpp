#include "annotation/ai/ReaderLabels.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "annotation/ai/ServerLabelSchema.h"
#include "core/ai/VolumeBytes.h"
#include "core/io/LabelMapFileIO.h"
#include "core/io/SegmentTableJson.h"

namespace delineate::annotation {

namespace {

constexpr const char* kReaderTagPrefix = "reader-";

bool asciiAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// A reader's name as a file name the label map is then named after: letters (any, as UTF-8
// bytes), digits, spaces, '-', '_' and '.' kept (no leading '.'), every other character '_'.
std::string readerFileName(const std::string& reader) {
  std::string out;
  for (const char c : reader) {
    const bool keep = asciiAlnum(c) || static_cast<unsigned char>(c) >= 0x80 || c == ' ' ||
                      c == '-' || c == '_' || (c == '.' && !out.empty());
    out += keep ? c : '_';
  }
  while (!out.empty() && (out.back() == ' ' || out.back() == '.')) {
    out.pop_back();
  }
  return out.empty() ? std::string("reader") : out;
}

// The label's file extension from its listing entry (".nii.gz" when it gives none usable).
std::string labelExtension(const nlohmann::json& entry) {
  const nlohmann::json given =
      entry.is_object() ? entry.value("ext", nlohmann::json()) : nlohmann::json();
  const std::string ext = given.is_string() ? given.get<std::string>() : std::string();
  const bool usable =
      !ext.empty() && ext.front() == '.' && ext.size() <= 16 &&
      std::all_of(ext.begin() + 1, ext.end(), [](char c) { return asciiAlnum(c) || c == '.'; });
  return usable ? ext : std::string(".nii.gz");
}

}  // namespace

std::string readerLabelTag(const std::string& reader) {
  std::string slug;
  for (const char c : reader) {
    if (asciiAlnum(c)) {
      slug += char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    } else if (!slug.empty() && slug.back() != '_') {
      slug += '_';
    }
  }
  while (!slug.empty() && slug.back() == '_') {
    slug.pop_back();
  }
  return kReaderTagPrefix + (slug.empty() ? std::string("anonymous") : slug);
}

std::vector<ServerReaderLabel> readerLabelsOf(const nlohmann::json& objects,
                                              const std::string& id) {
  std::vector<ServerReaderLabel> out;
  if (!objects.is_object() || !objects.contains(id) || !objects[id].is_object()) {
    return out;
  }
  const nlohmann::json& labels = objects[id].value("labels", nlohmann::json::object());
  if (!labels.is_object()) {
    return out;
  }
  const std::string prefix = kReaderTagPrefix;
  for (const auto& [tag, entry] : labels.items()) {
    if (tag.size() <= prefix.size() || tag.compare(0, prefix.size(), prefix) != 0) {
      continue;
    }
    ServerReaderLabel r;
    r.tag = tag;
    r.reader = tag.substr(prefix.size());
    if (entry.is_object() && entry.contains("info") && entry["info"].is_object()) {
      const nlohmann::json& info = entry["info"];
      if (info.contains("reader") && info["reader"].is_string() &&
          !info["reader"].get<std::string>().empty()) {
        r.reader = info["reader"].get<std::string>();
      }
    }
    out.push_back(r);
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.tag < b.tag; });
  return out;
}

std::vector<ServerReaderLabel> fetchReaderLabels(core::ai::AiBackend& server, const std::string& id,
                                                 const std::string& folder,
                                                 core::ProgressSink& progress) {
  core::SubProgress list(progress, 0, 0.1);
  list.report(0, "listing the readers' labels");
  const nlohmann::json objects = server.datastoreObjects(list);
  std::vector<ServerReaderLabel> readers = readerLabelsOf(objects, id);
  if (readers.empty()) {
    return readers;
  }
  std::filesystem::create_directories(folder);
  std::set<std::string> taken;
  std::vector<ServerReaderLabel> out;
  for (std::size_t n = 0; n < readers.size(); ++n) {
    core::SubProgress part(progress, 0.1 + 0.9 * double(n) / double(readers.size()),
                           0.1 + 0.9 * double(n + 1) / double(readers.size()));
    ServerReaderLabel r = readers[n];
    const nlohmann::json& entry = objects[id]["labels"][r.tag];
    std::string name = readerFileName(r.reader);
    for (int copy = 2; !taken.insert(name).second; ++copy) {
      name = readerFileName(r.reader) + " (" + std::to_string(copy) + ")";
    }
    r.path = (std::filesystem::path(folder) / (name + labelExtension(entry))).string();
    part.report(0, "downloading the label of " + r.reader);
    if (!server.fetchLabel(id, r.tag, r.path, part)) {
      continue;  // removed since the listing
    }
    std::vector<core::Segment> segments;
    // A server's listing may hold anything: only an object's "info" object is read.
    const nlohmann::json info =
        entry.is_object() && entry.contains("info") && entry["info"].is_object()
            ? entry["info"]
            : nlohmann::json::object();
    const nlohmann::json names =
        info.is_object() ? info.value("label_info", nlohmann::json()) : nlohmann::json();
    if (names.is_array()) {
      for (const nlohmann::json& l : names) {
        if (!l.is_object() || !l.contains("idx") || !l["idx"].is_number_integer() ||
            !l.contains("name") || !l["name"].is_string()) {
          continue;
        }
        const long long idx = l["idx"].get<long long>();
        if (idx < 1 || idx > 65535) {
          continue;
        }
        core::Segment s = core::defaultSegment(std::uint16_t(idx));
        s.name = l["name"].get<std::string>();
        segments.push_back(s);
      }
    }
    const std::filesystem::path table = core::segmentTablePathFor(r.path);
    std::error_code ec;
    std::filesystem::remove(table, ec);  // a table of an earlier download would misname it
    if (!segments.empty()) {
      core::writeSegmentTable(segments, table);
    }
    out.push_back(r);
  }
  return out;
}

void submitReaderLabel(core::ai::AiBackend& server, const core::LabelMap& labels,
                       const std::vector<core::ai::ModelLabel>& schema, const std::string& id,
                       const std::string& reader, const std::string& where,
                       core::ProgressSink& progress) {
  core::SubProgress match(progress, 0, 0.3);
  const auto mapped = labelsForServer(labels, schema, where, match);
  nlohmann::json labelInfo = nlohmann::json::array();
  for (const core::Segment& s : mapped->segments()) {
    labelInfo.push_back({{"name", s.name}, {"idx", s.label}});
  }
  core::SubProgress send(progress, 0.3, 1.0);
  send.report(0, "sending");
  core::ai::DatastoreFile file;
  file.filename = id + ".nii.gz";
  file.bytes = core::ai::volumeToBytes(*mapped->asVolume(), "l.nii.gz");
  file.info = {{"label_info", labelInfo}, {"reader", reader}};
  server.putLabelFile(id, readerLabelTag(reader), file, send);
}

}  // namespace delineate::annotation
