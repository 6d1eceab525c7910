#pragma once
// Maps a sub-task's [0, 1] onto [begin, end] of a parent sink, like SubProgress, and puts a
// prefix before each stage ("case 3/40 liver_03: Read liver_03.nii.gz").
#include <string>
#include <string_view>

#include "core/jobs/ProgressSink.h"

namespace delineate::core {

class PrefixedProgress : public ProgressSink {
 public:
  PrefixedProgress(ProgressSink& parent, double begin, double end, std::string prefix)
      : parent_(parent), begin_(begin), end_(end), prefix_(std::move(prefix)) {}
  void report(double fraction, std::string_view stage) override {
    parent_.report(begin_ + (end_ - begin_) * fraction, prefix_ + std::string(stage));
  }
  bool cancelled() const override { return parent_.cancelled(); }

 private:
  ProgressSink& parent_;
  double begin_;
  double end_;
  std::string prefix_;
};

}  // namespace delineate::core
