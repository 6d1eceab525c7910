#pragma once
// C-FIND (Study Root query/retrieve information model) against a DICOM node: studies matching a
// search, the series of a study, the instances of a series. Results arrive one by one; Cancel
// (and a reached limit) sends C-CANCEL. A refused association or a failure status is an
// Error(Network) naming the node and the status; a search that cannot work is refused before
// connecting, naming the field.
#include <string>
#include <vector>

#include "core/jobs/ProgressSink.h"
#include "core/pacs/DicomNetwork.h"
#include "core/pacs/StudyRecords.h"

namespace delineate::core::pacs {

std::vector<StudyRecord> findStudies(const DicomNode& node, const StudyQuery& query,
                                     const DicomNetworkOptions& options, ProgressSink& progress);

std::vector<SeriesRecord> findSeries(const DicomNode& node, const std::string& studyInstanceUid,
                                     const DicomNetworkOptions& options, ProgressSink& progress);

std::vector<InstanceRecord> findInstances(const DicomNode& node,
                                          const std::string& studyInstanceUid,
                                          const std::string& seriesInstanceUid,
                                          const DicomNetworkOptions& options,
                                          ProgressSink& progress);

}  // namespace delineate::core::pacs
