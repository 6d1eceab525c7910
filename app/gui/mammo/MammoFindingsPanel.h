#pragma once
// The AI findings of the reading view as a list (Mammography > AI findings list): one row per
// CAD mark the reader may see (not those the CAD says are not for presentation), with its view,
// kind, score, probability of cancer and whether it is drawn (optional marks are hidden until
// asked). Above it, the findings' source and what the CAD says of its processing. Activating a
// row shows that mark (markActivated).
#include <QWidget>
#include <functional>
#include <optional>
#include <string>

#include "core/mammo/MammoFindings.h"

class QLabel;
class QTableWidget;

namespace delineate::app {

class MammoFindingsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit MammoFindingsPanel(QWidget* parent = nullptr);

  // `viewName` names an image id as the reader knows it ("R CC"); `optionalShown` says whether
  // optional marks are drawn now.
  void show(const std::optional<core::mammo::StudyFindings>& findings,
            const std::function<QString(const std::string&)>& viewName, bool optionalShown,
            bool concealed);
  QTableWidget* table() const { return table_; }
  QLabel* header() const { return header_; }

 Q_SIGNALS:
  void markActivated(const QString& imageId, int markIndex);

 private:
  QLabel* header_;
  QTableWidget* table_;
};

}  // namespace delineate::app
