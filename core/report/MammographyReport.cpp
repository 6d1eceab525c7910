// The mammography report's operations: edits with their audit, read-first-then-reveal, sign-off.
#include "core/report/MammographyReport.h"

namespace delineate::core::report {

MammographyReport MammographyReport::fromAiDraft(MammographyContent draft, AiOrigin origin) {
  MammographyReport r;
  r.content_ = draft;
  r.aiDraft_ = std::move(draft);
  r.aiOrigin_ = std::move(origin);
  return r;
}

MammographyReport MammographyReport::restore(ReportSubject subject, MammographyContent content,
                                             std::optional<MammographyContent> aiDraft,
                                             std::optional<AiOrigin> origin,
                                             ReadFirstRecord readFirst, ReportSignOff signOff) {
  MammographyReport r;
  r.subject_ = std::move(subject);
  r.content_ = std::move(content);
  r.aiDraft_ = std::move(aiDraft);
  r.aiOrigin_ = std::move(origin);
  r.readFirst_ = std::move(readFirst);
  r.signOff_ = std::move(signOff);
  return r;
}

void MammographyReport::setSubject(ReportSubject subject) {
  signOff_.requireUnlocked("change the patient and study");
  subject_ = std::move(subject);
}

std::vector<AuditEntry> MammographyReport::edit(
    const std::string& user, const std::string& time,
    const std::function<void(MammographyContent&)>& change) {
  signOff_.requireUnlocked("edit the report");
  if (!aiVisible()) {
    throw ReportLockedError(
        "cannot edit the report before the AI is revealed: record your own assessment, then "
        "reveal the AI");
  }
  const FieldListing before = listFields(content_);
  MammographyContent changed = content_;
  change(changed);  // on a copy: a throwing change leaves the report as it was
  content_ = std::move(changed);
  return changesBetween(before, listFields(content_), user, time);
}

void MammographyReport::enableReadFirst() {
  signOff_.requireUnlocked("switch to read-first mode");
  if (readFirst_.ownAssessment || !readFirst_.revealTime.empty()) {
    throw ReportLockedError("read-first mode must be chosen before reading");
  }
  readFirst_.enabled = true;
}

AuditEntry MammographyReport::recordOwnAssessment(const std::string& user, const std::string& time,
                                                  AssessmentCategory category) {
  signOff_.requireUnlocked("record an assessment");
  if (!readFirst_.enabled || !readFirst_.revealTime.empty()) {
    throw ReportLockedError(readFirst_.enabled
                                ? "the AI was already revealed: the own assessment is fixed"
                                : "the report is not in read-first mode");
  }
  const std::string old = readFirst_.ownAssessment ? keyOf(*readFirst_.ownAssessment) : "";
  readFirst_.ownAssessment = category;
  readFirst_.ownAssessmentUser = user;
  readFirst_.ownAssessmentTime = time;
  return {time, user, "own-assessment", "readFirst/ownAssessment", old, keyOf(category)};
}

AuditEntry MammographyReport::revealAi(const std::string& user, const std::string& time) {
  signOff_.requireUnlocked("reveal the AI");
  if (readFirst_.enabled && !readFirst_.ownAssessment) {
    throw MissingFieldsError({"own assessment before the AI is revealed"});
  }
  if (!readFirst_.revealTime.empty()) {
    throw ReportLockedError("the AI was already revealed at " + readFirst_.revealTime);
  }
  readFirst_.revealUser = user;
  readFirst_.revealTime = time;
  return {time, user, "reveal-ai", "readFirst/reveal", "", time};
}

std::vector<std::string> MammographyReport::missingForSignature() const {
  std::vector<std::string> missing = report::missingForSignature(content_);
  if (readFirst_.enabled && !readFirst_.ownAssessment) {
    missing.push_back("own assessment before the AI was revealed");
  }
  if (!aiVisible()) {
    missing.push_back("reveal of the AI");
  }
  return missing;
}

AuditEntry MammographyReport::sign(const std::string& name, const std::string& time) {
  return signOff_.sign({name, time}, missingForSignature());
}

AuditEntry MammographyReport::addAddendum(const std::string& text, const std::string& name,
                                          const std::string& time) {
  return signOff_.addAddendum(text, {name, time});
}

std::vector<FieldDifference> MammographyReport::differencesFromAiDraft() const {
  if (!aiDraft_) {
    return {};
  }
  return differencesBetween(listFields(*aiDraft_), listFields(content_));
}

}  // namespace delineate::core::report
