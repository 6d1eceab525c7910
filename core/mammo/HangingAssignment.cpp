#include "core/mammo/HangingAssignment.h"

#include <algorithm>
#include <map>
#include <set>

namespace delineate::core::mammo {

namespace {

int kindRank(MammoView::Kind kind) {
  switch (kind) {
    case MammoView::Kind::Synthetic2D:
      return 0;
    case MammoView::Kind::Mammogram:
      return 1;
    case MammoView::Kind::Stack:
      break;
  }
  return 2;
}

std::string label(Laterality l, ViewCode v, StudyChoice s) {
  return std::string(toString(l)) + " " + toString(v) +
         (s == StudyChoice::Prior ? " (prior)" : " (current)");
}

// Studies by date, latest first (ties by UID, for a stable order).
std::vector<std::pair<std::string, std::string>> studiesByDate(
    const std::vector<MammoView>& views) {
  std::map<std::string, std::string> dateOf;
  for (const MammoView& v : views) {
    auto& d = dateOf[v.studyUid];
    d = std::max(d, v.studyDate);
  }
  std::vector<std::pair<std::string, std::string>> out(dateOf.begin(), dateOf.end());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  return out;
}

}  // namespace

Hanging hang(const HangingProtocol& protocol, const std::vector<MammoView>& views,
             const std::string& currentStudyUid, const PriorRule& rule) {
  Hanging h;
  const auto studies = studiesByDate(views);
  h.currentStudy = !currentStudyUid.empty() ? currentStudyUid
                   : studies.empty()        ? std::string()
                                            : studies.front().first;
  std::string currentDate;
  for (const auto& [uid, date] : studies) {
    if (uid == h.currentStudy) {
      currentDate = date;
    }
  }
  const auto priors = choosePriors(rule, h.currentStudy, currentDate, studies);
  if (!priors.empty()) {
    h.priorStudy = priors.front();
  } else {
    for (const auto& [uid, date] : studies) {
      // Outside the rule's window: the latest earlier study (a second study of the same day is
      // no prior), said.
      if (uid != h.currentStudy && (currentDate.empty() || date < currentDate)) {
        h.priorStudy = uid;
        h.notes.push_back("no earlier study " + rule.describe() + ": the prior shown is of " +
                          (date.empty() ? std::string("an unknown date") : date));
        break;
      }
    }
  }

  std::set<std::size_t> used;
  std::set<std::string> noted;
  const auto note = [&](const std::string& text) {
    if (noted.insert(text).second) {
      h.notes.push_back(text);
    }
  };
  for (const ViewportSpec& spec : protocol.viewports) {
    HungViewport out;
    out.chestWall = spec.chestWall;
    const std::string& study = spec.study == StudyChoice::Prior ? h.priorStudy : h.currentStudy;
    std::vector<std::size_t> candidates;
    for (std::size_t i = 0; i < views.size(); ++i) {
      const MammoView& v = views[i];
      if (!study.empty() && v.studyUid == study && v.laterality == spec.laterality &&
          v.view == spec.view && !v.spot && !v.magnification &&
          (spec.image == ImageChoice::Picture || v.kind == MammoView::Kind::Stack)) {
        candidates.push_back(i);
      }
    }
    const std::string name = label(spec.laterality, spec.view, spec.study) +
                             (spec.image == ImageChoice::Stack ? " stack" : "");
    if (candidates.empty()) {
      note(spec.study == StudyChoice::Prior && h.priorStudy.empty()
               ? "no prior study: " + name + " is empty"
               : name + " is missing");
      h.viewports.push_back(out);
      continue;
    }
    // A synthetic 2-D view before a mammogram before a stack; for display before for
    // processing; then the latest acquisition.
    std::sort(candidates.begin(), candidates.end(), [&](std::size_t a, std::size_t b) {
      if (views[a].kind != views[b].kind) {
        return kindRank(views[a].kind) < kindRank(views[b].kind);
      }
      if (views[a].forProcessing != views[b].forProcessing) {
        return !views[a].forProcessing;
      }
      return views[a].acquisitionTime > views[b].acquisitionTime;
    });
    out.image = candidates.front();
    const auto sameKind = std::count_if(candidates.begin(), candidates.end(), [&](std::size_t k) {
      return views[k].kind == views[candidates.front()].kind;
    });
    if (sameKind > 1) {
      note(std::to_string(sameKind) + " images for " + name + ": the latest is shown");
    }
    if (views[candidates.front()].forProcessing) {
      note(name + " exists only for processing (raw detector data): shown as it is");
    }
    used.insert(candidates.begin(), candidates.end());
    h.viewports.push_back(out);
  }

  // Images no viewport asked for: say why, and show those of the studies on screen in the free
  // viewports rather than hide them.
  for (std::size_t i = 0; i < views.size(); ++i) {
    const MammoView& v = views[i];
    if (used.count(i) != 0 || (v.studyUid != h.currentStudy && v.studyUid != h.priorStudy)) {
      continue;
    }
    if (v.laterality == Laterality::Unknown || v.view == ViewCode::Unknown) {
      note("an image without " +
           std::string(v.laterality == Laterality::Unknown ? "laterality" : "a known view") + " (" +
           v.id + ") could not be placed by the protocol");
    } else {
      continue;  // a view the protocol does not show (spot, magnification, ML...): not an error
    }
    const auto free = std::find_if(h.viewports.begin(), h.viewports.end(),
                                   [](const HungViewport& p) { return !p.image; });
    if (free != h.viewports.end()) {
      free->image = i;
      free->asked = false;
    }
  }
  return h;
}

}  // namespace delineate::core::mammo
