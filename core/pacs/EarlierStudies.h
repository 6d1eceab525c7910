#pragma once
// A patient's earlier studies on a PACS: the priors a mammography hanging compares with, and
// what any series can ask for ("earlier studies of this patient"). The search names the patient
// by ID and asks for one modality and a date range; what comes back is checked again here,
// because a PACS may match loosely (a patient ID with wildcard characters, a node that ignores
// Modalities in Study).
#include <optional>
#include <string>
#include <vector>

#include "core/pacs/StudyRecords.h"

namespace delineate::core::pacs {

// The search for `current`'s earlier studies of `modality` (empty: any) dated in `dateRange`
// (a DICOM range; empty: any day before the current study). nullopt when the study has no
// patient ID to search by.
std::optional<StudyQuery> earlierStudiesQuery(const StudyRecord& current,
                                              const std::string& modality,
                                              const std::string& dateRange = {});

// Of the studies a node answered `query` with, those that are `current`'s earlier studies: the
// same patient ID exactly, another study, a date before the current one's and in the query's
// range, the modality (when the node listed the study's modalities); latest first.
std::vector<StudyRecord> earlierStudies(const StudyRecord& current, const StudyQuery& query,
                                        std::vector<StudyRecord> found);

// Whether a study is a mammography study, to be read in the mammography view with its priors:
// one of its series (or, before they are listed, its modalities) is MG.
bool isMammographyStudy(const StudyRecord& study, const std::vector<SeriesRecord>& series);

}  // namespace delineate::core::pacs
