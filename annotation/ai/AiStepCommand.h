#pragma once
// One AI click or prompt as an entry of the edit undo stack ("Box prompt", "Click"), so that
// Ctrl+Z takes back the last prompt as it takes back the last stroke. It changes no label map;
// undoing and redoing call back into whoever keeps the prompts (the AI controller), which also
// asks the model again. The callbacks must outlive the entry or check that they still may run.
#include <functional>
#include <string>
#include <utility>

#include "core/edit/Command.h"

namespace delineate::annotation {

class AiStepCommand : public core::Command {
 public:
  AiStepCommand(std::string text, std::function<void()> undo, std::function<void()> redo)
      : text_(std::move(text)), undo_(std::move(undo)), redo_(std::move(redo)) {}

  void apply() override { redo_(); }
  void revert() override { undo_(); }
  std::size_t byteSize() const override { return sizeof(*this) + text_.size(); }
  std::string text() const override { return text_; }

 private:
  std::string text_;
  std::function<void()> undo_;
  std::function<void()> redo_;
};

}  // namespace delineate::annotation
