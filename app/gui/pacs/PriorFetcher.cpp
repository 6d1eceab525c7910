#include "app/gui/pacs/PriorFetcher.h"
#include "core/Text.h"

#include "app/gui/shell/JobRunner.h"
#include "core/pacs/EarlierStudies.h"
#include "core/pacs/StudyCache.h"

namespace delineate::app {

namespace {

namespace pacs = core::pacs;

struct FoundPriors {
  std::vector<pacs::StudyRecord> priors;  // fetched, latest first
  std::size_t received = 0;               // instances that came over the network
  bool outsideRule = false;               // none in the rule's window: the latest earlier one
  std::vector<std::string> missing;       // instances the node did not deliver
};

// Earlier studies of `current` by `rule` on the node, or in the cache.
std::vector<pacs::StudyRecord> searchEarlier(const std::optional<pacs::DicomNode>& node,
                                             const pacs::PacsAccess& access,
                                             const pacs::StudyCache& cache,
                                             const pacs::StudyRecord& current,
                                             const std::string& modality, const std::string& range,
                                             core::ProgressSink& progress) {
  if (node) {
    return pacs::findEarlierStudies(*node, current, modality, range, access, progress);
  }
  const auto query = pacs::earlierStudiesQuery(current, modality, range);
  return query ? pacs::earlierStudies(current, *query, cache.records(progress))
               : std::vector<pacs::StudyRecord>{};
}

FoundPriors findAndFetch(const std::optional<pacs::DicomNode>& node, const pacs::PacsAccess& access,
                         const pacs::StudyCache& cache, const pacs::StudyRecord& current,
                         const core::mammo::PriorRule& rule, core::ProgressSink& progress) {
  FoundPriors out;
  core::SubProgress searching(progress, 0, 0.1);
  searching.report(0, "Searching for earlier studies");
  std::vector<pacs::StudyRecord> found = searchEarlier(
      node, access, cache, current, rule.modality, rule.dateRange(current.studyDate), searching);
  if (found.empty() && (rule.minMonthsEarlier > 0 || rule.maxMonthsEarlier > 0)) {
    // None in the window: the latest earlier study, as the hanging then shows it (with a note).
    found = searchEarlier(node, access, cache, current, rule.modality, {}, searching);
    found.resize(std::min<std::size_t>(found.size(), 1));
    out.outsideRule = !found.empty();
  }
  found.resize(std::min<std::size_t>(found.size(), std::size_t(std::max(rule.fetch, 1))));
  for (std::size_t i = 0; i < found.size(); ++i) {
    core::SubProgress one(progress, 0.1 + 0.9 * double(i) / double(found.size()),
                          0.1 + 0.9 * double(i + 1) / double(found.size()));
    const std::string& uid = found[i].studyInstanceUid;
    cache.touch(uid);  // used now: the cache's eviction leaves it alone while it comes
    if (node) {
      const pacs::RetrieveReport r =
          pacs::retrieveStudy(*node, {uid, {}}, cache.studyFolder(uid), access, one);
      out.received += r.received;
      out.missing.insert(out.missing.end(), r.missing.begin(), r.missing.end());
    }
    cache.touch(uid);
  }
  out.priors = std::move(found);
  return out;
}

}  // namespace

PriorFetcher::PriorFetcher(QString cacheRoot, QObject* parent)
    : QObject(parent), cacheRoot_(std::move(cacheRoot)), jobs_(new JobRunner(this)) {}

void PriorFetcher::fetch(const std::optional<pacs::DicomNode>& node, const pacs::PacsAccess& access,
                         const pacs::StudyRecord& current, const core::mammo::PriorRule& rule) {
  const QString currentUid = QString::fromStdString(current.studyInstanceUid);
  if (current.patientId.empty()) {
    Q_EMIT failed(tr("The study has no patient ID: its priors cannot be searched for."));
    return;
  }
  const QString where = node ? QString::fromStdString(node->label()) : tr("the study cache");
  jobs_->run<FoundPriors>(
      tr("Fetching the priors from %1").arg(where),
      [node, access, cache = pacs::StudyCache(cacheRoot_.toStdString()), current,
       rule](core::ProgressSink& progress) {
        return findAndFetch(node, access, cache, current, rule, progress);
      },
      [this, currentUid, where, rule,
       cache = pacs::StudyCache(cacheRoot_.toStdString())](FoundPriors found) {
        QStringList folders, dates;
        for (const pacs::StudyRecord& s : found.priors) {
          folders << QString::fromStdString(cache.studyFolder(s.studyInstanceUid).string());
          dates << QString::fromStdString(core::isoDateOfDicom(s.studyDate));
        }
        QString message = folders.isEmpty() ? tr("No earlier %1 study of this patient on %2.")
                                                  .arg(QString::fromStdString(rule.modality), where)
                                            : tr("Prior(s) of %1 from %2 (%n instance(s) fetched).",
                                                 nullptr, int(found.received))
                                                  .arg(dates.join(QStringLiteral(", ")), where);
        if (found.outsideRule) {
          message += QLatin1Char(' ') + tr("None is %1: the latest earlier one is shown.")
                                            .arg(QString::fromStdString(rule.describe()));
        }
        if (!found.missing.empty()) {
          message += QLatin1Char(' ') +
                     tr("%n instance(s) did not arrive.", nullptr, int(found.missing.size()));
        }
        Q_EMIT priorsReady(currentUid, folders, message);
      },
      [this, where](const QString& error, bool cancelled) {
        Q_EMIT failed(cancelled ? tr("Fetching the priors was cancelled.")
                                : tr("Cannot fetch the priors from %1: %2").arg(where, error));
      });
}

}  // namespace delineate::app
