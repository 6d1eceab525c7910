#pragma once
// What every DIMSE exchange with a node starts with (echo, store, find, get): a DcmSCU set up for
// the node with every wait bounded, and an association whose refusal says what to check.
#include <cstdint>
#include <string>

#include "core/pacs/DicomNetwork.h"

class DcmDataset;
class DcmSCU;
class DcmTagKey;

namespace delineate::core::pacs {

// Checks the node and our AE title (Error(InvalidInput) naming the node), then sets peer, AE
// titles and the connect, ACSE and DIMSE timeouts of `options`.
void configureScu(DcmSCU& scu, const DicomNode& node, const DicomNetworkOptions& options);

// initNetwork + negotiateAssociation; a refusal is an Error(Network) naming the node, with a hint
// (the AE titles, or the kinds of object offered).
void associateScu(DcmSCU& scu, const DicomNode& node, const DicomNetworkOptions& options);

// Offers `sopClass` (a query/retrieve model, verification) in uncompressed little endian,
// explicit then implicit VR; an error names the node and `what`.
void offerUncompressed(DcmSCU& scu, const char* sopClass, const DicomNode& node,
                       const std::string& what);

// Sets a key of a C-FIND, C-GET or C-MOVE identifier (an empty value asks for it back).
void putQueryKey(DcmDataset& keys, const DcmTagKey& tag, const std::string& value);

// "status A801" with what PS3.4 says of it for query/retrieve and storage answers.
std::string dimseStatusText(std::uint16_t status);

}  // namespace delineate::core::pacs
