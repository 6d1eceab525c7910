#pragma once
// Label maps on disk, from the File menu: New label map, Open label map… (NIfTI / NRRD /
// MetaImage + dcmqi segment JSON; a file on another grid names the exact difference and offers
// nearest-neighbour resampling), Save label map / Save as… (atomic; a failure names the file and
// keeps the session's work), Export DICOM SEG… (images read from DICOM only), Import DICOM SEG….
// Reading and writing run as EditJobs jobs.
#include <QObject>
#include <QString>
#include <QStringList>
#include <functional>
#include <map>

namespace delineate::core {
class LabelMap;
}

namespace delineate::app {

class CommandRegistry;
class EditJobs;
class EditSession;

class LabelFileController : public QObject {
  Q_OBJECT

 public:
  enum class OnGridMismatch { Ask, Resample, Refuse };

  LabelFileController(EditSession* session, EditJobs* jobs, CommandRegistry* commands,
                      bool interactive, std::function<void(const QString&)> showError,
                      QObject* parent = nullptr);

  void openLabelMap(const QString& path, OnGridMismatch onMismatch = OnGridMismatch::Ask);
  // Several files in one job (a server's labels of one image), each on another grid resampled
  // onto the image's; those that cannot be read are named in one message, the others open.
  void openLabelMaps(const QStringList& paths);
  // Saves the active map where it was opened or last saved; asks for a name otherwise.
  bool save();
  bool saveAs();
  bool saveTo(const QString& path);
  void exportDicomSeg(const QString& path);
  void importDicomSeg(const QString& path);
  // Where the active map was opened from or last saved to (empty: never).
  QString savePath() const;
  // The same for any of the session's maps.
  QString pathOf(const core::LabelMap& map) const;
  // Enables the commands that need an image, a label map or a DICOM source.
  void updateEnabled();

 Q_SIGNALS:
  void labelMapOpened();
  void saved(const QString& path, const delineate::core::LabelMap* map);
  void saveFailed(const QString& message);
  void openFailed(const QString& message);

 private:
  void install(std::shared_ptr<core::LabelMap> map, const QString& path);
  void resampleAndInstall(std::shared_ptr<core::LabelMap> map, const QString& path);
  QString suggestedPath(const QString& extension) const;

  EditSession* session_;
  EditJobs* jobs_;
  CommandRegistry* commands_;
  bool interactive_;
  std::function<void(const QString&)> showError_;
  std::map<const core::LabelMap*, QString> paths_;
};

}  // namespace delineate::app
