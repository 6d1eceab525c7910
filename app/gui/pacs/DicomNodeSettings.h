#pragma once
// The DICOM nodes (PACS) of Edit > Preferences > DICOM nodes and this workstation's own calling
// AE title and C-MOVE port, kept in the user's settings ("pacs/nodes" as JSON,
// "pacs/callingAeTitle", "pacs/storagePort", "pacs/cacheLimitGb", "pacs/alwaysListen").
#include <string>
#include <vector>

#include "core/dicomweb/PacsService.h"
#include "core/pacs/DicomNetwork.h"
#include "core/pacs/DicomNode.h"

namespace delineate::app {

struct DicomNodeSettings {
  std::vector<core::pacs::DicomNode> nodes;
  std::string callingAeTitle = "DELINEATE";
  int storagePort = 11112;    // where the Storage SCP listens while a C-MOVE runs
  int cacheLimitGb = 50;      // the study cache is kept under this by removing the least used
  bool alwaysListen = false;  // the Storage SCP listens at storagePort all the time

  static DicomNodeSettings load();  // an unreadable entry is dropped; a bad title: the default
  void save() const;
  core::pacs::DicomNetworkOptions networkOptions() const;
  // How a job reaches a node: the DIMSE options and a DICOMweb node's secret (DicomWebSecrets).
  core::pacs::PacsAccess access(std::string secret) const { return {networkOptions(), secret}; }
};

}  // namespace delineate::app
