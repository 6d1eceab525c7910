#pragma once
// A user-visible change that can be reverted and re-applied.
#include <cstddef>
#include <string>

namespace delineate::core {

class Command {
 public:
  virtual ~Command() = default;
  virtual void apply() = 0;   // redo
  virtual void revert() = 0;  // undo
  // Memory this entry holds, for the undo budget.
  virtual std::size_t byteSize() const = 0;
  virtual std::string text() const = 0;  // "Paint", "Region grow", ...
};

}  // namespace delineate::core
