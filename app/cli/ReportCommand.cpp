// delineate-cli report: export a report file (JSON) as DICOM SR, PDF or JSON, and show what a
// report file holds.
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "CliProgress.h"
#include "Commands.h"
#include "core/Error.h"
#include "core/report/MammoCadSr.h"
#include "core/report/ReportExport.h"
#include "core/report/ReportFile.h"

namespace delineate::cli {

namespace {

namespace fs = std::filesystem;
namespace cr = core::report;
using cr::ExportFormat;
using cr::ExportRequest;
using cr::ExportResult;

constexpr const char* kReportUsage =
    "usage: delineate-cli report export REPORT.json --format sr|pdf|json --out FILE\n"
    "                                  [--image DIR] [--labels FILE] [--seg SEG.dcm]\n"
    "                                  [--study DIR [--findings FILE]]\n"
    "       delineate-cli report show REPORT.json | CAD.dcm\n"
    "  export writes the report (a mammography report or a measurement report, as saved by the\n"
    "  app or written by `delineate-cli sample`) as a DICOM Comprehensive SR, a PDF or JSON.\n"
    "  Measurement report: the SR needs --image DIR, the DICOM series it was measured on (the\n"
    "  SR joins its study and lists its images); --labels FILE gives the segments' codes (the\n"
    "  label file with its segment table beside it) and --seg SEG.dcm the DICOM SEG of the\n"
    "  segments (the SR refers to them). --image and --labels add key images to the PDF (each\n"
    "  segment's largest cross-section).\n"
    "  Mammography report: --study DIR (the study's DICOM views) adds the image library and\n"
    "  the findings' image references to the SR, and key images to the PDF: the views the\n"
    "  findings are on, with their CAD marks from --findings FILE (default: DIR/ai-findings.json\n"
    "  when there is one).\n"
    "  show prints the fields with their provenance (AI-proposed, accepted, edited, reader),\n"
    "  what is missing for signing, the signature and addenda. Given a DICOM Mammography CAD SR\n"
    "  (any vendor's), show prints its processing summary and, per image, every finding: kind,\n"
    "  certainty, probability of cancer, rendering intent, centre and box in image pixels.\n";

int usageError(const std::string& what) {
  std::fprintf(stderr, "delineate-cli report: %s\n%s", what.c_str(), kReportUsage);
  return 2;
}

int runExport(const Args& args) {
  ExportRequest request;
  std::string format;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const bool value = i + 1 < args.size();
    if (args[i] == "--format" && value) {
      format = args[++i];
    } else if (args[i] == "--out" && value) {
      request.out = args[++i];
    } else if (args[i] == "--image" && value) {
      request.image = args[++i];
    } else if (args[i] == "--labels" && value) {
      request.labels = args[++i];
    } else if (args[i] == "--seg" && value) {
      request.seg = args[++i];
    } else if (args[i] == "--study" && value) {
      request.study = args[++i];
    } else if (args[i] == "--findings" && value) {
      request.findings = args[++i];
    } else if (request.report.empty() && !args[i].starts_with("-")) {
      request.report = args[i];
    } else {
      return usageError("bad argument '" + args[i] + "'");
    }
  }
  if (request.report.empty() || request.out.empty()) {
    return usageError("export needs REPORT.json and --out FILE");
  }
  const std::map<std::string, ExportFormat> formats{
      {"sr", ExportFormat::Sr}, {"pdf", ExportFormat::Pdf}, {"json", ExportFormat::Json}};
  const auto f = formats.find(format);
  if (f == formats.end()) {
    return usageError("--format must be sr, pdf or json");
  }
  request.format = f->second;
  CliProgress progress;
  const ExportResult result = cr::exportReport(request, progress);
  for (const std::string& note : result.notes) {
    std::fprintf(stderr, "note: %s\n", note.c_str());
  }
  std::printf("wrote %s\n", request.out.string().c_str());
  return 0;
}

void printListing(const cr::FieldListing& fields) {
  for (const cr::FieldEntry& e : fields) {
    if (e.value.empty() && !e.aiValue && e.provenance == cr::Provenance::Manual) {
      continue;  // nothing entered, nothing proposed
    }
    std::printf("  %-44s %-28s [%s]%s\n", e.path.c_str(), e.value.empty() ? "-" : e.value.c_str(),
                cr::keyOf(e.provenance),
                e.aiValue && *e.aiValue != e.value ? (" AI: " + *e.aiValue).c_str() : "");
  }
}

void printSignOff(const cr::ReportSignOff& signOff, const std::vector<std::string>& missing) {
  if (signOff.signature()) {
    std::printf("signed by %s at %s\n", signOff.signature()->name.c_str(),
                signOff.signature()->time.c_str());
  } else if (missing.empty()) {
    std::printf("not signed; ready to sign\n");
  } else {
    std::printf("not signed; missing for signing:\n");
    for (const std::string& m : missing) {
      std::printf("  - %s\n", m.c_str());
    }
  }
  for (const cr::Addendum& a : signOff.addenda()) {
    std::printf("addendum by %s at %s: %s\n", a.signature.name.c_str(), a.signature.time.c_str(),
                a.text.c_str());
  }
}

std::string cadNumber(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

int showCadSr(const std::string& path) {
  const cr::CadSrContent cad = cr::readMammographyCadSr(path);
  const core::mammo::StudyFindings& f = cad.findings;
  std::printf("Mammography CAD SR %s\n  study %s\n  source: %s\n", path.c_str(),
              cad.studyInstanceUid.c_str(), f.source.c_str());
  if (!f.processingSummary.empty()) {
    std::printf("  processing: %s\n", f.processingSummary.c_str());
  }
  for (const std::string& failed : f.failedAlgorithms) {
    std::printf("  FAILED: %s\n", failed.c_str());
  }
  if (f.demonstration) {
    std::printf("  DEMONSTRATION FINDINGS, NOT A DIAGNOSIS\n");
  }
  std::size_t marks = 0;
  for (const core::mammo::ImageFindings& image : f.images) {
    std::printf("image %s\n", image.imageId.c_str());
    for (const core::mammo::FindingMark& m : image.marks) {
      ++marks;
      std::string values;
      if (m.scored) {
        values += "  certainty " + cadNumber(m.score, 2);
      }
      if (m.probability) {
        values += "  probability of cancer " + cadNumber(*m.probability, 2);
      }
      std::printf("    %-24s%s  [%s]  centre %s, %s  box %s, %s - %s, %s%s\n", m.kind.c_str(),
                  values.c_str(), core::mammo::keyOf(m.intent), cadNumber(m.column, 1).c_str(),
                  cadNumber(m.row, 1).c_str(), cadNumber(m.x0, 1).c_str(),
                  cadNumber(m.y0, 1).c_str(), cadNumber(m.x1, 1).c_str(),
                  cadNumber(m.y1, 1).c_str(),
                  m.outline.empty()
                      ? ""
                      : ("  outline of " + std::to_string(m.outline.size()) + " points").c_str());
    }
  }
  std::printf("%zu finding(s)\n", marks);
  for (const std::string& w : cad.warnings) {
    std::fprintf(stderr, "warning: %s\n", w.c_str());
  }
  return 0;
}

int runShow(const Args& args) {
  if (args.size() != 1) {
    return usageError("show takes one REPORT.json or CAD.dcm");
  }
  if (cr::isMammographyCadSr(args[0])) {
    return showCadSr(args[0]);
  }
  const cr::AnyReport any = cr::readReport(args[0]);
  if (const auto* m = std::get_if<cr::MammographyReport>(&any)) {
    std::printf("mammography report (BI-RADS)\n");
    if (m->aiOrigin()) {
      std::printf("AI draft from: %s%s\n", m->aiOrigin()->source.c_str(),
                  m->aiOrigin()->demonstration ? " (DEMONSTRATION, NOT A DIAGNOSIS)" : "");
    }
    if (!m->aiVisible()) {
      std::printf("read first: the AI is not revealed yet\n");
    }
    printListing(cr::listFields(m->content()));
    printSignOff(m->signOff(), m->missingForSignature());
  } else {
    const auto& r = std::get<cr::MeasurementReport>(any);
    std::printf("measurement report, %zu segment(s)\n", r.rows().size());
    printListing(cr::listFields(r.rows(), r.notes()));
    printSignOff(r.signOff(), r.missingForSignature());
  }
  return 0;
}

}  // namespace

int runReport(const Args& args) {
  if (args.empty()) {
    return usageError("no subcommand");
  }
  const Args rest(args.begin() + 1, args.end());
  if (args[0] == "export") {
    return runExport(rest);
  }
  if (args[0] == "show") {
    return runShow(rest);
  }
  return usageError("unknown subcommand '" + args[0] + "'");
}

}  // namespace delineate::cli
