#pragma once
// AI findings in the mammography reading view: runs the built-in demonstration detector on the
// current study (a job with progress and Cancel), opens and saves findings files, draws each
// image's heatmap and CAD marks in the viewports that show it, steps through the marks (N /
// Shift+N, highest score first) and shows the case score in the findings line — always with the
// source, and for demonstration findings the words "demonstration, not a diagnosis".
// "Find with an AI server model…" asks a detection or classification model of a server connected
// in the AI panel (MONAI Label), one request per image.
// Commands: "mammo.findings.detect", "mammo.findings.server", "mammo.findings.open",
// "mammo.findings.save", "mammo.findings.heatmapFile", "mammo.findings.sendCad",
// "mammo.findings.clear", "mammo.findings.heatmap" (toggle), "mammo.findings.marks" (toggle),
// "mammo.findings.optionalMarks" (toggle: CAD marks whose rendering intent is "presentation
// optional"; "not for presentation" marks are never drawn), "mammo.findings.nextMark",
// "mammo.findings.previousMark". The findings line names what a CAD SR says of its processing (and
// every algorithm it says failed).
#include <QObject>
#include <QString>
#include <filesystem>
#include <optional>
#include <vector>

#include "core/mammo/DemoMammoDetector.h"
#include "core/mammo/HangingAssignment.h"
#include "core/mammo/MammoFindings.h"
#include "core/mammo/ProbabilityImage.h"

class QDockWidget;
class QMainWindow;
class QMenu;

namespace delineate::viewers {
class MammoReadingView;
}

namespace delineate::app {

class AiController;
class CommandRegistry;
class JobRunner;
class MammoFeature;
class MammoFindingsPanel;

class MammoFindingsController : public QObject {
  Q_OBJECT

 public:
  MammoFindingsController(MammoFeature* feature, CommandRegistry* commands, JobRunner* jobs,
                          bool interactive);

  void populateMenu(QMenu* menu);
  // The AI findings list as a dock of `window` (hidden until "mammo.findings.list").
  QDockWidget* createListDock(QMainWindow* window);
  MammoFindingsPanel* panel() const { return panel_; }
  // Shows mark `markIndex` of `imageId` as stepping would, turning optional marks on when it is
  // one of them.
  bool showMark(const std::string& imageId, int markIndex);
  // Runs the demonstration detector on the current study's loaded images.
  void detect();
  // The AI panel's controller, whose connected servers "Find with an AI server model" asks.
  void setAi(AiController* ai) { ai_ = ai; }
  // "<server> · <model>" for every detection or classification model of a connected server.
  QStringList serverModels() const;
  // Asks model `choice` (one of serverModels()) for findings on the current study (a job);
  // without a choice, asks the user (or says that no server offers one).
  void findWithServer(const QString& choice = {});
  bool openFile(const QString& file);
  // A probability map as an image (fractional DICOM SEG, DICOM Parametric Map, NIfTI, NRRD;
  // core/mammo/ProbabilityImage.h), read by a job and shown as the heatmap of the image it names
  // (DICOM), else of `imageTitle` ("R CC"), else of the one current image whose grid it fits (the
  // reader is asked when several fit). It joins the findings shown, or makes findings of its own.
  void openHeatmapFile(const QString& file, const QString& imageTitle = {});
  // Writes the findings as a Mammography CAD SR in the current study and sends it to the DICOM
  // node `nodeLabel` (of Edit > Preferences > DICOM nodes; empty: the only one, else the reader
  // picks), by a job; cadReportSent() when the node stored it.
  void sendCadReport(const QString& nodeLabel = {});
  bool saveFile(const QString& file);
  // Findings name images by path or by SOP Instance UID: they are kept under the image's SOP
  // Instance UID when the study's file is known (canonicalImageId), as the command line and the
  // sample write them, so that reports link to images portably.
  void setFindings(core::mammo::StudyFindings findings);
  void clear();
  // The SOP Instance UID of the study's image that `imageId` names (a path or a UID), else
  // `imageId` itself.
  std::string canonicalImageId(const std::string& imageId) const;
  const std::optional<core::mammo::StudyFindings>& findings() const { return findings_; }
  // Read first, then reveal: while concealed no viewport draws marks or heatmap and the findings
  // line names no AI result (the findings are kept, and a draft can be made from them).
  void setConcealed(bool concealed);
  bool concealed() const { return concealed_; }
  // Hands each viewport of `view` the findings of the image it shows.
  void showOn(viewers::MammoReadingView* view, const core::mammo::Hanging& hanging);
  // Steps to the next (delta 1) or previous mark, highest score first; returns its description.
  QString stepMark(int delta);
  // Makes mark `markIndex` of image `imageId` the current (highlighted) mark, as stepping to it
  // would; false when the findings have no such mark (or are concealed).
  bool highlightMark(const std::string& imageId, int markIndex);
  QString summary() const;
  // Marks drawn only when "Optional CAD marks" is on, while it is off (0 when on).
  int hiddenOptionalMarks() const;

 Q_SIGNALS:
  void cadReportSent(const QString& node);
  void findingsChanged();
  // New findings were set (detector, server, file) or cleared: reports recheck their links.
  void findingsReplaced();

 private:
  struct MarkRef {
    std::size_t image;  // index into findings_->images
    std::size_t mark;
  };
  std::vector<core::mammo::DetectorImage> currentImages() const;
  void rebuildOrder();
  void refresh();
  void refreshPanel();
  // The files of the current study's views (what a CAD SR of the findings refers to).
  std::vector<std::filesystem::path> currentStudyFiles() const;
  // A current mark on a frame of a stack: the viewports showing that stack go to the frame (and
  // the stacks linked to them follow).
  void showCurrentFrame();
  void reportError(const QString& message);
  void placeHeatmap(const QString& file, const core::mammo::ProbabilityImage& map,
                    const QString& imageTitle);

  MammoFeature* feature_;
  CommandRegistry* commands_;
  JobRunner* jobs_;
  AiController* ai_ = nullptr;
  bool interactive_;
  std::optional<core::mammo::StudyFindings> findings_;
  std::vector<MarkRef> order_;
  int current_ = -1;
  bool concealed_ = false;
  QString cadSent_;
  MammoFindingsPanel* panel_ = nullptr;
  QDockWidget* listDock_ = nullptr;
};

}  // namespace delineate::app
