#pragma once
// Reading report files: every error names "<file>:<line>" (core/mammo/JsonLocator finds the line
// of the offending value) and says what is wrong. The JSON shapes are in ReportJsonWriter.h.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "core/report/FieldValue.h"
#include "core/report/ReportField.h"
#include "core/report/ReportLink.h"
#include "core/report/ReportSignOff.h"
#include "core/report/ReportSubject.h"

namespace delineate::core::report {

class ReportJsonReader {
 public:
  ReportJsonReader(std::string_view text, std::string source)
      : text_(text), source_(std::move(source)) {}

  // Parses the text; a syntax error names the line. Checks "format" and "version".
  nlohmann::json parse(const char* format, int version) const;

  // Throws Error(InvalidInput, "<source>:<line of pointer>", what).
  [[noreturn]] void fail(const std::string& pointer, const std::string& what) const;

  // The member `key` of `object` (at `pointer`); nullptr when absent or null and not required.
  const nlohmann::json* member(const nlohmann::json& object, const std::string& pointer,
                               const char* key, bool required) const;
  const nlohmann::json& object(const nlohmann::json& parent, const std::string& pointer,
                               const char* key) const;  // required, must be an object
  std::string string(const nlohmann::json& object, const std::string& pointer, const char* key,
                     bool required) const;
  bool boolean(const nlohmann::json& object, const std::string& pointer, const char* key) const;
  std::optional<double> number(const nlohmann::json& object, const std::string& pointer,
                               const char* key, bool required) const;
  long long integer(const nlohmann::json& object, const std::string& pointer, const char* key,
                    long long lo, long long hi) const;  // required, in lo..hi

  template <class T>
  ReportField<T> field(const nlohmann::json& parent, const std::string& parentPointer,
                       const char* key) const {
    const nlohmann::json* j = member(parent, parentPointer, key, false);
    if (j == nullptr) {
      return {};
    }
    const std::string p = parentPointer + "/" + key;
    if (!j->is_object()) {
      fail(p, std::string("\"") + key + "\" must be an object with \"value\", \"ai\", ...");
    }
    const auto value = [&](const char* k) -> std::optional<T> {
      const nlohmann::json* v = member(*j, p, k, false);
      if (v == nullptr) {
        return std::nullopt;
      }
      auto parsed = valueFromJson<T>(*v);
      if (!parsed) {
        fail(p + "/" + k, std::string("\"") + key + "\" " + k + " " + v->dump() + " must be " +
                              expectedValue<T>());
      }
      return parsed;
    };
    auto f = ReportField<T>::restore(value("value"), value("ai"), boolean(*j, p, "reviewed"));
    checkProvenance(*j, p, f.provenance());
    return f;
  }

  ReportLink link(const nlohmann::json& parent, const std::string& parentPointer) const;
  ReportSubject subject(const nlohmann::json& root) const;
  ReportSignOff signOff(const nlohmann::json& root) const;

 private:
  void checkProvenance(const nlohmann::json& field, const std::string& pointer,
                       Provenance derived) const;

  std::string_view text_;
  std::string source_;
};

// The text of a report file; Error(Io) naming it when it cannot be read.
std::string readReportText(const std::filesystem::path& file);

}  // namespace delineate::core::report
