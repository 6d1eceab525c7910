#include "app/gui/reports/ReportFeature.h"

#include <QAction>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <variant>

#include "app/gui/CommandRegistry.h"
#include "app/gui/editing/EditingFeature.h"
#include "app/gui/mammo/MammoFeature.h"
#include "app/gui/mammo/MammoReportPanel.h"
#include "app/gui/reports/MeasurementReportPanel.h"
#include "app/gui/reports/SrDocumentView.h"
#include "core/Error.h"
#include "core/io/DicomHeader.h"
#include "core/report/ReportFile.h"
#include "core/report/SrDocument.h"

namespace delineate::app {

namespace cr = core::report;

namespace {

constexpr qint64 kMaxReportBytes = 64 * 1024 * 1024;

}  // namespace

ReportFeature::ReportFeature(QMainWindow* window, CommandRegistry* commands,
                             EditingFeature* editing, MammoFeature* mammo, bool interactive)
    : QObject(window),
      window_(window),
      commands_(commands),
      mammo_(mammo),
      interactive_(interactive) {
  panel_ =
      new MeasurementReportPanel(editing->session(), mammo_->reportPanel()->audit(), interactive_);
  dock_ = new QDockWidget(tr("Measurement report"), window_);
  dock_->setObjectName(QStringLiteral("measurementReportDock"));
  dock_->setWidget(panel_);
  window_->addDockWidget(Qt::RightDockWidgetArea, dock_);
  dock_->hide();
  connect(commands_->add(QStringLiteral("report.measurements"), tr("&Measurement report…")),
          &QAction::triggered, this, &ReportFeature::showMeasurementDock);
  connect(commands_->add(QStringLiteral("report.open"), tr("Open &report…")), &QAction::triggered,
          this, [this] {
            const QString f = QFileDialog::getOpenFileName(
                window_, tr("Open a report"), {}, tr("Reports (*.json *.dcm);;All files (*)"));
            if (!f.isEmpty()) {
              openReport(f);
            }
          });
}

ReportFeature::~ReportFeature() {
  delete dock_;  // before the editing session the panel measures
}

void ReportFeature::populateFileMenu(QMenu* file) {
  file->addAction(commands_->action(QStringLiteral("report.open")));
}

void ReportFeature::populateMenu(QMenu* report) {
  report->addAction(commands_->action(QStringLiteral("report.measurements")));
  report->addAction(commands_->action(QStringLiteral("mammo.report")));
  report->addSeparator();
  report->addAction(commands_->action(QStringLiteral("report.open")));
}

void ReportFeature::showMeasurementDock() {
  dock_->show();
  dock_->raise();
  window_->resizeDocks({dock_}, {std::max(440, window_->width() / 3)}, Qt::Horizontal);
}

QString ReportFeature::reportFormat(const QString& path) {
  if (isStructuredReport(path)) {
    return QStringLiteral("dicom-sr");
  }
  if (!path.endsWith(QStringLiteral(".json"), Qt::CaseInsensitive)) {
    return {};
  }
  QFile file(path);
  if (file.size() > kMaxReportBytes || !file.open(QIODevice::ReadOnly)) {
    return {};
  }
  const QByteArray text = file.readAll();
  const auto j = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (j.is_discarded()) {
    // A broken report is still a report: opening it names the line that is wrong.
    const qsizetype at = text.indexOf("\"delineate-report-");
    return at >= 0 && text.indexOf("\"format\"") >= 0 ? QStringLiteral("delineate-report-")
                                                      : QString();
  }
  if (!j.is_object() || !j.contains("format") || !j["format"].is_string()) {
    return {};
  }
  const QString format = QString::fromStdString(j["format"].get<std::string>());
  return format.startsWith(QStringLiteral("delineate-report-")) ? format : QString();
}

SrDocumentView* ReportFeature::structuredReportView() const {
  return srView_;
}

bool ReportFeature::isStructuredReport(const QString& path) {
  const QFileInfo info(path);
  if (!info.isFile() || info.suffix().compare(QStringLiteral("json"), Qt::CaseInsensitive) == 0) {
    return false;
  }
  try {
    return core::readDicomHeader(path.toStdString()).modality == "SR";
  } catch (const core::Error&) {
    return false;  // not DICOM: not for this
  }
}

bool ReportFeature::openStructuredReport(const QString& path) {
  try {
    // A structured report is small (kilobytes): read on the GUI thread.
    const cr::SrDocument document = cr::readSrDocument(path.toStdString());
    auto* view = new SrDocumentView(document, path, window_);
    view->setAttribute(Qt::WA_DeleteOnClose);
    srView_ = view;
    view->show();
    return true;
  } catch (const core::Error& e) {
    reportError(
        tr("Cannot open the structured report %1:\n%2").arg(path, QString::fromUtf8(e.what())));
    return false;
  }
}

bool ReportFeature::openReport(const QString& path) {
  if (isStructuredReport(path)) {
    return openStructuredReport(path);
  }
  QFileInfo info(path);
  if (info.size() > kMaxReportBytes) {
    reportError(tr("Cannot open the report %1:\nthe file is too large for a report").arg(path));
    return false;
  }
  try {
    // A small file: read on the GUI thread. A broken one throws before anything shown changes.
    cr::AnyReport report = cr::readReport(path.toStdString());
    if (auto* measurements = std::get_if<cr::MeasurementReport>(&report)) {
      panel_->setReport(std::move(*measurements));
      showMeasurementDock();
    } else {
      mammo_->reportPanel()->setReport(std::get<cr::MammographyReport>(std::move(report)));
      commands_->action(QStringLiteral("mammo.report"))->trigger();
    }
    return true;
  } catch (const core::Error& e) {
    reportError(tr("Cannot open the report %1:\n%2").arg(path, QString::fromUtf8(e.what())));
    return false;
  }
}

void ReportFeature::reportError(const QString& message) {
  if (interactive_) {
    QMessageBox::warning(window_, tr("Report"), message);
  } else {
    std::fprintf(stderr, "delineate: %s\n", message.toLocal8Bit().constData());
  }
  Q_EMIT failed(message);
}

}  // namespace delineate::app
