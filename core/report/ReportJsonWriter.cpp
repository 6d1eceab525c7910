// JSON of report parts and the atomic write of a report file.
#include "core/report/ReportJsonWriter.h"

#include <fstream>

#include "core/Error.h"
#include "core/io/AtomicFile.h"

namespace delineate::core::report {

using nlohmann::json;

json linkToJson(const ReportLink& link) {
  switch (link.kind) {
    case ReportLink::Kind::CadMark:
      return {{"kind", "cad-mark"},
              {"imageId", link.imageId},
              {"markIndex", link.markIndex},
              {"broken", link.broken}};
    case ReportLink::Kind::Segment:
      return {{"kind", "segment"},
              {"labelMap", link.labelMap},
              {"segment", link.segment},
              {"broken", link.broken}};
    case ReportLink::Kind::None:
      break;
  }
  return {{"kind", "none"}};
}

json subjectToJson(const ReportSubject& s) {
  return {{"patientName", s.patientName},
          {"patientId", s.patientId},
          {"birthDate", s.birthDate},
          {"studyInstanceUid", s.studyInstanceUid},
          {"accessionNumber", s.accessionNumber}};
}

void addSignOff(json& report, const ReportSignOff& signOff) {
  if (signOff.signature()) {
    report["signature"] = {{"name", signOff.signature()->name},
                           {"time", signOff.signature()->time}};
  }
  report["addenda"] = json::array();
  for (const Addendum& a : signOff.addenda()) {
    report["addenda"].push_back(
        {{"text", a.text}, {"name", a.signature.name}, {"time", a.signature.time}});
  }
}

void writeReportFile(const json& report, const std::filesystem::path& file) {
  writeTextAtomically(file, report.dump(2) + "\n", "the report");
}

}  // namespace delineate::core::report
