#pragma once
// A DICOM structured report shown read-only: its header (title, kind, SOP class, patient, study,
// completion, verification, observer), for a report from another system a banner saying that it
// is shown read-only with what could be read (and what is only shown as text), and the content
// tree (concept, value, relationship, value type). Reports this program wrote show the same tree.
#include <QDialog>

#include "core/report/SrDocument.h"

class QLabel;
class QTreeWidget;
class QTreeWidgetItem;

namespace delineate::app {

class SrDocumentView : public QDialog {
  Q_OBJECT

 public:
  SrDocumentView(const core::report::SrDocument& document, const QString& file,
                 QWidget* parent = nullptr);

  QTreeWidget* tree() const { return tree_; }
  QLabel* banner() const { return banner_; }
  QLabel* header() const { return header_; }

 private:
  void addNode(QTreeWidgetItem* parent, const core::report::SrNode& node, int depth);

  QLabel* header_ = nullptr;
  QLabel* banner_ = nullptr;
  QTreeWidget* tree_ = nullptr;
};

}  // namespace delineate::app
