#pragma once
// The study/series browser dock: Open folder / Open file buttons, recent paths, and the list of
// series found (a thumbnail, number, modality, description and image count each). Double-click
// (or Enter) on a series asks to load it. Files and folders dropped here are opened.
#include <QImage>
#include <QStringList>
#include <QWidget>
#include <vector>

class QListWidget;
class QListWidgetItem;
class QMenu;
class QToolButton;
class QLabel;

namespace delineate::app {

struct SeriesEntry {
  QString title;     // "Series 3 · CT"
  QString subtitle;  // description
  int images = 0;
};

class SeriesBrowser : public QWidget {
  Q_OBJECT

 public:
  explicit SeriesBrowser(QWidget* parent = nullptr);

  void setSeries(const std::vector<SeriesEntry>& series, const QString& source);
  void setThumbnail(int index, const QImage& thumbnail);
  void setCurrent(int index);
  int seriesCount() const;
  QListWidget* list() const { return list_; }

  void setRecent(const QStringList& paths);

 Q_SIGNALS:
  void openFolderRequested();
  void openFileRequested();
  void openPathRequested(const QString& path);
  void seriesActivated(int index);

 private:
  QListWidget* list_ = nullptr;
  QLabel* source_ = nullptr;
  QToolButton* recent_ = nullptr;
  QMenu* recentMenu_ = nullptr;
};

}  // namespace delineate::app
