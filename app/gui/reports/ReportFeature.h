#pragma once
// Reports in the workstation window: the measurement report dock of the MR/CT views
// ("Measurement report", MeasurementReportPanel, hidden until asked for) and opening report
// files. Commands: "report.measurements" (shows the dock; Report > Measurement report…),
// "report.open" (File > Open report…). A report file is recognised by its "format" member:
// "delineate-report-mammography" opens in the mammography report dock (the study itself is
// opened separately), "delineate-report-measurements" in the measurement report dock. A file that
// is not JSON, of an unknown format or broken is named with its line in a message, and the
// reports shown stay. A DICOM structured report (ours or another system's) opens read-only in a
// window of its own (SrDocumentView). MainWindow owns one; the docks share the mammography dock's
// audit trail.
#include <QObject>
#include <QPointer>
#include <QString>

class QDockWidget;
class QMainWindow;
class QMenu;

namespace delineate::app {

class CommandRegistry;
class EditingFeature;
class MammoFeature;
class MeasurementReportPanel;
class SrDocumentView;

class ReportFeature : public QObject {
  Q_OBJECT

 public:
  ReportFeature(QMainWindow* window, CommandRegistry* commands, EditingFeature* editing,
                MammoFeature* mammo, bool interactive);
  ~ReportFeature() override;

  void populateFileMenu(QMenu* file);
  void populateMenu(QMenu* report);

  // The "format" member of a report file ("delineate-report-..."; just that prefix for a report
  // that is not valid JSON), "" when `path` is not a JSON report (a quick look: no message).
  // "dicom-sr" for a DICOM structured report (any SR: shown read-only in an SrDocumentView).
  static QString reportFormat(const QString& path);
  // A DICOM file whose Modality is SR.
  static bool isStructuredReport(const QString& path);
  // Opens a report file in its dock. False (with a message naming the file and line) when it
  // cannot be read; the reports shown are kept.
  bool openReport(const QString& path);
  void showMeasurementDock();

  MeasurementReportPanel* measurementPanel() const { return panel_; }
  // The structured report view opened last (null once closed).
  SrDocumentView* structuredReportView() const;
  QDockWidget* measurementDock() const { return dock_; }

 Q_SIGNALS:
  void failed(const QString& message);

 private:
  void reportError(const QString& message);
  bool openStructuredReport(const QString& path);

  QMainWindow* window_;
  CommandRegistry* commands_;
  MammoFeature* mammo_;
  bool interactive_;
  MeasurementReportPanel* panel_;
  QDockWidget* dock_;
  QPointer<SrDocumentView> srView_;
};

}  // namespace delineate::app
