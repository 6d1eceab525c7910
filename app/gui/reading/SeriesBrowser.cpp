#include "app/gui/reading/SeriesBrowser.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPixmap>
#include <QToolButton>
#include <QVBoxLayout>

namespace delineate::app {

namespace {
constexpr int kIndexRole = Qt::UserRole + 1;
}

SeriesBrowser::SeriesBrowser(QWidget* parent) : QWidget(parent) {
  auto* openFolder = new QToolButton(this);
  openFolder->setText(tr("Open folder…"));
  openFolder->setToolButtonStyle(Qt::ToolButtonTextOnly);
  connect(openFolder, &QToolButton::clicked, this, &SeriesBrowser::openFolderRequested);
  auto* openFile = new QToolButton(this);
  openFile->setText(tr("Open file…"));
  connect(openFile, &QToolButton::clicked, this, &SeriesBrowser::openFileRequested);
  recent_ = new QToolButton(this);
  recent_->setText(tr("Recent"));
  recent_->setPopupMode(QToolButton::InstantPopup);
  recentMenu_ = new QMenu(recent_);
  recent_->setMenu(recentMenu_);
  recent_->setEnabled(false);

  auto* buttons = new QHBoxLayout;
  buttons->setContentsMargins(0, 0, 0, 0);
  buttons->addWidget(openFolder);
  buttons->addWidget(openFile);
  buttons->addWidget(recent_);
  buttons->addStretch(1);

  source_ = new QLabel(tr("Nothing open. Drop files or folders here."), this);
  source_->setWordWrap(true);
  source_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  // Long paths must not widen the dock; the full path is in the tooltip.
  source_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);

  list_ = new QListWidget(this);
  list_->setObjectName(QStringLiteral("seriesList"));
  list_->setIconSize(QSize(64, 64));
  list_->setUniformItemSizes(true);
  list_->setSpacing(2);
  // Several series may be picked (Ctrl/Shift-click) for the dataset upload; one is shown.
  list_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  connect(list_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
    Q_EMIT seriesActivated(item->data(kIndexRole).toInt());
  });

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(buttons);
  layout->addWidget(source_);
  layout->addWidget(list_, 1);
}

void SeriesBrowser::setSeries(const std::vector<SeriesEntry>& series, const QString& source) {
  list_->clear();
  source_->setText(source);
  source_->setToolTip(source);
  QPixmap blank(64, 64);
  blank.fill(Qt::black);
  for (std::size_t i = 0; i < series.size(); ++i) {
    const SeriesEntry& s = series[i];
    QString text = s.title;
    if (!s.subtitle.isEmpty()) {
      text += QLatin1Char('\n') + s.subtitle;
    }
    text += QLatin1Char('\n') + tr("%n image(s)", nullptr, s.images);
    auto* item = new QListWidgetItem(QIcon(blank), text, list_);
    item->setData(kIndexRole, static_cast<int>(i));
    item->setToolTip(text);
  }
}

void SeriesBrowser::setThumbnail(int index, const QImage& thumbnail) {
  if (QListWidgetItem* item = list_->item(index)) {
    item->setIcon(QIcon(QPixmap::fromImage(thumbnail)));
  }
}

void SeriesBrowser::setCurrent(int index) {
  list_->setCurrentRow(index);
}

int SeriesBrowser::seriesCount() const {
  return list_->count();
}

void SeriesBrowser::setRecent(const QStringList& paths) {
  recentMenu_->clear();
  for (const QString& p : paths) {
    QAction* a =
        recentMenu_->addAction(QFileInfo(p).fileName().isEmpty() ? p : QFileInfo(p).fileName());
    a->setToolTip(p);
    a->setStatusTip(p);
    connect(a, &QAction::triggered, this, [this, p] { Q_EMIT openPathRequested(p); });
  }
  recent_->setEnabled(!paths.isEmpty());
}

}  // namespace delineate::app
