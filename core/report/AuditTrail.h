#pragma once
// A report's audit trail: an append-only JSON-lines file, one AuditEntry a line, each append
// fsync'd. Lines are chained: each carries the SHA-256 of its own content and of the previous
// line's hash, so that a line altered, removed or moved in the middle of the file is found by
// readAuditTrail. (The chain has no secret: it shows accidental or careless changes, not a
// determined forger who rewrites every later line; the last line's hash, kept elsewhere, pins the
// whole file.) Entries hold field values only, never patient identifiers.
//
//   {"action":"edit","field":"findings/F1/clockPosition","hash":"<64 hex>","new":"2","old":"1",
//    "prev":"<64 hex: the previous line's hash, zeros for the first>","seq":1,
//    "time":"2026-03-04T10:15:00Z","user":"Dr A"}
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "core/report/AuditEntry.h"

namespace delineate::core::report {

class AuditTrail {
 public:
  // Opens (or starts) the trail in `file`; an existing file is read and checked first
  // (readAuditTrail's errors), so that new lines continue its chain.
  explicit AuditTrail(std::filesystem::path file);

  // Appends and fsyncs. Throws Error(Io) naming the file when it cannot be written.
  void append(const AuditEntry& entry);
  void append(const std::vector<AuditEntry>& entries);

  const std::filesystem::path& file() const { return file_; }
  // The last line's hash (zeros for an empty trail): keep it with the report to pin the trail.
  const std::string& head() const { return head_; }
  std::uint64_t size() const { return count_; }

 private:
  std::filesystem::path file_;
  std::string head_;
  std::uint64_t count_ = 0;
};

// Reads and checks a trail. Throws Error(InvalidInput, "<file>:<line>") for a line that is not an
// entry, whose hash does not match its content ("the line was altered"), whose chain or sequence
// number does not follow the line before ("a line was removed or moved"), or an unfinished last
// line; Error(Io) when the file cannot be read.
std::vector<AuditEntry> readAuditTrail(const std::filesystem::path& file);

}  // namespace delineate::core::report
