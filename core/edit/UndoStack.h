#pragma once
// Bounded undo/redo: capped by entry count and by total bytes (oldest entries are dropped first),
// with a clean marker for "no unsaved changes".
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/edit/Command.h"

namespace delineate::core {

enum class UndoEvent { Pushed, Undone, Redone };

class UndoStack {
 public:
  // Told of every command pushed, undone or redone (journaling, change notification).
  using Observer = std::function<void(Command&, UndoEvent)>;

  explicit UndoStack(std::size_t maxEntries = 200, std::size_t maxBytes = 512u << 20);

  // Adds a command that has already been applied; drops everything that could be redone.
  void push(std::unique_ptr<Command> command);
  bool canUndo() const { return index_ > 0; }
  bool canRedo() const { return index_ < entries_.size(); }
  void undo();
  void redo();
  std::string undoText() const;
  std::string redoText() const;

  std::size_t count() const { return entries_.size(); }
  std::size_t bytes() const { return bytes_; }
  std::size_t maxEntries() const { return maxEntries_; }
  std::size_t maxBytes() const { return maxBytes_; }
  void setLimits(std::size_t maxEntries, std::size_t maxBytes);

  void setClean() { clean_ = index_; }
  bool isClean() const { return clean_ && *clean_ == index_; }
  void clear();
  void setObserver(Observer observer) { observer_ = std::move(observer); }

 private:
  void trim();

  std::deque<std::unique_ptr<Command>> entries_;
  std::size_t index_ = 0;  // entries_[0, index_) are applied
  std::size_t bytes_ = 0;
  std::size_t maxEntries_;
  std::size_t maxBytes_;
  std::optional<std::size_t> clean_ = 0;
  Observer observer_;  // nullopt: the clean state can no longer be reached
};

}  // namespace delineate::core
