// Reads a Mammography CAD SR into AI findings (tree in MammoCadSr.h and docs/cad-sr.md).
#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmsr/dsrdoc.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <set>

#include "core/Error.h"
#include "core/io/DicomHeader.h"
#include "core/report/CadSrCodes.h"
#include "core/report/MammoCadSr.h"
#include "core/report/SrContentTree.h"

namespace delineate::core::report {

namespace fs = std::filesystem;

namespace {

using namespace sr;
using mammo::RenderingIntent;

// The more restrictive of two intents: a display shows an item only down to the first item on
// its way that is optional or not for presentation (PS3.4's CAD rendering rule).
RenderingIntent stricter(RenderingIntent a, RenderingIntent b) {
  return static_cast<int>(a) > static_cast<int>(b) ? a : b;
}

// Values 0..1 from a NUM in percent (or a plain fraction), rounded to 1e-9 so that a value
// written as a percentage reads back as the fraction it was.
std::optional<double> fractionOf(const Node& n) {
  double v = numberOf(n.number);
  if (!std::isfinite(v)) {
    return std::nullopt;
  }
  if (n.number.getMeasurementUnit().getCodeValue() == "%" || v > 1.0) {
    v /= 100.0;
  }
  v = std::round(v * 1e9) / 1e9;
  return std::clamp(v, 0.0, 1.0);
}

// What a composite feature passes down to its single-image findings.
struct Inherited {
  RenderingIntent intent = RenderingIntent::Required;
  std::optional<std::string> kind;
  std::optional<double> certainty, probability;
};

class CadReader {
 public:
  CadReader(const Node& root, std::string where) : where_(std::move(where)) { index(root); }

  CadSrContent read(const Node& root) {
    for (const Node& child : root.children) {
      if (same(child.name, kCadSummary())) {
        out_.findings.processingSummary = child.code.getCodeMeaning().c_str();
        readSummary(child);
      } else if (same(child.name, kSummaryOfDetections()) ||
                 same(child.name, kSummaryOfAnalyses())) {
        readFailures(child);
      }
    }
    for (const std::string& name : algorithms_) {
      out_.findings.source += (out_.findings.source.empty() ? "" : ", ") + name;
    }
    return std::move(out_);
  }

 private:
  void index(const Node& n) {
    nodes_[n.id] = &n;
    for (const Node& c : n.children) {
      index(c);
    }
  }

  // A by-reference relationship's target, else the node itself.
  const Node& resolve(const Node& n) const {
    if (n.type == DSRTypes::VT_byReference) {
      const auto it = nodes_.find(n.referencedId);
      if (it != nodes_.end()) {
        return *it->second;
      }
    }
    return n;
  }

  static std::optional<RenderingIntent> ownIntent(const Node& n) {
    for (const Node& c : n.children) {
      if (c.relation == DSRTypes::RT_hasConceptMod && same(c.name, kRenderingIntent())) {
        return renderingIntentOf(c.code);
      }
    }
    return std::nullopt;
  }

  void readSummary(const Node& summary) {
    for (const Node& c : summary.children) {
      if (c.relation == DSRTypes::RT_hasProperties && same(c.name, kImpressionDescription()) &&
          c.text == kDemonstrationComment) {
        out_.findings.demonstration = true;
      }
      const Node& item = resolve(c);
      if (same(item.name, kIndividualImpression())) {
        Inherited context;
        context.intent = ownIntent(item).value_or(RenderingIntent::Required);
        for (const Node& part : item.children) {
          visit(resolve(part), context);
        }
      }
    }
  }

  void visit(const Node& item, const Inherited& context) {
    if (same(item.name, kCompositeFeature())) {
      Inherited inner = context;
      inner.intent = stricter(context.intent, ownIntent(item).value_or(context.intent));
      if (const auto kind = markKindOf(item.code)) {
        inner.kind = context.kind ? context.kind : kind;
      }
      for (const Node& c : item.children) {
        if (c.relation != DSRTypes::RT_hasProperties) {
          continue;
        }
        if (same(c.name, kCertaintyOfFeature())) {
          inner.certainty = fractionOf(c);
        } else if (same(c.name, kProbabilityOfCancer())) {
          inner.probability = fractionOf(c);
        }
      }
      for (const Node& c : item.children) {
        if (c.relation == DSRTypes::RT_inferredFrom) {
          visit(resolve(c), inner);
        }
      }
    } else if (same(item.name, kSingleImageFinding())) {
      finding(item, context);
    }
  }

  // A single-image finding becomes one mark (once, however often it is referred to; a composite
  // feature's kind wins over the finding's own).
  void finding(const Node& item, const Inherited& context) {
    const auto ownKind = markKindOf(item.code);
    if (!ownKind) {
      return;  // breast composition, geometry, image quality, non-lesion: not marks
    }
    if (const auto done = placed_.find(item.id); done != placed_.end()) {
      if (context.kind) {  // reached again through a composite feature: it names the kind
        out_.findings.images[done->second.first].marks[done->second.second].kind = *context.kind;
      }
      return;
    }
    mammo::FindingMark m;
    m.kind = context.kind.value_or(*ownKind);
    m.intent = stricter(context.intent, ownIntent(item).value_or(context.intent));
    std::optional<double> certainty = context.certainty;
    m.probability = context.probability;
    std::string image;
    bool placed = false;
    for (const Node& c : item.children) {
      if (c.relation != DSRTypes::RT_hasProperties) {
        continue;
      }
      if (same(c.name, kCertaintyOfFinding())) {
        certainty = fractionOf(c);
      } else if (same(c.name, kProbabilityOfCancer())) {
        m.probability = fractionOf(c);
      } else if (same(c.name, kAlgorithmName()) && !c.text.empty()) {
        algorithms_.insert(c.text);
      } else if (same(c.name, kSelectedRegionDescription()) && !c.text.empty() && !context.kind) {
        m.kind = c.text;
      } else if (c.type == DSRTypes::VT_SCoord) {
        const std::string on = imageOf(c, same(c.name, kCenter()) ? &m.frame : nullptr);
        if (!on.empty()) {
          image = image.empty() ? on : image;
        }
        if (same(c.name, kCenter())) {
          placed = centre(c, m) || placed;
        } else if (same(c.name, kOutline())) {
          outline(c, m);
        }
      }
    }
    if (certainty) {
      m.score = *certainty;
    } else {
      m.scored = false;
    }
    if (!placed && m.x1 > m.x0) {
      m.column = 0.5 * (m.x0 + m.x1), m.row = 0.5 * (m.y0 + m.y1);
      placed = true;
    }
    if (m.x1 <= m.x0 && m.y1 <= m.y0) {
      m.x0 = m.x1 = m.column;
      m.y0 = m.y1 = m.row;
    }
    if (image.empty() || !placed) {
      out_.warnings.push_back(where_ + ": a " + m.kind +
                              " finding has no centre on an image of the report's image "
                              "library; it is not shown");
      return;
    }
    auto it = std::find_if(out_.findings.images.begin(), out_.findings.images.end(),
                           [&](const mammo::ImageFindings& f) { return f.imageId == image; });
    if (it == out_.findings.images.end()) {
      out_.findings.images.push_back({image, {}, std::nullopt});
      it = std::prev(out_.findings.images.end());
    }
    placed_[item.id] = {static_cast<std::size_t>(it - out_.findings.images.begin()),
                        it->marks.size()};
    it->marks.push_back(std::move(m));
  }

  // The SOP Instance UID of the image a SCOORD is selected from (by reference into the library,
  // or by value), and the frame (0-based) when it names one.
  std::string imageOf(const Node& scoord, std::optional<int>* frame = nullptr) const {
    for (const Node& c : scoord.children) {
      if (c.relation != DSRTypes::RT_selectedFrom) {
        continue;
      }
      const Node& target = resolve(c);
      if (target.type == DSRTypes::VT_Image) {
        const DSRImageFrameList& frames = target.image.getFrameList();
        if (frame != nullptr && frames.getNumberOfItems() > 0 && frames.getItem(1) > 0) {
          *frame = static_cast<int>(frames.getItem(1)) - 1;
        }
        return target.image.getSOPInstanceUID().c_str();
      }
    }
    return {};
  }

  static std::vector<std::array<double, 2>> pointsOf(const Node& scoord) {
    std::vector<std::array<double, 2>> points;
    DSRSpatialCoordinatesValue value = scoord.scoord;  // DCMTK lists its points only when mutable
    const DSRGraphicDataList& list = value.getGraphicDataList();
    for (std::size_t k = 1; k <= list.getNumberOfItems(); ++k) {
      const DSRGraphicDataItem& p = list.getItem(k);
      points.push_back({p.Column - 0.5, p.Row - 0.5});
    }
    return points;
  }

  static bool centre(const Node& scoord, mammo::FindingMark& m) {
    const auto points = pointsOf(scoord);
    if (points.empty()) {
      return false;
    }
    m.column = points[0][0];
    m.row = points[0][1];
    return true;
  }

  static void box(mammo::FindingMark& m, double x0, double y0, double x1, double y1) {
    m.x0 = x0, m.y0 = y0, m.x1 = x1, m.y1 = y1;
  }

  static void outline(const Node& scoord, mammo::FindingMark& m) {
    auto points = pointsOf(scoord);
    switch (scoord.scoord.getGraphicType()) {
      case DSRTypes::GT_Circle:
        if (points.size() == 2) {
          const double r = std::hypot(points[1][0] - points[0][0], points[1][1] - points[0][1]);
          box(m, points[0][0] - r, points[0][1] - r, points[0][0] + r, points[0][1] + r);
        }
        break;
      case DSRTypes::GT_Ellipse:
        if (points.size() == 4) {
          // Centre and semi-axes from the ends of the two axes; the exact bounding box.
          const double cx = 0.5 * (points[0][0] + points[1][0]);
          const double cy = 0.5 * (points[0][1] + points[1][1]);
          const double ax = 0.5 * (points[1][0] - points[0][0]);
          const double ay = 0.5 * (points[1][1] - points[0][1]);
          const double bx = 0.5 * (points[3][0] - points[2][0]);
          const double by = 0.5 * (points[3][1] - points[2][1]);
          const double hx = std::hypot(ax, bx), hy = std::hypot(ay, by);
          box(m, cx - hx, cy - hy, cx + hx, cy + hy);
        }
        break;
      case DSRTypes::GT_Polyline:
      case DSRTypes::GT_Multipoint:
        if (points.size() >= 2 && points.front() == points.back()) {
          points.pop_back();
        }
        if (!points.empty()) {
          double x0 = points[0][0], x1 = x0, y0 = points[0][1], y1 = y0;
          for (const auto& p : points) {
            x0 = std::min(x0, p[0]), x1 = std::max(x1, p[0]);
            y0 = std::min(y0, p[1]), y1 = std::max(y1, p[1]);
          }
          box(m, x0, y0, x1, y1);
          m.outline = std::move(points);
        }
        break;
      default:
        break;
    }
  }

  // Failed detections or analyses: the names of their algorithms (else what they looked for).
  void readFailures(const Node& summary) {
    for (const Node& c : summary.children) {
      const Node& group = resolve(c);
      if (!same(group.name, kFailedDetections()) && !same(group.name, kFailedAnalyses())) {
        continue;
      }
      for (const Node& performed : group.children) {
        std::string name;
        for (const Node& p : performed.children) {
          if (same(p.name, kAlgorithmName()) && !p.text.empty()) {
            name = p.text;
          }
        }
        if (name.empty()) {
          name = performed.code.getCodeMeaning().c_str();
        }
        if (!name.empty() &&
            std::find(out_.findings.failedAlgorithms.begin(), out_.findings.failedAlgorithms.end(),
                      name) == out_.findings.failedAlgorithms.end()) {
          out_.findings.failedAlgorithms.push_back(name);
        }
      }
    }
  }

  std::string where_;
  std::map<std::size_t, const Node*> nodes_;
  std::map<std::size_t, std::pair<std::size_t, std::size_t>> placed_;  // node -> image, mark
  std::set<std::string> algorithms_;
  CadSrContent out_;
};

}  // namespace

CadSrContent readMammographyCadSr(const fs::path& path) {
  const std::string where = path.string();
  DSRDocument doc;
  loadSrDocument(path, doc);
  if (doc.getDocumentType() != DSRTypes::DT_MammographyCadSR) {
    throw Error(ErrorKind::InvalidInput, where,
                std::string("not a Mammography CAD SR but a ") +
                    DSRTypes::documentTypeToReadableName(doc.getDocumentType()));
  }
  DSRDocumentTree& tree = doc.getTree();
  if (tree.gotoRoot() == 0) {
    throw Error(ErrorKind::InvalidInput, where, "the CAD report has no content");
  }
  const Node root = readNode(tree);
  CadReader reader(root, where);
  CadSrContent content = reader.read(root);
  if (!same(root.name, kMammographyCadReport())) {
    content.warnings.push_back(where + ": the document title is \"" +
                               std::string(root.name.getCodeMeaning().c_str()) +
                               "\", not \"Mammography CAD Report\"");
  }
  OFString study;
  doc.getStudyInstanceUID(study);
  content.studyInstanceUid = study.c_str();
  if (content.findings.source.empty()) {
    OFString manufacturer;
    doc.getManufacturer(manufacturer);
    content.findings.source = manufacturer.empty()
                                  ? std::string("CAD report")
                                  : "CAD report from " + std::string(manufacturer.c_str());
  }
  return content;
}

bool isMammographyCadSr(const fs::path& path) {
  try {
    return readDicomHeader(path.string()).sopClassUid == kMammographyCadSrClass;
  } catch (const Error&) {
    return false;
  }
}

mammo::StudyFindings mergeCadFindings(const std::vector<mammo::StudyFindings>& parts) {
  mammo::StudyFindings out;
  auto join = [](std::string& into, const std::string& more) {
    if (!more.empty() && into.find(more) == std::string::npos) {
      into += (into.empty() ? "" : "; ") + more;
    }
  };
  for (const mammo::StudyFindings& part : parts) {
    join(out.source, part.source);
    join(out.processingSummary, part.processingSummary);
    out.demonstration = out.demonstration || part.demonstration;
    for (const std::string& f : part.failedAlgorithms) {
      if (std::find(out.failedAlgorithms.begin(), out.failedAlgorithms.end(), f) ==
          out.failedAlgorithms.end()) {
        out.failedAlgorithms.push_back(f);
      }
    }
    for (const mammo::ImageFindings& image : part.images) {
      auto it =
          std::find_if(out.images.begin(), out.images.end(),
                       [&](const mammo::ImageFindings& f) { return f.imageId == image.imageId; });
      if (it == out.images.end()) {
        out.images.push_back(image);
      } else {
        it->marks.insert(it->marks.end(), image.marks.begin(), image.marks.end());
      }
    }
  }
  return out;
}

}  // namespace delineate::core::report
