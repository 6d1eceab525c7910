#pragma once
// Keeping a mammography report's links to the CAD marks its findings were drafted from true when
// the findings shown change (the detector run again, another findings file, a server's model).
// A finding's mark is "still there" when the findings hold an image with the link's id and, at
// the link's index, a mark of the same kind (as the AI first proposed it) and the same score as
// the finding's. Otherwise the link is marked broken and the finding keeps its values (location
// and size were computed from the mark when it was there); a broken link whose mark is there
// again is repaired. Findings not linked to a CAD mark are left alone.
#include <functional>
#include <string>
#include <vector>

#include "core/mammo/MammoFindings.h"
#include "core/report/AuditEntry.h"
#include "core/report/MammographyReport.h"

namespace delineate::core::report {

// Returns the audit of what changed ("edit" of "findings/F<id>/link"), empty when nothing did.
// A signed report is a record: it is left as it is (empty result). Images are named by path or
// by SOP Instance UID: `canonical` (when given) maps both the links' and the findings' image ids
// to one name before they are compared.
using ImageIdMap = std::function<std::string(const std::string&)>;
std::vector<AuditEntry> updateMarkLinks(MammographyReport& report,
                                        const mammo::StudyFindings& findings,
                                        const std::string& user, const std::string& time,
                                        const ImageIdMap& canonical = {});

}  // namespace delineate::core::report
