#include "core/pacs/DicomAssociation.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcuid.h>
#include <dcmtk/dcmnet/scu.h>

#include <cstdio>

#include "core/Error.h"
#include "core/io/DicomCodecs.h"
#include "core/io/DicomCondition.h"

namespace delineate::core::pacs {

void configureScu(DcmSCU& scu, const DicomNode& node, const DicomNetworkOptions& options) {
  ensureDicomCodecs();  // also quiets DCMTK's log (DELINEATE_DCMTK_LOG): stdout carries JSON
  ensureDicomNetworkDefaults();
  if (auto p = node.problem()) {
    throw Error(ErrorKind::InvalidInput, node.label(), *p);
  }
  if (auto p = aeTitleProblem(options.callingAeTitle)) {
    throw Error(ErrorKind::InvalidInput, node.label(), "our own AE title: " + *p);
  }
  scu.setAETitle(options.callingAeTitle.c_str());
  scu.setPeerHostName(node.host.c_str());
  scu.setPeerPort(static_cast<Uint16>(node.port));
  scu.setPeerAETitle(node.aeTitle.c_str());
  scu.setConnectionTimeout(static_cast<Sint32>(options.connectTimeout.count()));
  scu.setACSETimeout(static_cast<Uint32>(options.responseTimeout.count()));
  scu.setDIMSETimeout(static_cast<Uint32>(options.responseTimeout.count()));
  scu.setDIMSEBlockingMode(DIMSE_NONBLOCKING);
}

void associateScu(DcmSCU& scu, const DicomNode& node, const DicomNetworkOptions& options) {
  checkDicom(scu.initNetwork(), node.label(), "starting the network");
  const OFCondition c = scu.negotiateAssociation();
  if (c.bad()) {
    std::string hint;
    if (c == DUL_ASSOCIATIONREJECTED) {
      hint = " (check the node's AE title, and that it accepts " + options.callingAeTitle +
             " from this computer)";
    } else if (c == NET_EC_NoAcceptablePresentationContexts) {
      hint = " (it accepts none of the kinds of object offered)";
    }
    throw Error(ErrorKind::Network, node.label(),
                std::string("the association was not made: ") + c.text() + hint);
  }
}

void offerUncompressed(DcmSCU& scu, const char* sopClass, const DicomNode& node,
                       const std::string& what) {
  OFList<OFString> syntaxes;
  syntaxes.push_back(UID_LittleEndianExplicitTransferSyntax);
  syntaxes.push_back(UID_LittleEndianImplicitTransferSyntax);
  checkDicom(scu.addPresentationContext(sopClass, syntaxes), node.label(), what);
}

void putQueryKey(DcmDataset& keys, const DcmTagKey& tag, const std::string& value) {
  keys.putAndInsertString(tag, value.c_str());
}

std::string dimseStatusText(std::uint16_t status) {
  char hex[8];
  std::snprintf(hex, sizeof hex, "%04X", status);
  std::string text = std::string("status ") + hex;
  if (status == 0xA801) {
    text += " (the node does not know the move destination)";
  } else if ((status & 0xFF00) == 0xA700) {
    text += " (out of resources: the node's storage is full or it cannot do more)";
  } else if (status == 0xA900) {
    text += " (the query does not match what the node supports)";
  } else if ((status & 0xFF00) == 0xA900 || (status & 0xF000) == 0xC000) {
    text += " (the node cannot process this)";
  } else if (status == 0x0122) {
    text += " (the node does not support this kind of object)";
  } else if (status == 0x0124) {
    text += " (refused: not authorised)";
  } else if (status == 0xFE00) {
    text += " (cancelled)";
  } else if (status == 0xB000) {
    text += " (some sub-operations failed)";
  } else if ((status & 0xF000) == 0xB000) {
    text += " (done with a warning)";
  }
  return text;
}

}  // namespace delineate::core::pacs
