// The plain values a mammography report writes into its SR.
#include "core/report/MammographySrContent.h"

#include "core/report/SrContentTree.h"

namespace delineate::core::report {

namespace {

template <class T>
std::optional<T> valueOf(const ReportField<T>& field) {
  return field.value();
}

std::string textOf(const ReportField<std::string>& field) {
  return field.value().value_or("");
}

// A time as the SR keeps it: to the second, in ISO 8601 again.
std::string asWritten(const std::string& iso) {
  return sr::isoDateTime(sr::dicomDateTime(iso));
}

}  // namespace

MammographySrValues mammographySrValues(const MammographyReport& report) {
  const MammographyContent& c = report.content();
  MammographySrValues v;
  v.composition = valueOf(c.composition);
  for (const MammoFinding& f : c.findings) {
    MammoSrFinding s;
    s.id = f.id;
    s.kind = valueOf(f.kind);
    s.description = textOf(f.description);
    s.laterality = valueOf(f.laterality);
    s.clockPosition = valueOf(f.clockPosition);
    s.depth = valueOf(f.depth);
    s.sizeMm = valueOf(f.sizeMm);
    s.massShape = valueOf(f.massShape);
    s.massMargin = valueOf(f.massMargin);
    s.massDensity = valueOf(f.massDensity);
    s.calcificationMorphology = valueOf(f.calcificationMorphology);
    s.calcificationDistribution = valueOf(f.calcificationDistribution);
    s.aiScore = f.aiScore;
    v.findings.push_back(std::move(s));
  }
  v.assessmentRight = valueOf(c.assessmentRight);
  v.assessmentLeft = valueOf(c.assessmentLeft);
  v.assessmentOverall = valueOf(c.assessmentOverall);
  v.management = textOf(c.management);
  v.impression = textOf(c.impression);
  v.aiOrigin = report.aiOrigin();
  if (const auto& s = report.signOff().signature()) {
    v.signature = Signature{sr::personName(s->name), asWritten(s->time)};
  }
  for (const Addendum& a : report.signOff().addenda()) {
    v.addenda.push_back({a.text, {sr::personName(a.signature.name), asWritten(a.signature.time)}});
  }
  return v;
}

}  // namespace delineate::core::report
