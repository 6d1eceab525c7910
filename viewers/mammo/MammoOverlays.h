#pragma once
// What a mammography viewport draws over the image: AI heatmap and CAD marks, rulers and
// ellipses with their values, the caption and the zoom/window line. Free functions of a painter
// already set up for the widget; the image-to-widget mapping is the viewport's ViewTransform.
#include <QImage>
#include <QPainter>
#include <optional>
#include <utility>
#include <vector>

#include "core/mammo/MammoFindings.h"
#include "core/mammo/ReadingMeasurement.h"
#include "viewers/mammo/MammoImage.h"
#include "viewers/mammo/MammoReadingState.h"

namespace delineate::viewers {

// Image pixels to widget pixels for `t` in a widget of width x height.
QTransform imageToWidget(const core::mammo::ViewTransform& t, int width, int height);

// The heatmap as a translucent image: transparent under `threshold`, then yellow to red.
QImage heatmapImage(const core::mammo::FindingHeatmap& heatmap, double threshold, double opacity);

void drawHeatmap(QPainter& p, const QTransform& toWidget, const core::mammo::FindingHeatmap& h,
                 const QImage& image);
// `current`: index of the mark stepped to in this image's marks, -1 none. Marks whose rendering
// intent is "not for presentation" are never drawn, "optional" ones only with `showOptional`; on
// a stack (`frames`: the first and last frame shown), a mark on a frame only when it is shown.
void drawMarks(QPainter& p, const QTransform& toWidget,
               const std::vector<core::mammo::FindingMark>& marks, int current, const QRect& area,
               bool showOptional, std::optional<std::pair<int, int>> frames = std::nullopt);
void drawMeasurements(QPainter& p, const QTransform& toWidget,
                      const std::vector<core::mammo::ReadingMeasurement>& measurements,
                      const MammoImage& image);
// Caption on the side away from the chest wall, zoom and window at the bottom.
void drawCaption(QPainter& p, const QRect& area, const MammoImage& image, bool wallOnLeft,
                 const QString& zoomText, const QString& windowText, bool preview);

}  // namespace delineate::viewers
