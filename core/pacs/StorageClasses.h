#pragma once
// What this workstation takes when a node sends it instances (the SCP side of C-GET, and the
// Storage SCP of C-MOVE): the storage classes and, for each, the transfer syntaxes, uncompressed
// first and then the encodings Delineate decodes, so a node can send what it stores as it is.
#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/ofstd/oflist.h>
#include <dcmtk/ofstd/ofstring.h>

#include <string>
#include <vector>

namespace delineate::core::pacs {

// DCMTK's list of the common storage classes and what Delineate reads or writes besides (up to
// 120: a presentation context each, of the 128 an association may hold).
std::vector<std::string> receivableStorageClasses();
OFList<OFString> receivableSyntaxes();

}  // namespace delineate::core::pacs
