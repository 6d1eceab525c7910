#pragma once
// The codes of the Mammography CAD SR (MammoCadSr.h): concept names of TID 4000-4021 and the
// values of the context groups the reader and writer use. Internal to core/report: only the CAD SR
// writer and reader include it. DCM codes as DCMTK 3.6.7 lists them (dcmsr/codes/dcm.h), SNOMED
// CT codes as PS3.16's context groups list them (CID 6014, 6016, 6017, 6022, 6034, 6042, 6047),
// with the older SNOMED-RT codes that CAD files still carry accepted when reading.
#include <optional>
#include <string>

#include "core/mammo/MammoFindings.h"
#include "core/report/MammoSrCodes.h"  // Certainty of Finding, Probability of cancer, Algorithm Name
#include "core/report/SrCodes.h"

namespace delineate::core::report::sr {

// ---- Concept names ----
const DSRCodedEntryValue kMammographyCadReport();   // 111036, the document title
const DSRCodedEntryValue kCadSummary();             // 111017 CAD Processing and Findings Summary
const DSRCodedEntryValue kIndividualImpression();   // 111034
const DSRCodedEntryValue kRenderingIntent();        // 111056
const DSRCodedEntryValue kSingleImageFinding();     // 111059
const DSRCodedEntryValue kCompositeFeature();       // 111015
const DSRCodedEntryValue kCertaintyOfFeature();     // 111011
const DSRCodedEntryValue kAlgorithmVersion();       // 111003
const DSRCodedEntryValue kCenter();                 // 111010
const DSRCodedEntryValue kOutline();                // 111041
const DSRCodedEntryValue kImpressionDescription();  // 111033
const DSRCodedEntryValue kSelectedRegionDescription();  // 111058
const DSRCodedEntryValue kSummaryOfDetections();        // 111064
const DSRCodedEntryValue kSummaryOfAnalyses();          // 111065
const DSRCodedEntryValue kSuccessfulDetections();       // 111063
const DSRCodedEntryValue kFailedDetections();           // 111025
const DSRCodedEntryValue kFailedAnalyses();             // 111024
const DSRCodedEntryValue kDetectionPerformed();         // 111022
const DSRCodedEntryValue kImageLaterality();            // 111027
const DSRCodedEntryValue kImageView();                  // 111031
const DSRCodedEntryValue kPatientOrientationRow();      // 111044
const DSRCodedEntryValue kPatientOrientationColumn();   // 111043
const DSRCodedEntryValue kStudyDateConcept();           // 111060
const DSRCodedEntryValue kStudyTimeConcept();           // 111061
const DSRCodedEntryValue kHorizontalPixelSpacing();     // 111026
const DSRCodedEntryValue kVerticalPixelSpacing();       // 111066

// ---- Values ----
const DSRCodedEntryValue kPercent();       // UCUM "%"
const DSRCodedEntryValue kSucceeded();     // CID 6042
const DSRCodedEntryValue kNotAttempted();  // CID 6042
// CID 6047: all algorithms succeeded, with or without findings.
const DSRCodedEntryValue kAllSucceeded(bool withFindings);
const DSRCodedEntryValue kRightBreast();  // CID 6022
const DSRCodedEntryValue kLeftBreast();
const DSRCodedEntryValue kSelectedRegion();  // 111099, CID 6014

DSRCodedEntryValue codeOf(mammo::RenderingIntent intent);  // CID 6034
std::optional<mammo::RenderingIntent> renderingIntentOf(const DSRCodedEntryValue& c);

// A single-image finding's code for a mark kind; nullopt for a kind with no code (written as a
// selected region with the kind as its description).
std::optional<DSRCodedEntryValue> findingCodeOf(const std::string& kind);
// The mark kind of a single-image finding or composite feature code (current or legacy codes);
// nullopt for findings that are not marks (breast composition, breast geometry, image quality,
// non-lesion); another code gives its meaning in lower case.
std::optional<std::string> markKindOf(const DSRCodedEntryValue& c);

}  // namespace delineate::core::report::sr
