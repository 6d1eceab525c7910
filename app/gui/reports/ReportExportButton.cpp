// The report docks' Export menu and its background job.
#include "app/gui/reports/ReportExportButton.h"

#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>
#include <cstdio>

#include "app/gui/shell/JobRunner.h"

namespace delineate::app {

namespace cr = core::report;

namespace {

struct FormatInfo {
  cr::ExportFormat format;
  const char* menu;
  const char* filter;
  const char* suffix;
};

constexpr FormatInfo kFormats[] = {
    {cr::ExportFormat::Sr, QT_TRANSLATE_NOOP("ReportExportButton", "DICOM SR…"),
     "DICOM structured report (*.dcm)", ".dcm"},
    {cr::ExportFormat::Pdf, QT_TRANSLATE_NOOP("ReportExportButton", "PDF…"), "PDF document (*.pdf)",
     ".pdf"},
    {cr::ExportFormat::Json, QT_TRANSLATE_NOOP("ReportExportButton", "JSON…"),
     "Report file (*.json)", ".json"},
};

}  // namespace

ReportExportButton::ReportExportButton(SourceFn source, bool interactive, QWidget* parent)
    : QPushButton(tr("Export…"), parent),
      jobs_(new JobRunner(this)),
      source_(std::move(source)),
      interactive_(interactive) {
  setObjectName(QStringLiteral("reportExport"));
  setToolTip(tr("Write the report as a DICOM structured report, a PDF with key images, or JSON"));
  auto* menu = new QMenu(this);
  for (const FormatInfo& f : kFormats) {
    menu->addAction(tr(f.menu), this, [this, format = f.format] { chooseAndExport(format); });
  }
  setMenu(menu);
}

void ReportExportButton::chooseAndExport(cr::ExportFormat format) {
  const FormatInfo* info = nullptr;
  for (const FormatInfo& f : kFormats) {
    info = f.format == format ? &f : info;
  }
  QString file = QFileDialog::getSaveFileName(this, tr("Export the report"), {},
                                              QString::fromUtf8(info->filter));
  if (file.isEmpty()) {
    return;
  }
  if (!file.endsWith(QString::fromUtf8(info->suffix), Qt::CaseInsensitive)) {
    file += QString::fromUtf8(info->suffix);
  }
  exportTo(format, file);
}

bool ReportExportButton::exportTo(cr::ExportFormat format, const QString& file) {
  QString whyNot;
  std::optional<ReportExportSource> source = source_(whyNot);
  if (!source) {
    reportError(whyNot);
    return false;
  }
  auto shared = std::make_shared<const ReportExportSource>(std::move(*source));
  const std::filesystem::path out = file.toStdString();
  jobs_->run<cr::ExportResult>(
      tr("Exporting the report"),
      [shared, format, out](core::ProgressSink& progress) {
        cr::LoadedReportInputs inputs;
        inputs.image = shared->image.get();
        inputs.labels = shared->labels.get();
        inputs.views = shared->views;
        inputs.findings = shared->findings ? &*shared->findings : nullptr;
        return cr::exportLoadedReport(shared->report, format, out, inputs, progress);
      },
      [this, file](cr::ExportResult result) {
        QStringList notes;
        for (const std::string& n : result.notes) {
          notes << QString::fromStdString(n);
        }
        Q_EMIT exported(file, notes, {});
      },
      [this, file](const QString& error, bool cancelled) {
        const QString message =
            cancelled ? tr("Export cancelled; %1 was not written.").arg(file) : error;
        if (!cancelled) {
          reportError(tr("Cannot export the report:\n%1").arg(error));
        }
        Q_EMIT exported(file, {}, message);
      });
  return true;
}

void ReportExportButton::reportError(const QString& message) {
  if (interactive_) {
    QMessageBox::warning(this, tr("Export"), message);
  } else {
    std::fprintf(stderr, "delineate: %s\n", message.toLocal8Bit().constData());
  }
}

}  // namespace delineate::app
