// The AI draft of a mammography report from CAD marks and a risk score.
#include "core/report/MammographyDraft.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>

namespace delineate::core::report {

using mammo::Laterality;

namespace {

struct Located {
  int id = 0;
  FindingKind kind = FindingKind::Other;
  MarkLocation where;
  mammo::ViewCode view = mammo::ViewCode::Unknown;
  bool paired = false;
};

std::string lower(std::string s) {
  for (char& c : s) {
    c = char(std::tolower(static_cast<unsigned char>(c)));
  }
  return s;
}

std::string score(double s) {
  char text[16];
  std::snprintf(text, sizeof text, "%.2f", s);
  return text;
}

// Pairs the CC and MLO findings of the same lesion and gives both the clock position.
void triangulate(std::vector<Located>& located, MammographyContent& content) {
  for (Located& cc : located) {
    if (!cc.where.lateralMm) {
      continue;
    }
    Located* best = nullptr;
    double bestGap = 0;
    for (Located& ml : located) {
      if (!ml.where.superiorMm || ml.paired || ml.kind != cc.kind ||
          ml.where.laterality != cc.where.laterality) {
        continue;
      }
      const double a = cc.where.nippleDistanceMm, b = ml.where.nippleDistanceMm;
      const double gap = std::abs(a - b);
      if (gap <= std::max(15.0, 0.25 * std::max(a, b)) && (!best || gap < bestGap)) {
        best = &ml;
        bestGap = gap;
      }
    }
    if (!best) {
      continue;
    }
    best->paired = cc.paired = true;
    const auto hour =
        clockPosition(cc.where.laterality, *cc.where.lateralMm, *best->where.superiorMm);
    for (auto [self, other] : {std::pair{&cc, best}, std::pair{best, &cc}}) {
      MammoFinding& f = *content.finding(self->id);
      f.otherViewFinding = other->id;
      if (hour) {
        f.clockPosition.propose(*hour);
      }
    }
  }
}

void suggestAssessment(const mammo::StudyFindings& findings, const std::vector<ImageFacts>& images,
                       MammographyContent& content) {
  std::map<Laterality, double> best;  // imaged breasts: their best mark score
  for (const ImageFacts& im : images) {
    if (im.view.laterality != Laterality::Unknown) {
      best.emplace(im.view.laterality, 0.0);
    }
  }
  for (const MammoFinding& f : content.findings) {
    if (f.laterality.value() && f.aiScore) {
      double& b = best[*f.laterality.value()];
      b = std::max(b, *f.aiScore);
    }
  }
  bool recall = findings.riskScore && *findings.riskScore >= kRecallScore;
  const auto category = [](double s) {
    return s >= kRecallScore ? AssessmentCategory::Incomplete : AssessmentCategory::Negative;
  };
  for (const auto& [side, s] : best) {
    (side == Laterality::Right ? content.assessmentRight : content.assessmentLeft)
        .propose(category(s));
    recall = recall || s >= kRecallScore;
  }
  if (!best.empty() || findings.riskScore) {
    const AssessmentCategory overall =
        recall ? AssessmentCategory::Incomplete : AssessmentCategory::Negative;
    content.assessmentOverall.propose(overall);
    content.management.propose(standardManagement(overall));
  }
}

std::string impression(const mammo::StudyFindings& findings, const MammographyContent& content) {
  std::string text = findings.demonstration ? std::string(kDemonstrationNotice) + " " : "";
  text += "AI draft";
  if (!findings.source.empty()) {
    text += " from " + findings.source;
  }
  text += ": " + std::to_string(content.findings.size()) +
          (content.findings.size() == 1 ? " mark" : " marks");
  if (findings.riskScore) {
    text += ", case risk score " + score(*findings.riskScore);
  }
  text += " (recall at " + score(kRecallScore) + ").";
  if (content.assessmentOverall.value()) {
    text += std::string(" Suggested ") + nameOf(*content.assessmentOverall.value()) + ".";
  }
  return text;
}

}  // namespace

FindingKind findingKindOf(const std::string& markKind) {
  const std::string k = lower(markKind);
  if (k == "mass") {
    return FindingKind::Mass;
  }
  if (k.starts_with("calcification")) {
    return FindingKind::Calcification;
  }
  if (k == "asymmetry" || k.ends_with(" asymmetry")) {
    return FindingKind::Asymmetry;
  }
  if (k == "architectural distortion" || k == "architectural-distortion" || k == "distortion") {
    return FindingKind::ArchitecturalDistortion;
  }
  return FindingKind::Other;
}

MammographyReport draftFromFindings(const mammo::StudyFindings& findings,
                                    const std::vector<ImageFacts>& images) {
  MammographyContent content;
  std::vector<Located> located;
  for (const mammo::ImageFindings& image : findings.images) {
    const auto facts = std::find_if(images.begin(), images.end(), [&](const ImageFacts& f) {
      return f.imageId == image.imageId;
    });
    for (std::size_t i = 0; i < image.marks.size(); ++i) {
      const mammo::FindingMark& mark = image.marks[i];
      if (mark.intent == mammo::RenderingIntent::NotForPresentation) {
        continue;  // the CAD says it is not to be shown to the reader
      }
      MammoFinding& f = content.addFinding();
      f.link = ReportLink::cadMark(image.imageId, int(i));
      if (mark.scored) {
        f.aiScore = mark.score;
      }
      const FindingKind kind = findingKindOf(mark.kind);
      f.kind.propose(kind);
      if (kind == FindingKind::Other) {
        f.description.propose(mark.kind);
      }
      if (facts == images.end()) {
        continue;
      }
      f.view = facts->view.view;
      const MarkLocation where = locateMark(mark, *facts);
      if (where.laterality != Laterality::Unknown) {
        f.laterality.propose(where.laterality);
      }
      if (where.depth) {
        f.depth.propose(*where.depth);
      }
      if (where.sizeMm) {
        f.sizeMm.propose(std::round(*where.sizeMm * 10) / 10);
      }
      located.push_back({f.id, kind, where, f.view, false});
    }
  }
  triangulate(located, content);
  suggestAssessment(findings, images, content);
  content.impression.propose(impression(findings, content));
  return MammographyReport::fromAiDraft(
      std::move(content), {findings.source, findings.demonstration, findings.riskScore});
}

}  // namespace delineate::core::report
