#pragma once
// The priors of a mammography study opened from the PACS: searches the node the study came from
// for the same patient's earlier studies of the hanging protocols' prior rule (modality, window of
// months), retrieves the latest ones into the study cache (what is there already costs no
// network) and hands their folders on, so that the reading view hangs them beside the current
// study. A study opened from the cache finds its priors in the cache. One fetch at a time, with
// progress and Cancel; a new one cancels the one under way.
#include <QObject>
#include <QString>
#include <QStringList>
#include <optional>

#include "core/dicomweb/PacsService.h"
#include "core/mammo/PriorRule.h"
#include "core/pacs/DicomNode.h"
#include "core/pacs/StudyRecords.h"

namespace delineate::app {

class JobRunner;

class PriorFetcher : public QObject {
  Q_OBJECT

 public:
  // `cacheRoot`: the study cache's folder.
  PriorFetcher(QString cacheRoot, QObject* parent = nullptr);

  // From `node` (nullopt: the study cache only).
  void fetch(const std::optional<core::pacs::DicomNode>& node, const core::pacs::PacsAccess& access,
             const core::pacs::StudyRecord& current, const core::mammo::PriorRule& rule);
  JobRunner* jobs() const { return jobs_; }

 Q_SIGNALS:
  // The priors of `currentStudyUid` now complete in the cache, latest first (empty: none found).
  // `message` says what was found and fetched.
  void priorsReady(const QString& currentStudyUid, const QStringList& folders,
                   const QString& message);
  void failed(const QString& message);

 private:
  QString cacheRoot_;
  JobRunner* jobs_;
};

}  // namespace delineate::app
