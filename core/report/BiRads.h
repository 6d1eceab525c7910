#pragma once
// The BI-RADS mammography lexicon (ACR BI-RADS Atlas, 5th edition) as enumerations: breast
// composition, finding kinds, mass and calcification descriptors, assessment categories, and the
// location terms the report uses (laterality, depth). Each has a key for files ("c", "irregular",
// "fine-pleomorphic", "4") and its lexicon name for the report ("Fine pleomorphic").
#include "core/mammo/MammoView.h"
#include "core/report/EnumTable.h"

namespace delineate::core::report {

enum class BreastComposition { A, B, C, D };  // keys "a".."d"

enum class FindingKind { Mass, Calcification, Asymmetry, ArchitecturalDistortion, Other };

enum class MassShape { Oval, Round, Irregular };
enum class MassMargin { Circumscribed, Obscured, Microlobulated, Indistinct, Spiculated };
enum class MassDensity { High, Equal, Low, FatContaining };

enum class CalcificationMorphology {
  // typically benign
  Skin,
  Vascular,
  CoarsePopcorn,
  LargeRodLike,
  Round,
  Rim,
  Dystrophic,
  MilkOfCalcium,
  Suture,
  // suspicious
  Amorphous,
  CoarseHeterogeneous,
  FinePleomorphic,
  FineLinearBranching,
};
enum class CalcificationDistribution { Diffuse, Regional, Grouped, Linear, Segmental };

// Keys "0".."6".
enum class AssessmentCategory {
  Incomplete = 0,
  Negative = 1,
  Benign = 2,
  ProbablyBenign = 3,
  Suspicious = 4,
  HighlySuggestive = 5,
  KnownMalignancy = 6,
};

// The third of the nipple-to-chest-wall distance a finding lies in (anterior: nearest the nipple).
enum class Depth { Anterior, Middle, Posterior };

// The management BI-RADS recommends with a category, as a default recommendation text.
const char* standardManagement(AssessmentCategory category);

template <>
std::span<const EnumEntry<BreastComposition>> enumEntries<BreastComposition>();
template <>
std::span<const EnumEntry<FindingKind>> enumEntries<FindingKind>();
template <>
std::span<const EnumEntry<MassShape>> enumEntries<MassShape>();
template <>
std::span<const EnumEntry<MassMargin>> enumEntries<MassMargin>();
template <>
std::span<const EnumEntry<MassDensity>> enumEntries<MassDensity>();
template <>
std::span<const EnumEntry<CalcificationMorphology>> enumEntries<CalcificationMorphology>();
template <>
std::span<const EnumEntry<CalcificationDistribution>> enumEntries<CalcificationDistribution>();
template <>
std::span<const EnumEntry<AssessmentCategory>> enumEntries<AssessmentCategory>();
template <>
std::span<const EnumEntry<Depth>> enumEntries<Depth>();
// "R" right, "L" left (Unknown is not a value a report stores).
template <>
std::span<const EnumEntry<mammo::Laterality>> enumEntries<mammo::Laterality>();

}  // namespace delineate::core::report
