#include "viewers/PointerInfo.h"

#include <cmath>
#include <sstream>

namespace delineate::viewers {

namespace {

std::string number(double v) {
  if (std::isnan(v)) {
    return "NaN";
  }
  std::ostringstream out;
  out.precision(6);
  out << v;
  return out.str();
}

}  // namespace

std::string PointerInfo::valueText() const {
  if (colour) {
    return "RGB (" + number(rgb[0]) + ", " + number(rgb[1]) + ", " + number(rgb[2]) +
           ")   luminance " + number(value);
  }
  return "value " + number(value);
}

}  // namespace delineate::viewers
