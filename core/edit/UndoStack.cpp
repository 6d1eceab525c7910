#include "core/edit/UndoStack.h"

namespace delineate::core {

UndoStack::UndoStack(std::size_t maxEntries, std::size_t maxBytes)
    : maxEntries_(maxEntries), maxBytes_(maxBytes) {}

void UndoStack::push(std::unique_ptr<Command> command) {
  while (entries_.size() > index_) {
    bytes_ -= entries_.back()->byteSize();
    entries_.pop_back();
  }
  if (clean_ && *clean_ > index_) {
    clean_.reset();
  }
  bytes_ += command->byteSize();
  entries_.push_back(std::move(command));
  ++index_;
  if (observer_) {
    observer_(*entries_[index_ - 1], UndoEvent::Pushed);
  }
  trim();
}

void UndoStack::undo() {
  if (!canUndo()) {
    return;
  }
  entries_[--index_]->revert();
  if (observer_) {
    observer_(*entries_[index_], UndoEvent::Undone);
  }
}

void UndoStack::redo() {
  if (!canRedo()) {
    return;
  }
  entries_[index_++]->apply();
  if (observer_) {
    observer_(*entries_[index_ - 1], UndoEvent::Redone);
  }
}

std::string UndoStack::undoText() const {
  return canUndo() ? entries_[index_ - 1]->text() : "";
}
std::string UndoStack::redoText() const {
  return canRedo() ? entries_[index_]->text() : "";
}

void UndoStack::setLimits(std::size_t maxEntries, std::size_t maxBytes) {
  maxEntries_ = maxEntries;
  maxBytes_ = maxBytes;
  trim();
}

void UndoStack::clear() {
  entries_.clear();
  index_ = 0;
  bytes_ = 0;
  clean_ = 0;
}

void UndoStack::trim() {
  // Drop the oldest applied entries; never the one just pushed.
  while ((entries_.size() > maxEntries_ || bytes_ > maxBytes_) && index_ > 1) {
    bytes_ -= entries_.front()->byteSize();
    entries_.pop_front();
    --index_;
    if (clean_) {
      if (*clean_ == 0) {
        clean_.reset();
      } else {
        --*clean_;
      }
    }
  }
}

}  // namespace delineate::core
