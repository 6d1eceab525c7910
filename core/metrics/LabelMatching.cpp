#include "core/metrics/LabelMatching.h"

#include <algorithm>
#include <array>
#include <memory>
#include <set>

namespace delineate::core {

namespace {

const Segment* byName(const LabelMap& map, const std::string& name) {
  for (const Segment& s : map.segments()) {
    if (s.name == name) {
      return &s;
    }
  }
  return nullptr;
}

bool namesUnique(const LabelMap& map) {
  std::set<std::string> names;
  for (const Segment& s : map.segments()) {
    if (!names.insert(s.name).second) {
      return false;
    }
  }
  return true;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) {
    out += (out.empty() ? "" : ", ") + n;
  }
  return out;
}

std::vector<MatchedLabel> matchByName(const LabelMap& reference, const LabelMap& test,
                                      std::vector<std::string>& notes) {
  std::vector<MatchedLabel> out;
  std::vector<std::string> onlyReference, onlyTest, renumbered;
  for (const Segment& s : reference.segments()) {
    const Segment* t = byName(test, s.name);
    out.push_back({s.name, s.label, t ? t->label : std::uint16_t(0), s.label});
    if (!t) {
      onlyReference.push_back(s.name);
    } else if (t->label != s.label) {
      renumbered.push_back(s.name + " " + std::to_string(t->label) + " -> " +
                           std::to_string(s.label));
    }
  }
  // Names only in the test map take values the reference does not use.
  std::uint16_t next = 1;
  for (const Segment& s : test.segments()) {
    if (byName(reference, s.name)) {
      continue;
    }
    while (reference.segment(next) ||
           std::any_of(out.begin(), out.end(), [&](const auto& m) { return m.value == next; })) {
      ++next;
    }
    out.push_back({s.name, 0, s.label, next});
    onlyTest.push_back(s.name);
  }
  if (!onlyReference.empty() || !onlyTest.empty()) {
    notes.push_back("label schemes differ: only in the reference: " +
                    (onlyReference.empty() ? "-" : joined(onlyReference)) +
                    "; only in the test: " + (onlyTest.empty() ? "-" : joined(onlyTest)));
  }
  if (!renumbered.empty()) {
    notes.push_back("label values differ, matched by name (test -> reference): " +
                    joined(renumbered));
  }
  return out;
}

// Named after the map whose names are its own, the reference when both or neither are.
std::vector<MatchedLabel> matchByValue(const LabelMap& reference, const LabelMap& test,
                                       bool testNamesFirst) {
  std::set<std::uint16_t> values;
  for (const LabelMap* map : {&reference, &test}) {
    for (const Segment& s : map->segments()) {
      if (s.label != 0) {
        values.insert(s.label);
      }
    }
  }
  std::vector<MatchedLabel> out;
  for (const std::uint16_t v : values) {
    const Segment* r = reference.segment(v);
    const Segment* t = test.segment(v);
    const Segment* named = (testNamesFirst && t) || !r ? t : r;
    out.push_back({named->name, r ? v : std::uint16_t(0), t ? v : std::uint16_t(0), v});
  }
  return out;
}

}  // namespace

LabelMatching matchLabels(const LabelMap& reference, bool referenceHasTable, const LabelMap& test,
                          bool testHasTable, const std::vector<std::string>& wanted) {
  LabelMatching m;
  m.byName = referenceHasTable && testHasTable;
  if (m.byName && !(namesUnique(reference) && namesUnique(test))) {
    m.byName = false;
    m.notes.push_back("a segment name is given twice: labels matched by value");
  }
  std::vector<MatchedLabel> all =
      m.byName ? matchByName(reference, test, m.notes)
               : matchByValue(reference, test, testHasTable && !referenceHasTable);
  if (wanted.empty()) {
    m.labels = std::move(all);
    return m;
  }
  for (const std::string& name : wanted) {
    const auto it =
        std::find_if(all.begin(), all.end(), [&](const auto& l) { return l.name == name; });
    m.labels.push_back(it != all.end() ? *it : MatchedLabel{name, 0, 0, 0});
  }
  return m;
}

std::optional<LabelMap> renumberTest(const LabelMap& test, const LabelMatching& matching) {
  auto table = std::make_unique<std::array<std::uint16_t, 65536>>();
  table->fill(0);
  for (const MatchedLabel& l : matching.labels) {
    if (l.testValue != 0) {
      (*table)[l.testValue] = l.value;
    }
  }
  const std::uint16_t* in = test.data();
  const std::size_t n = test.voxelCount();
  bool identity = true;
  for (std::size_t i = 0; i < n && identity; ++i) {
    identity = (*table)[in[i]] == in[i];
  }
  if (identity) {
    return std::nullopt;
  }
  std::vector<Segment> segments;
  for (const MatchedLabel& l : matching.labels) {
    if (l.testValue != 0) {
      Segment s = *test.segment(l.testValue);
      s.label = l.value;
      segments.push_back(s);
    }
  }
  LabelMap out(test.name(), test.geometry(), std::make_shared<VoxelBuffer>(ScalarType::UInt16, n),
               std::move(segments));
  std::uint16_t* o = out.mutableData();
  for (std::size_t i = 0; i < n; ++i) {
    o[i] = (*table)[in[i]];
  }
  return out;
}

}  // namespace delineate::core
