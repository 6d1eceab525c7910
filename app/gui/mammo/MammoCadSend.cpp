// MammoFindingsController: the findings shown, written as a Mammography CAD SR in the current
// study and sent to a DICOM node, so that the PACS keeps them with the images.
#include <unistd.h>
#include <QInputDialog>
#include <QStringList>
#include <atomic>
#include <filesystem>

#include "app/gui/mammo/MammoFindingsController.h"
#include "app/gui/pacs/DicomNodeSettings.h"
#include "app/gui/pacs/DicomWebSecrets.h"
#include "app/gui/shell/JobRunner.h"
#include "core/Error.h"
#include "core/report/MammoCadSr.h"

namespace delineate::app {

namespace cm = core::mammo;

void MammoFindingsController::sendCadReport(const QString& nodeLabel) {
  if (!findings_) {
    reportError(tr("There are no findings to send."));
    return;
  }
  const DicomNodeSettings settings = DicomNodeSettings::load();
  if (settings.nodes.empty()) {
    reportError(tr("No DICOM node is set up: add one in Edit > Preferences > DICOM nodes."));
    return;
  }
  QStringList labels;
  for (const core::pacs::DicomNode& n : settings.nodes) {
    labels << QString::fromStdString(n.label());
  }
  QString chosen = nodeLabel;
  if (chosen.isEmpty()) {
    bool ok = true;
    chosen = labels.size() == 1 || !interactive_
                 ? labels.front()
                 : QInputDialog::getItem(nullptr, tr("Send CAD report"),
                                         tr("Send the findings as a Mammography CAD SR to:"),
                                         labels, 0, false, &ok);
    if (!ok) {
      return;
    }
  }
  const int index = static_cast<int>(labels.indexOf(chosen));
  if (index < 0) {
    reportError(tr("There is no DICOM node \"%1\".").arg(chosen));
    return;
  }
  const core::pacs::DicomNode node = settings.nodes[static_cast<std::size_t>(index)];
  const std::vector<std::filesystem::path> views = currentStudyFiles();
  const cm::StudyFindings findings = *findings_;
  DicomWebSecrets::fetch(
      node, this, [this, node, views, findings, settings](std::string secret, QString problem) {
        if (!problem.isEmpty()) {
          reportError(problem);
          return;
        }
        const core::pacs::PacsAccess access = settings.access(std::move(secret));
        jobs_->run<core::pacs::StoreReport>(
            tr("Sending the CAD report to %1").arg(QString::fromStdString(node.label())),
            [node, views, findings, access](core::ProgressSink& progress) {
              static std::atomic<unsigned> counter{0};
              const std::filesystem::path file = std::filesystem::temp_directory_path() /
                                                 ("delineate-cad-" + std::to_string(::getpid()) +
                                                  "-" + std::to_string(counter++) + ".dcm");
              core::report::writeMammographyCadSr(findings, views, file);
              try {
                core::pacs::StoreReport report =
                    core::pacs::sendFiles(node, {file}, access, progress);
                std::filesystem::remove(file);
                return report;
              } catch (...) {
                std::error_code ignored;
                std::filesystem::remove(file, ignored);
                throw;
              }
            },
            [this, node](core::pacs::StoreReport report) {
              if (report.failedCount() > 0) {
                reportError(tr("%1 refused the CAD report: %2")
                                .arg(QString::fromStdString(node.label()),
                                     QString::fromStdString(report.files.front().message)));
                return;
              }
              cadSent_ = QString::fromStdString(node.label());
              Q_EMIT cadReportSent(cadSent_);
            },
            [this](const QString& error, bool cancelled) {
              if (!cancelled) {
                reportError(tr("The CAD report was not sent:\n%1").arg(error));
              }
            });
      });
}

}  // namespace delineate::app
