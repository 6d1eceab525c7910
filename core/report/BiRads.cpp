// The BI-RADS lexicon tables: keys for files and the Atlas's names.
#include "core/report/BiRads.h"

namespace delineate::core::report {

const char* standardManagement(AssessmentCategory category) {
  switch (category) {
    case AssessmentCategory::Incomplete:
      return "Recall for additional imaging and/or comparison with prior examination(s)";
    case AssessmentCategory::Negative:
    case AssessmentCategory::Benign:
      return "Routine mammography screening";
    case AssessmentCategory::ProbablyBenign:
      return "Short-interval (6-month) follow-up or continued surveillance mammography";
    case AssessmentCategory::Suspicious:
    case AssessmentCategory::HighlySuggestive:
      return "Tissue diagnosis";
    case AssessmentCategory::KnownMalignancy:
      return "Surgical excision when clinically appropriate";
  }
  return "";
}

template <>
std::span<const EnumEntry<BreastComposition>> enumEntries<BreastComposition>() {
  using B = BreastComposition;
  static constexpr EnumEntry<B> kEntries[] = {
      {B::A, "a", "The breasts are almost entirely fatty"},
      {B::B, "b", "There are scattered areas of fibroglandular density"},
      {B::C, "c", "The breasts are heterogeneously dense, which may obscure small masses"},
      {B::D, "d", "The breasts are extremely dense, which lowers the sensitivity of mammography"},
  };
  return kEntries;
}

template <>
std::span<const EnumEntry<FindingKind>> enumEntries<FindingKind>() {
  using K = FindingKind;
  static constexpr EnumEntry<K> kEntries[] = {
      {K::Mass, "mass", "Mass"},
      {K::Calcification, "calcification", "Calcifications"},
      {K::Asymmetry, "asymmetry", "Asymmetry"},
      {K::ArchitecturalDistortion, "architectural-distortion", "Architectural distortion"},
      {K::Other, "other", "Other finding"},
  };
  return kEntries;
}

template <>
std::span<const EnumEntry<MassShape>> enumEntries<MassShape>() {
  static constexpr EnumEntry<MassShape> kEntries[] = {
      {MassShape::Oval, "oval", "Oval"},
      {MassShape::Round, "round", "Round"},
      {MassShape::Irregular, "irregular", "Irregular"},
  };
  return kEntries;
}

template <>
std::span<const EnumEntry<MassMargin>> enumEntries<MassMargin>() {
  using M = MassMargin;
  static constexpr EnumEntry<M> kEntries[] = {
      {M::Circumscribed, "circumscribed", "Circumscribed"},
      {M::Obscured, "obscured", "Obscured"},
      {M::Microlobulated, "microlobulated", "Microlobulated"},
      {M::Indistinct, "indistinct", "Indistinct"},
      {M::Spiculated, "spiculated", "Spiculated"},
  };
  return kEntries;
}

template <>
std::span<const EnumEntry<MassDensity>> enumEntries<MassDensity>() {
  using D = MassDensity;
  static constexpr EnumEntry<D> kEntries[] = {
      {D::High, "high", "High density"},
      {D::Equal, "equal", "Equal density"},
      {D::Low, "low", "Low density"},
      {D::FatContaining, "fat-containing", "Fat-containing"},
  };
  return kEntries;
}

template <>
std::span<const EnumEntry<CalcificationMorphology>> enumEntries<CalcificationMorphology>() {
  using C = CalcificationMorphology;
  static constexpr EnumEntry<C> kEntries[] = {
      {C::Skin, "skin", "Skin"},
      {C::Vascular, "vascular", "Vascular"},
      {C::CoarsePopcorn, "coarse-popcorn", "Coarse or \"popcorn-like\""},
      {C::LargeRodLike, "large-rod-like", "Large rod-like"},
      {C::Round, "round", "Round"},
      {C::Rim, "rim", "Rim"},
      {C::Dystrophic, "dystrophic", "Dystrophic"},
      {C::MilkOfCalcium, "milk-of-calcium", "Milk of calcium"},
      {C::Suture, "suture", "Suture"},
      {C::Amorphous, "amorphous", "Amorphous"},
      {C::CoarseHeterogeneous, "coarse-heterogeneous", "Coarse heterogeneous"},
      {C::FinePleomorphic, "fine-pleomorphic", "Fine pleomorphic"},
      {C::FineLinearBranching, "fine-linear-branching", "Fine linear or fine-linear branching"},
  };
  return kEntries;
}

template <>
std::span<const EnumEntry<CalcificationDistribution>> enumEntries<CalcificationDistribution>() {
  using D = CalcificationDistribution;
  static constexpr EnumEntry<D> kEntries[] = {
      {D::Diffuse, "diffuse", "Diffuse"},       {D::Regional, "regional", "Regional"},
      {D::Grouped, "grouped", "Grouped"},       {D::Linear, "linear", "Linear"},
      {D::Segmental, "segmental", "Segmental"},
  };
  return kEntries;
}

template <>
std::span<const EnumEntry<AssessmentCategory>> enumEntries<AssessmentCategory>() {
  using A = AssessmentCategory;
  static constexpr EnumEntry<A> kEntries[] = {
      {A::Incomplete, "0",
       "BI-RADS 0: Incomplete - Need additional imaging evaluation and/or prior mammograms for "
       "comparison"},
      {A::Negative, "1", "BI-RADS 1: Negative"},
      {A::Benign, "2", "BI-RADS 2: Benign"},
      {A::ProbablyBenign, "3", "BI-RADS 3: Probably benign"},
      {A::Suspicious, "4", "BI-RADS 4: Suspicious"},
      {A::HighlySuggestive, "5", "BI-RADS 5: Highly suggestive of malignancy"},
      {A::KnownMalignancy, "6", "BI-RADS 6: Known biopsy-proven malignancy"},
  };
  return kEntries;
}

template <>
std::span<const EnumEntry<Depth>> enumEntries<Depth>() {
  static constexpr EnumEntry<Depth> kEntries[] = {
      {Depth::Anterior, "anterior", "Anterior third"},
      {Depth::Middle, "middle", "Middle third"},
      {Depth::Posterior, "posterior", "Posterior third"},
  };
  return kEntries;
}

template <>
std::span<const EnumEntry<mammo::Laterality>> enumEntries<mammo::Laterality>() {
  static constexpr EnumEntry<mammo::Laterality> kEntries[] = {
      {mammo::Laterality::Right, "R", "Right breast"},
      {mammo::Laterality::Left, "L", "Left breast"},
  };
  return kEntries;
}

}  // namespace delineate::core::report
