#include "GuiTestSupport.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QThread>
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "viewers/VtkOpenGLWidget.h"

namespace delineate::test {

bool guiAvailable() {
  return qobject_cast<QApplication*>(QCoreApplication::instance()) != nullptr;
}

std::size_t nonZeroVoxels(const core::LabelMap* labels) {
  std::size_t n = 0;
  for (std::size_t i = 0; labels && i < labels->voxelCount(); ++i) {
    n += labels->data()[i] != 0;
  }
  return n;
}

bool waitUntil(const std::function<bool()>& done, int timeoutMs) {
  QElapsedTimer clock;
  clock.start();
  while (!done()) {
    if (clock.elapsed() > timeoutMs) {
      return done();
    }
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(2);
  }
  return true;
}

QImage grabCanvas(viewers::VtkOpenGLWidget* canvas) {
  QImage image = canvas->grabFramebuffer().convertToFormat(QImage::Format_RGB32);
  // For looking at what the tests saw: DELINEATE_TEST_GRABS=folder keeps every grab.
  if (const char* folder = std::getenv("DELINEATE_TEST_GRABS")) {
    static int counter = 0;
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    const QString name = QStringLiteral("%1/%2-%3.png")
                             .arg(QString::fromLocal8Bit(folder))
                             .arg(info != nullptr ? QString::fromLatin1(info->name()) : "grab")
                             .arg(counter++, 3, 10, QLatin1Char('0'));
    image.save(name);
  }
  return image;
}

int grayAt(const QImage& image, const QPointF& logical, qreal dpr) {
  const int x = static_cast<int>(std::floor(logical.x() * dpr));
  const int y = static_cast<int>(std::floor(logical.y() * dpr));
  if (!image.valid(x, y)) {
    return -1;
  }
  return qGray(image.pixel(x, y));
}

double medianGray(const QImage& image, const QPointF& logical, int r, qreal dpr) {
  const int cx = static_cast<int>(std::floor(logical.x() * dpr));
  const int cy = static_cast<int>(std::floor(logical.y() * dpr));
  std::vector<int> values;
  for (int y = cy - r; y <= cy + r; ++y) {
    for (int x = cx - r; x <= cx + r; ++x) {
      if (image.valid(x, y)) {
        values.push_back(qGray(image.pixel(x, y)));
      }
    }
  }
  if (values.empty()) {
    return -1;
  }
  std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
  return values[values.size() / 2];
}

}  // namespace delineate::test
