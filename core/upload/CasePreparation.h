#pragma once
// Turns a picked case into what goes to a datastore, checking it first ("lint"): the image read
// and stripped of every identity field, the label images read on the image's grid, merged, and
// their values mapped to the server's label schema. Problems are findings, not exceptions, so a
// batch can list them all before anything is sent:
//   errors (the case is not sent): unreadable image or label, an image the server's policy
//     holds back (it may show identifying text: core/deid/OutboundPolicy.h), a label on another
//     grid, a segment whose name (or, without a segment table, whose value) the server's schema
//     does not know, an empty label;
//   warnings: voxels labelled in two label files (the later file wins when merged).
// The case id is "<prefix>-" and 12 hex digits of the SHA-256 of the image's grid and voxels: the
// same image gives the same id wherever it is picked from (the datastore replaces, never
// duplicates) and the id says nothing about the patient or the file name.
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/ai/MonaiInfo.h"
#include "core/deid/OutboundPolicy.h"
#include "core/jobs/ProgressSink.h"
#include "core/model/LabelMap.h"
#include "core/model/Volume.h"
#include "core/upload/DatasetCase.h"

namespace delineate::core::upload {

struct LintFinding {
  enum class Severity { Error, Warning };
  Severity severity = Severity::Error;
  std::string message;  // names the file it is about
};

struct PrepareOptions {
  // The server's labels (names and values; background ignored); empty: keep the files' values.
  std::vector<ai::ModelLabel> schema;
  std::string idPrefix = "case";
  bool allowEmptyLabel = false;
  // The server's de-identification setting: on, an image that may show identifying text in its
  // pixels is an error naming the file and the reason.
  deid::OutboundPolicy outbound;
};

struct PreparedCase {
  std::string id;
  std::string source;               // the picked image path: for the user's eyes, never sent
  VolumePtr image;                  // identity fields cleared
  std::shared_ptr<LabelMap> label;  // null: the case has no label
  nlohmann::json labelInfo = nlohmann::json::array();  // [{"name", "idx"}] of the values present
  std::vector<LintFinding> findings;

  bool sendable() const;
};

PreparedCase prepareCase(const DatasetCase& picked, const PrepareOptions& options,
                         ProgressSink& progress);

// Writes the case's image and label (when it has one) as gzipped NIfTI with no identifiers in the
// header. Throws Error(Io) naming the file (full disk).
void writeCaseFiles(const PreparedCase& prepared, const std::filesystem::path& imageFile,
                    const std::filesystem::path& labelFile);

}  // namespace delineate::core::upload
