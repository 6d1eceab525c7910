#pragma once
// A BI-RADS mammography report: its content (MammographyContent), the AI draft it started from
// (kept unchanged, for the difference from the AI), the optional read-first-then-reveal record,
// and the sign-off. Every change goes through a method that returns its audit entries (for
// AuditTrail) and throws ReportLockedError once the report is signed; after signing only addenda
// are added.
//
// Read first, then reveal AI: with readFirst enabled the AI's proposals stay hidden (aiVisible()
// is false; the view shows no AI value) and the content cannot be edited until the reader has
// recorded an own assessment category and revealed the AI. The own (pre-reveal) assessment and its
// time are kept; the final assessment is the content's overall category.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/report/AuditEntry.h"
#include "core/report/MammographyContent.h"
#include "core/report/ReportSignOff.h"
#include "core/report/ReportSubject.h"

namespace delineate::core::report {

struct AiOrigin {
  std::string source;  // e.g. "Built-in demonstration detector (not a diagnosis)"
  bool demonstration = false;
  std::optional<double> riskScore;  // the case score 0..1
  bool operator==(const AiOrigin&) const = default;
};

struct ReadFirstRecord {
  bool enabled = false;
  std::optional<AssessmentCategory> ownAssessment;  // entered before the AI was shown
  std::string ownAssessmentUser, ownAssessmentTime;
  std::string revealUser, revealTime;  // when the AI was revealed ("" not yet)
  bool operator==(const ReadFirstRecord&) const = default;
};

class MammographyReport {
 public:
  MammographyReport() = default;  // an empty report without AI
  // A report starting from an AI draft (fields AI-proposed), which is kept as the AI draft.
  static MammographyReport fromAiDraft(MammographyContent draft, AiOrigin origin);
  // As read from a file.
  static MammographyReport restore(ReportSubject subject, MammographyContent content,
                                   std::optional<MammographyContent> aiDraft,
                                   std::optional<AiOrigin> origin, ReadFirstRecord readFirst,
                                   ReportSignOff signOff);

  const ReportSubject& subject() const { return subject_; }
  void setSubject(ReportSubject subject);  // not audited (identifiers stay out of the trail)
  const MammographyContent& content() const { return content_; }
  const std::optional<MammographyContent>& aiDraft() const { return aiDraft_; }
  const std::optional<AiOrigin>& aiOrigin() const { return aiOrigin_; }
  const ReadFirstRecord& readFirst() const { return readFirst_; }
  const ReportSignOff& signOff() const { return signOff_; }
  bool locked() const { return signOff_.locked(); }

  // Applies `change` to the content; returns what changed, one entry per field. Throws
  // ReportLockedError when signed, or in read-first mode before the AI is revealed.
  std::vector<AuditEntry> edit(const std::string& user, const std::string& time,
                               const std::function<void(MammographyContent&)>& change);

  // Read first, then reveal. enableReadFirst() before anything is recorded (throws
  // ReportLockedError otherwise); recordOwnAssessment() while the AI is hidden (again replaces
  // it); revealAi() once an own assessment is recorded (MissingFieldsError otherwise).
  void enableReadFirst();
  AuditEntry recordOwnAssessment(const std::string& user, const std::string& time,
                                 AssessmentCategory category);
  AuditEntry revealAi(const std::string& user, const std::string& time);
  bool aiVisible() const { return !readFirst_.enabled || !readFirst_.revealTime.empty(); }

  // The content's missing fields, plus "own assessment before the AI was revealed" and "reveal
  // of the AI" in read-first mode.
  std::vector<std::string> missingForSignature() const;
  // Throws MissingFieldsError listing what is missing; locks the report.
  AuditEntry sign(const std::string& name, const std::string& time);
  AuditEntry addAddendum(const std::string& text, const std::string& name, const std::string& time);

  // How the report differs from its AI draft (empty without one).
  std::vector<FieldDifference> differencesFromAiDraft() const;

  bool operator==(const MammographyReport&) const = default;

 private:
  ReportSubject subject_;
  MammographyContent content_;
  std::optional<MammographyContent> aiDraft_;
  std::optional<AiOrigin> aiOrigin_;
  ReadFirstRecord readFirst_;
  ReportSignOff signOff_;
};

}  // namespace delineate::core::report
