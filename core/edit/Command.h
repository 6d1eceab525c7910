#pragma once
// A user-visible change that can be reverted and re-applied.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>

namespace delineate::core {

class LabelMap;

class Command {
 public:
  Command() : serial_(nextSerial()) {}
  virtual ~Command() = default;
  virtual void apply() = 0;   // redo
  virtual void revert() = 0;  // undo
  // Memory this entry holds, for the undo budget.
  virtual std::size_t byteSize() const = 0;
  virtual std::string text() const = 0;  // "Paint", "Region grow", ...
  // The label map this command changes (nullptr when none): per-map unsaved state and journals.
  virtual const LabelMap* labelMap() const { return nullptr; }
  // Unique for the life of the process: tells two commands apart after one was freed.
  std::uint64_t serial() const { return serial_; }

 private:
  static std::uint64_t nextSerial() {
    static std::atomic<std::uint64_t> counter{0};
    return ++counter;
  }
  std::uint64_t serial_;
};

}  // namespace delineate::core
