#pragma once
// One field of a report that keeps its provenance: the value, the value an AI proposed (if any)
// and whether a radiologist has reviewed it. The provenance is derived, never stored apart:
//   no AI value                        -> Manual
//   AI value, not reviewed             -> AiProposed (the value is the AI's)
//   reviewed, value == AI value        -> AcceptedUnchanged
//   reviewed, value != AI value (or no value) -> Edited
// Reviewing is explicit: accept() takes the AI's value unchanged, set() and clear() are the
// reader's own entries (setting the AI's very value counts as accepting it).
#include <optional>
#include <utility>

#include "core/report/Provenance.h"

namespace delineate::core::report {

template <class T>
class ReportField {
 public:
  ReportField() = default;
  // A value entered or computed without an AI (Manual).
  static ReportField manual(T value) {
    ReportField f;
    f.value_ = std::move(value);
    return f;
  }
  // An AI's proposal, not yet reviewed (AiProposed).
  static ReportField proposed(T aiValue) {
    ReportField f;
    f.propose(std::move(aiValue));
    return f;
  }
  // As stored in a file.
  static ReportField restore(std::optional<T> value, std::optional<T> aiValue, bool reviewed) {
    ReportField f;
    f.value_ = std::move(value);
    f.aiValue_ = std::move(aiValue);
    f.reviewed_ = reviewed;
    return f;
  }

  const std::optional<T>& value() const { return value_; }
  const std::optional<T>& aiValue() const { return aiValue_; }
  bool reviewed() const { return reviewed_; }
  bool empty() const { return !value_.has_value(); }

  Provenance provenance() const {
    if (!aiValue_) {
      return Provenance::Manual;
    }
    if (!reviewed_) {
      return Provenance::AiProposed;
    }
    return value_ && *value_ == *aiValue_ ? Provenance::AcceptedUnchanged : Provenance::Edited;
  }

  // Replaces the AI's proposal (the value becomes the proposal, not reviewed).
  void propose(T aiValue) {
    aiValue_ = aiValue;
    value_ = std::move(aiValue);
    reviewed_ = false;
  }
  // The reader accepts the AI's value unchanged (for a Manual field: marks it reviewed).
  void accept() {
    if (aiValue_) {
      value_ = aiValue_;
    }
    reviewed_ = true;
  }
  // The reader's own value.
  void set(T value) {
    value_ = std::move(value);
    reviewed_ = true;
  }
  void clear() {
    value_.reset();
    reviewed_ = true;
  }

  bool operator==(const ReportField&) const = default;

 private:
  std::optional<T> value_;
  std::optional<T> aiValue_;
  bool reviewed_ = false;
};

}  // namespace delineate::core::report
