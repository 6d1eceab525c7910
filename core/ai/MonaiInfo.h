#pragma once
// What a MONAI Label server offers, from its GET /info/ answer (docs/ai-protocol.md): the app, its
// models (type, labels, dimension, options), trainers, active-learning strategies and datastore
// counts. Parsing tolerates missing and unknown fields; only a non-object answer is an error.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/ai/ServerInfo.h"

namespace delineate::core::ai {

// Parses the body of GET /info/. `server` names the server in errors. Throws
// Error(InvalidInput) when the body is not JSON or not a JSON object.
ServerInfo parseMonaiInfo(std::string_view body, const std::string& server = {});

// Labels in either server form: a list of names (value = position + 1) or an object
// name -> integer value (sorted by value, then name). Entries of other shapes are skipped.
std::vector<ModelLabel> parseMonaiLabels(const nlohmann::json& labels);

// The `config` object of a model or trainer as options, in key order.
std::vector<ModelOption> parseMonaiConfig(const nlohmann::json& config);

// Parses a server answer as JSON with a nesting limit (so that hostile input cannot exhaust the
// stack later). Throws Error(InvalidInput) "<what> is not JSON: ..." on failure.
nlohmann::json parseServerJson(std::string_view body, const std::string& what,
                               const std::string& server = {});

}  // namespace delineate::core::ai
