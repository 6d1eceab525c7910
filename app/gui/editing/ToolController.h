#pragma once
#include <optional>
#include <utility>
// The editing tools of the app and how they are chosen: one ToolEventRouter for the slice
// views, the tools (brush, eraser, region grow, lasso fill, scissors), their commands
// (tool.navigate, tool.brush, tool.eraser, tool.regionGrow, tool.lasso, tool.scissors, brush
// size) and a tool bar with the brush size and the 3D (ball) brush switch.
#include <QObject>
#include <QString>
#include <QStringList>
#include <map>
#include <memory>

#include "core/model/ImageGeometry.h"

class QAction;
class QActionGroup;
class QCheckBox;
class QDoubleSpinBox;
class QToolBar;

namespace delineate::annotation {
class BrushTool;
class LassoTool;
class RegionGrowTool;
class Tool;
}  // namespace delineate::annotation

namespace delineate::viewers {
class ToolEventRouter;
class ViewLayout;
}  // namespace delineate::viewers

namespace delineate::app {

class CommandRegistry;
class EditJobs;
class EditSession;

class ToolController : public QObject {
  Q_OBJECT

 public:
  ToolController(EditSession* session, EditJobs* jobs, CommandRegistry* commands,
                 viewers::ViewLayout* views, QObject* parent = nullptr);
  ~ToolController() override;

  viewers::ToolEventRouter* router() const { return router_; }
  // "tool.navigate", "tool.brush", ... ; unknown ids are ignored.
  void setTool(const QString& id);
  QString toolId() const;
  annotation::BrushTool* brush() const { return brush_.get(); }
  annotation::BrushTool* eraser() const { return eraser_.get(); }

  double brushRadiusMm() const;
  void setBrushRadiusMm(double radius);
  void setBrushSphere(bool sphere);
  // Paint, erase and fill only where the image value lies in [lo, hi] (ITK-SNAP's "paint within
  // range"); nullopt paints everywhere.
  void setPaintRange(std::optional<std::pair<double, double>> range);
  // A tool bar with the tool commands and the brush options.
  QToolBar* createToolBar(QWidget* parent);
  // A tool from elsewhere (the AI click tools): a checkable command `id` in the tool group that
  // activates `tool` (owned by the caller, which must outlive this controller or remove it).
  QAction* addTool(const QString& id, const QString& text, const QKeySequence& shortcut,
                   const QString& tip, annotation::Tool* tool);

 private:
  void pick(const core::Vec3& world);
  bool allowPress();

  EditSession* session_;
  EditJobs* jobs_;
  CommandRegistry* commands_;
  viewers::ToolEventRouter* router_;
  std::unique_ptr<annotation::BrushTool> brush_;
  std::unique_ptr<annotation::BrushTool> eraser_;
  std::unique_ptr<annotation::RegionGrowTool> grow_;
  std::unique_ptr<annotation::LassoTool> lasso_;
  std::unique_ptr<annotation::LassoTool> scissors_;
  QActionGroup* group_ = nullptr;
  std::map<QString, annotation::Tool*> tools_;  // by command id, the added ones too
  QStringList addedTools_;                      // addTool()'s, in order (the tool bar)
  QDoubleSpinBox* radius_ = nullptr;
  QCheckBox* sphere_ = nullptr;
  QCheckBox* rangeEnabled_ = nullptr;
  QDoubleSpinBox* rangeMin_ = nullptr;
  QDoubleSpinBox* rangeMax_ = nullptr;
  void applyRangeWidgets();
};

}  // namespace delineate::app
