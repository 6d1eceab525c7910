#pragma once
// "Export…" of the report docks: a button with a menu (DICOM SR…, PDF…, JSON…) that asks for the
// file and writes the report shown in a background job with progress and Cancel (jobs(), shown
// by the dock), through core::report::exportLoadedReport: the SR and the PDF's key images come
// from the images the dock's owner has loaded. exported() then gives the file and what was left
// out (e.g. no key images); an error (an image not read from DICOM for an SR, a disk that is
// full) is shown naming the file, and the report stays as it was.
#include <QPushButton>
#include <functional>
#include <memory>
#include <optional>

#include "core/report/ReportExport.h"

namespace delineate::app {

class JobRunner;

// What the dock hands over at the moment of export: the report and the loaded inputs, kept
// alive (shared) for the job; nullopt when there is nothing to export (with a reason).
struct ReportExportSource {
  core::report::AnyReport report;
  core::VolumePtr image;
  std::shared_ptr<const core::LabelMap> labels;
  std::vector<core::mammo::MammoView> views;
  std::optional<core::mammo::StudyFindings> findings;
};

class ReportExportButton : public QPushButton {
  Q_OBJECT

 public:
  using SourceFn = std::function<std::optional<ReportExportSource>(QString& whyNot)>;
  ReportExportButton(SourceFn source, bool interactive, QWidget* parent = nullptr);

  // Its own job runner (an export never cancels the dock's other work): the dock shows it with a
  // JobProgressWidget.
  JobRunner* jobs() const { return jobs_; }

  // Starts writing the report as `format` to `file` (what the menu does after asking for the
  // file). False, with a message, when there is nothing to export.
  bool exportTo(core::report::ExportFormat format, const QString& file);

 Q_SIGNALS:
  // The job finished: the written file and the notes, or the error ("" when it worked).
  void exported(const QString& file, const QStringList& notes, const QString& error);

 private:
  void chooseAndExport(core::report::ExportFormat format);
  void reportError(const QString& message);

  JobRunner* jobs_;
  SourceFn source_;
  bool interactive_;
};

}  // namespace delineate::app
