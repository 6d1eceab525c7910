// The audit trail: fsync'd hash-chained JSON lines with field values only; an altered, removed or
// reordered line is refused with the file and line.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "ReportTestSupport.h"
#include "TempDir.h"
#include "core/Error.h"
#include "core/report/AuditTrail.h"
#include "core/report/MammographyDraft.h"
#include "core/report/MammographyReportJson.h"
#include "core/report/Sha256.h"

using namespace delineate::core;
using namespace delineate::core::report;

namespace {

std::string readText(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void writeText(const std::filesystem::path& file, const std::string& text) {
  std::ofstream(file, std::ios::binary | std::ios::trunc) << text;
}

std::string errorOf(const std::filesystem::path& file) {
  try {
    readAuditTrail(file);
  } catch (const Error& e) {
    return e.where() + ": " + e.detail();
  }
  return "no error";
}

// A report's life: draft, reader's edits, sign, addendum; every step recorded.
std::vector<AuditEntry> recordedSession(const std::filesystem::path& file) {
  AuditTrail trail(file);
  MammographyReport report =
      draftFromFindings(delineate::test::leftStudyFindings(), delineate::test::leftStudyFacts());
  report.setSubject({"Doe^Jane", "PID-4711", "19600101", "1.2.3", "ACC-9"});
  std::vector<AuditEntry> all;
  const auto record = [&](const std::vector<AuditEntry>& entries) {
    trail.append(entries);
    all.insert(all.end(), entries.begin(), entries.end());
  };
  record(report.edit("Dr Reader", "2026-03-04T10:00:00Z", [](MammographyContent& c) {
    acceptAllProposals(c);
    c.composition.set(BreastComposition::C);
    c.findings[0].clockPosition.set(1);
  }));
  record({report.sign("Dr Reader", "2026-03-04T10:10:00Z")});
  record({report.addAddendum("Compared with prior: new.", "Dr Other", "2026-03-05T08:00:00Z")});
  return all;
}

}  // namespace

TEST(ReportAuditTrail, Sha256MatchesTheStandardVectors) {
  EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(ReportAuditTrail, RecordsWhoChangedWhatAndWhenWithoutPatientIdentifiers) {
  delineate::test::TempDir dir;
  const auto file = dir / "report.audit.jsonl";
  const auto written = recordedSession(file);
  const auto read = readAuditTrail(file);
  EXPECT_EQ(read, written);
  const auto clock = std::find_if(read.begin(), read.end(), [](const AuditEntry& e) {
    return e.field == "findings/F1/clockPosition";
  });
  ASSERT_NE(clock, read.end());
  EXPECT_EQ(clock->user, "Dr Reader");
  EXPECT_EQ(clock->time, "2026-03-04T10:00:00Z");
  EXPECT_EQ(clock->oldValue, "2");
  EXPECT_EQ(clock->newValue, "1");
  EXPECT_EQ(read.back().action, "addendum");
  const std::string text = readText(file);
  for (const char* identifier : {"Doe", "Jane", "PID-4711", "19600101", "ACC-9"}) {
    EXPECT_EQ(text.find(identifier), std::string::npos) << identifier;
  }
  // Reopening continues the chain.
  AuditTrail again(file);
  EXPECT_EQ(again.size(), read.size());
  again.append({"2026-03-06T08:00:00Z", "Dr Third", "addendum", "addenda/2", "", "x"});
  EXPECT_EQ(readAuditTrail(file).size(), read.size() + 1);
}

TEST(ReportAuditTrail, RefusesAnAlteredRemovedOrUnfinishedLine) {
  delineate::test::TempDir dir;
  const auto file = dir / "report.audit.jsonl";
  recordedSession(file);
  const std::string original = readText(file);

  std::string altered = original;
  const auto at = altered.find("\"new\":\"1\"");  // the clock position the reader set
  ASSERT_NE(at, std::string::npos);
  altered.replace(at, 9, "\"new\":\"3\"");
  writeText(file, altered);
  const int line = 1 + int(std::count(original.begin(), original.begin() + long(at), '\n'));
  EXPECT_EQ(errorOf(file), file.string() + ":" + std::to_string(line) +
                               ": the line was altered: its hash does not match its content");
  EXPECT_THROW(AuditTrail{file}, Error);  // no appending to a damaged trail

  std::string removed = original;
  const auto second = removed.find('\n') + 1;
  removed.erase(second, removed.find('\n', second) + 1 - second);
  writeText(file, removed);
  EXPECT_NE(errorOf(file).find(":2: the line does not follow the line before it"),
            std::string::npos)
      << errorOf(file);

  writeText(file, original.substr(0, original.size() - 5));
  EXPECT_NE(errorOf(file).find("the last line is unfinished"), std::string::npos);
}
