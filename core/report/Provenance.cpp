// The text of Provenance values.
#include "core/report/Provenance.h"

namespace delineate::core::report {

template <>
std::span<const EnumEntry<Provenance>> enumEntries<Provenance>() {
  static constexpr EnumEntry<Provenance> kEntries[] = {
      {Provenance::AiProposed, "ai-proposed", "AI-proposed"},
      {Provenance::AcceptedUnchanged, "accepted-unchanged", "AI value accepted unchanged"},
      {Provenance::Edited, "edited", "edited (differs from the AI)"},
      {Provenance::Manual, "manual", "entered by the reader"},
  };
  return kEntries;
}

}  // namespace delineate::core::report
