// The mammography report SR's codes. DCM code values and meanings as DCMTK 3.6.7 defines them
// (dcmsr/codes/dcm.h); the others from the DICOM context group named at each table (PS3.16, as
// the DICOM terminology's published value sets list them). Meanings are DICOM's code meanings.
#include "core/report/MammoSrCodes.h"

namespace delineate::core::report::sr {

// ---- Concept names ----

const DSRCodedEntryValue kBreastImagingReport() {
  return code("111400", "DCM", "Breast Imaging Report");
}
const DSRCodedEntryValue kNarrativeSummary() {
  return code("111412", "DCM", "Narrative Summary");
}
const DSRCodedEntryValue kSupplementaryData() {
  return code("111414", "DCM", "Supplementary Data");
}
const DSRCodedEntryValue kOverallAssessment() {
  return code("111413", "DCM", "Overall Assessment");
}
const DSRCodedEntryValue kAssessmentCategory() {
  return code("111005", "DCM", "Assessment Category");
}
// CID 6053 "Breast Imaging Report Element" / CID 6015.
const DSRCodedEntryValue kBreastComposition() {
  return code("129715009", "SCT", "Breast composition");
}
// The concept name of CID 244 values (as in the SR templates' finding-site modifiers).
const DSRCodedEntryValue kLaterality() {
  return code("272741003", "SCT", "Laterality");
}
const DSRCodedEntryValue kClockfaceOrRegion() {
  return code("111014", "DCM", "Clockface or region");
}
const DSRCodedEntryValue kDepth() {
  return code("111020", "DCM", "Depth");
}
// SNOMED CT "Shape (attribute)", the concept name of CID 6004 / 6005 values.
const DSRCodedEntryValue kShape() {
  return code("300842002", "SCT", "Shape");
}
const DSRCodedEntryValue kMargins() {
  return code("111037", "DCM", "Margins");
}
const DSRCodedEntryValue kLesionDensity() {
  return code("111035", "DCM", "Lesion Density");
}
const DSRCodedEntryValue kCalcificationType() {
  return code("111009", "DCM", "Calcification Type");
}
const DSRCodedEntryValue kCalcificationDistribution() {
  return code("111008", "DCM", "Calcification Distribution");
}
const DSRCodedEntryValue kCertaintyOfFinding() {
  return code("111012", "DCM", "Certainty of Finding");
}
const DSRCodedEntryValue kProbabilityOfCancer() {
  return code("111047", "DCM", "Probability of cancer");
}
// CID 6050 "Breast Procedure Reported".
const DSRCodedEntryValue kMammographyCad() {
  return code("111411", "DCM", "Mammography CAD");
}
// TID 4019 "Algorithm Identification".
const DSRCodedEntryValue kAlgorithmName() {
  return code("111001", "DCM", "Algorithm Name");
}
// CID 6050 "Breast Procedure Reported" (replaces the retired (111409, DCM, "Digital
// Mammography")).
const DSRCodedEntryValue kBreastFfdMammogram() {
  return code("46342-2", "LN", "breast ffd mammogram");
}
const DSRCodedEntryValue kNoUnits() {
  return code("1", "UCUM", "no units");
}

// ---- The BI-RADS lexicon ----

// CID 6001 "Overall Breast Composition from BI-RADS".
template <>
std::span<const CodeEntry<BreastComposition>> codeEntries<BreastComposition>() {
  using B = BreastComposition;
  static constexpr CodeEntry<B> kEntries[] = {
      {B::A, "129716005", "SCT", "Almost entirely fat"},
      {B::B, "129717001", "SCT", "Scattered fibroglandular densities"},
      {B::C, "129718006", "SCT", "Heterogeneously dense"},
      {B::D, "129719003", "SCT", "Extremely dense"},
  };
  return kEntries;
}

// CID 6017 "Composite Feature from BI-RADS" (mass, asymmetry), CID 6054 "Breast Imaging
// Finding" (calcifications), CID 6015 "Single Image Finding from BI-RADS" (architectural
// distortion). FindingKind::Other has no code.
template <>
std::span<const CodeEntry<FindingKind>> codeEntries<FindingKind>() {
  using K = FindingKind;
  static constexpr CodeEntry<K> kEntries[] = {
      {K::Mass, "129788004", "SCT", "Mammographic breast mass"},
      {K::Calcification, "309587003", "SCT", "Calcification of breast"},
      {K::Asymmetry, "129790003", "SCT", "Asymmetric breast tissue"},
      {K::ArchitecturalDistortion, "129792006", "SCT", "Architectural distortion of breast"},
  };
  return kEntries;
}

// CID 6005 "Shape Characteristic from BI-RADS".
template <>
std::span<const CodeEntry<MassShape>> codeEntries<MassShape>() {
  static constexpr CodeEntry<MassShape> kEntries[] = {
      {MassShape::Oval, "84360004", "SCT", "Ovoid shape (Oval)"},
      {MassShape::Round, "42700002", "SCT", "Round shape"},
      {MassShape::Irregular, "49608001", "SCT", "Irregular"},
  };
  return kEntries;
}

// CID 6007 "Margin Characteristic from BI-RADS".
template <>
std::span<const CodeEntry<MassMargin>> codeEntries<MassMargin>() {
  using M = MassMargin;
  static constexpr CodeEntry<M> kEntries[] = {
      {M::Circumscribed, "129738007", "SCT", "Circumscribed lesion"},
      {M::Obscured, "129740002", "SCT", "Obscured lesion"},
      {M::Microlobulated, "129739004", "SCT", "Microlobulated lesion"},
      {M::Indistinct, "129741003", "SCT", "Indistinct lesion"},
      {M::Spiculated, "129742005", "SCT", "Spiculated lesion"},
  };
  return kEntries;
}

// CID 6009 "Density Modifier from BI-RADS".
template <>
std::span<const CodeEntry<MassDensity>> codeEntries<MassDensity>() {
  using D = MassDensity;
  static constexpr CodeEntry<D> kEntries[] = {
      {D::High, "129744006", "SCT", "High density lesion"},
      {D::Equal, "129745007", "SCT", "Equal density (isodense) lesion"},
      {D::Low, "129746008", "SCT", "Low density (not containing fat) lesion"},
      {D::FatContaining, "129747004", "SCT", "Fat containing (radiolucent) lesion"},
  };
  return kEntries;
}

// CID 6011 "Calcification Type from BI-RADS". The 5th edition's "rim" is the earlier "eggshell
// or rim", "coarse heterogeneous" DICOM's "heterogeneous", "fine linear or fine-linear
// branching" DICOM's "fine linear, branching (casting)".
template <>
std::span<const CodeEntry<CalcificationMorphology>> codeEntries<CalcificationMorphology>() {
  using C = CalcificationMorphology;
  static constexpr CodeEntry<C> kEntries[] = {
      {C::Skin, "129757003", "SCT", "Calcified skin of breast"},
      {C::Vascular, "129759000", "SCT", "Vascular calcification"},
      {C::CoarsePopcorn, "129749001", "SCT", "Coarse (popcorn-like) calcification"},
      {C::LargeRodLike, "129752009", "SCT", "Large rod-like calcification"},
      {C::Round, "129756007", "SCT", "Round shaped calcification"},
      {C::Rim, "129751002", "SCT", "Eggshell calcification"},
      {C::Dystrophic, "129750001", "SCT", "Dystrophic calcification"},
      {C::MilkOfCalcium, "129753004", "SCT", "Milk of calcium calcification"},
      {C::Suture, "129758008", "SCT", "Calcified suture material"},
      {C::Amorphous, "129760005", "SCT", "Amorphous calcification"},
      {C::CoarseHeterogeneous, "129763007", "SCT", "Heterogeneous calcification"},
      {C::FinePleomorphic, "111344", "DCM", "Fine pleomorphic calcification"},
      {C::FineLinearBranching, "129762002", "SCT",
       "Fine linear, branching (casting) calcification"},
  };
  return kEntries;
}

// CID 6013 "Calcification Distribution Modifier from BI-RADS".
template <>
std::span<const CodeEntry<CalcificationDistribution>> codeEntries<CalcificationDistribution>() {
  using D = CalcificationDistribution;
  static constexpr CodeEntry<D> kEntries[] = {
      {D::Diffuse, "129764001", "SCT", "Diffuse calcification distribution"},
      {D::Regional, "129767008", "SCT", "Regional calcification distribution"},
      {D::Grouped, "129766004", "SCT", "Grouped calcification distribution"},
      {D::Linear, "129765000", "SCT", "Linear calcification distribution"},
      {D::Segmental, "129768003", "SCT", "Segmental calcification distribution"},
  };
  return kEntries;
}

// CID 6027 "Assessment from BI-RADS" (in CID 6026 "Mammography Assessment"); category 6 is the
// BI-RADS code (BI designator) DICOM lists.
template <>
std::span<const CodeEntry<AssessmentCategory>> codeEntries<AssessmentCategory>() {
  using A = AssessmentCategory;
  static constexpr CodeEntry<A> kEntries[] = {
      {A::Incomplete, "397138000", "SCT",
       "0 - Incomplete - Need additional imaging evaluation +/- priors"},
      {A::Negative, "397140005", "SCT", "1 - Negative"},
      {A::Benign, "397141009", "SCT", "2 - Benign"},
      {A::ProbablyBenign, "397143007", "SCT", "3 - Probably Benign"},
      {A::Suspicious, "397144001", "SCT", "4 - Suspicious"},
      {A::HighlySuggestive, "397145000", "SCT", "5 - Highly suggestive of malignancy"},
      {A::KnownMalignancy, "MA.II.A.5.6", "BI", "6 - Known biopsy proven malignancy"},
  };
  return kEntries;
}

// CID 6025 "Depth from BI-RADS".
template <>
std::span<const CodeEntry<Depth>> codeEntries<Depth>() {
  static constexpr CodeEntry<Depth> kEntries[] = {
      {Depth::Anterior, "255549009", "SCT", "Anterior"},
      {Depth::Middle, "C25569", "NCIt", "Middle"},
      {Depth::Posterior, "255551008", "SCT", "Posterior"},
  };
  return kEntries;
}

// CID 244 "Laterality".
template <>
std::span<const CodeEntry<mammo::Laterality>> codeEntries<mammo::Laterality>() {
  static constexpr CodeEntry<mammo::Laterality> kEntries[] = {
      {mammo::Laterality::Right, "24028007", "SCT", "Right"},
      {mammo::Laterality::Left, "7771000", "SCT", "Left"},
  };
  return kEntries;
}

// CID 6019 "Clockface Location or Region from BI-RADS".
template <>
std::span<const CodeEntry<int>> codeEntries<int>() {
  static constexpr CodeEntry<int> kEntries[] = {
      {1, "129772004", "SCT", "1 o'clock position"},
      {2, "129773009", "SCT", "2 o'clock position"},
      {3, "129774003", "SCT", "3 o'clock position"},
      {4, "129775002", "SCT", "4 o'clock position"},
      {5, "129776001", "SCT", "5 o'clock position"},
      {6, "129777005", "SCT", "6 o'clock position"},
      {7, "129778000", "SCT", "7 o'clock position"},
      {8, "129779008", "SCT", "8 o'clock position"},
      {9, "129780006", "SCT", "9 o'clock position"},
      {10, "129781005", "SCT", "10 o'clock position"},
      {11, "129782003", "SCT", "11 o'clock position"},
      {12, "129783008", "SCT", "12 o'clock position"},
  };
  return kEntries;
}

}  // namespace delineate::core::report::sr
