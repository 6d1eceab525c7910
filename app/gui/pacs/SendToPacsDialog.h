#pragma once
// File > Send to PACS…: sends the open image's DICOM series and/or the active label map as a DICOM
// SEG (written from a copy, so editing goes on) to a DICOM node of Edit > Preferences > DICOM
// nodes, by C-STORE (or STOW-RS to a DICOMweb node) in a job with progress and Cancel. The result
// names the node and every file it refused. To a node marked "De-identify" (a research archive)
// only de-identified copies go (Edit > Preferences > De-identification); the check box shows it. An
// image not read from DICOM has no series to send (and no SEG: a SEG refers to the images it was
// drawn on).
#include <QDialog>
#include <QTemporaryDir>

#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "app/gui/pacs/DicomNodeSettings.h"
#include "app/gui/upload/DeidSettings.h"
#include "core/model/Volume.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;

namespace delineate::core {
class LabelMap;
}

namespace delineate::app {

class EditSession;
class JobProgressWidget;
class JobRunner;

class SendToPacsDialog : public QDialog {
  Q_OBJECT

 public:
  SendToPacsDialog(EditSession* session, QWidget* parent = nullptr);
  ~SendToPacsDialog() override;

  // Reads the nodes from the settings and what can be sent from the session.
  void refresh();
  void send();
  bool busy() const;

  QComboBox* nodeBox() const { return nodes_; }
  QCheckBox* seriesCheck() const { return series_; }
  QCheckBox* segCheck() const { return seg_; }
  // Follows the chosen node's "De-identify"; the user may turn it on for any node.
  QCheckBox* deidentifyCheck() const { return deidentify_; }
  QPushButton* sendButton() const { return send_; }
  QLabel* resultLabel() const { return result_; }
  JobRunner* jobs() const { return jobs_; }

 Q_SIGNALS:
  // Edit > Preferences > DICOM nodes, asked for by the link when no node is set up.
  void nodesWanted();
  void finished(bool ok, const QString& message);

 private:
  void updateButtons();
  void followNode();
  void sendWith(const core::pacs::DicomNode& node, core::pacs::PacsAccess access,
                std::vector<std::filesystem::path> files,
                std::shared_ptr<const core::LabelMap> copy, core::VolumePtr image,
                std::filesystem::path segFile, std::optional<DeidSettings> deid,
                std::filesystem::path work);

  EditSession* session_;
  DicomNodeSettings settings_;
  QComboBox* nodes_;
  QCheckBox* series_;
  QCheckBox* seg_;
  QCheckBox* deidentify_;
  QLabel* result_;
  QPushButton* send_;
  JobRunner* jobs_;
  JobProgressWidget* progress_;
  QTemporaryDir temp_;
  bool pending_ = false;  // waiting for the label map's copy or the node's secret
};

}  // namespace delineate::app
