#pragma once
// The codes of the measurement report SR (TID 1500 / 1411 / 1419) and small helpers on coded
// entries; sources in SrCodes.cpp (DCM = PS3.16 Annex D, SCT = SNOMED CT as the DICOM templates
// use them). Internal to core/report: only SR writers and readers include it.
#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmsr/dsrcodvl.h>

#include <string>
#include <utility>

#include "core/model/Segment.h"

namespace delineate::core::report::sr {

// DICOM templates named) ----
DSRCodedEntryValue code(const std::string& value, const std::string& scheme,
                        const std::string& meaning);
// TID 1500
const DSRCodedEntryValue kReportTitle();
const DSRCodedEntryValue kLanguage();
const DSRCodedEntryValue kEnglishUs();
const DSRCodedEntryValue kProcedureReported();
const DSRCodedEntryValue kImageLibrary();
const DSRCodedEntryValue kImageLibraryGroup();
const DSRCodedEntryValue kImagingMeasurements();
const DSRCodedEntryValue kQualitativeEvaluations();
// TID 1002 / 1003 / 1004 observer context
const DSRCodedEntryValue kObserverType();
const DSRCodedEntryValue kPerson();
const DSRCodedEntryValue kDevice();
const DSRCodedEntryValue kPersonObserverName();
const DSRCodedEntryValue kDeviceObserverUid();
const DSRCodedEntryValue kDeviceObserverName();
// TID 1411 / 1419
const DSRCodedEntryValue kMeasurementGroup();
const DSRCodedEntryValue kTrackingId();
const DSRCodedEntryValue kTrackingUid();
const DSRCodedEntryValue kFindingCategory();
const DSRCodedEntryValue kFinding();
const DSRCodedEntryValue kReferencedSegment();
const DSRCodedEntryValue kSourceSeriesForSegmentation();
const DSRCodedEntryValue kSourceOfMeasurement();
const DSRCodedEntryValue kTissue();
const DSRCodedEntryValue kVolume();
const DSRCodedEntryValue kDiameter();
const DSRCodedEntryValue kDerivation();
const DSRCodedEntryValue kMean();
const DSRCodedEntryValue kStandardDeviation();
const DSRCodedEntryValue kMaximum();
// Qualitative evaluations
const DSRCodedEntryValue kImpression();
const DSRCodedEntryValue kRecommendation();
const DSRCodedEntryValue kComment();
// UCUM units
const DSRCodedEntryValue kMilliliter();
const DSRCodedEntryValue kMillimeter();
// The intensity measured inside a segment, by modality: CT attenuation in HU (TID 1419 / dcmqi
// use 112031 with a Derivation modifier), MR signal intensity, else a unitless intensity.
std::pair<DSRCodedEntryValue, DSRCodedEntryValue> intensityConcept(const std::string& modality);
// CID 100 "Quantitative Diagnostic Imaging Procedures".
DSRCodedEntryValue procedureFor(const std::string& modality);
bool same(const DSRCodedEntryValue& a, const DSRCodedEntryValue& b);
CodedConcept conceptOf(const DSRCodedEntryValue& c);
DSRCodedEntryValue orTissue(const CodedConcept& c);

}  // namespace delineate::core::report::sr
