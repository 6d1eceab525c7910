#include "core/report/KeyImage.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/Error.h"
#include "core/mammo/PyramidDisplayTable.h"
#include "core/mammo/PyramidRenderer.h"

namespace delineate::core::report {

namespace {

using Rgb = std::array<std::uint8_t, 3>;

// 5 x 7 glyphs (one byte per row, bit 4 the leftmost pixel) for finding names.
struct Glyph {
  char c;
  std::array<std::uint8_t, 7> rows;
};
constexpr Glyph kGlyphs[] = {
    {'F', {0x1F, 0x10, 0x10, 0x1E, 0x10, 0x10, 0x10}},
    {'0', {0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E}},
    {'1', {0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E}},
    {'2', {0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F}},
    {'3', {0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E}},
    {'4', {0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02}},
    {'5', {0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E}},
    {'6', {0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E}},
    {'7', {0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08}},
    {'8', {0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E}},
    {'9', {0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C}},
};

const Glyph* glyphOf(char c) {
  for (const Glyph& g : kGlyphs) {
    if (g.c == c) {
      return &g;
    }
  }
  return nullptr;
}

void fill(KeyImage& image, int x0, int y0, int x1, int y1, Rgb color) {  // [x0, x1) x [y0, y1)
  for (int y = std::max(y0, 0); y < std::min(y1, image.height); ++y) {
    for (int x = std::max(x0, 0); x < std::min(x1, image.width); ++x) {
      image.setPixel(x, y, color);
    }
  }
}

// A box outline `t` pixels thick, inside [x0, x1) x [y0, y1).
void drawBox(KeyImage& image, int x0, int y0, int x1, int y1, int t, Rgb color) {
  fill(image, x0, y0, x1, y0 + t, color);
  fill(image, x0, y1 - t, x1, y1, color);
  fill(image, x0, y0, x0 + t, y1, color);
  fill(image, x1 - t, y0, x1, y1, color);
}

int labelWidth(const std::string& text, int scale) {
  return (static_cast<int>(text.size()) * 6 + 1) * scale + 2 * scale;
}
int labelHeight(int scale) {
  return 9 * scale + 2 * scale;
}

// `text` in the 5 x 7 font at `scale`, dark on a `color` plate whose top-left corner is (x, y).
void drawLabel(KeyImage& image, const std::string& text, int x, int y, int scale, Rgb color) {
  fill(image, x, y, x + labelWidth(text, scale), y + labelHeight(scale), color);
  int penX = x + 2 * scale;
  const int penY = y + 2 * scale;
  for (const char c : text) {
    if (const Glyph* g = glyphOf(c)) {
      for (int r = 0; r < 7; ++r) {
        for (int col = 0; col < 5; ++col) {
          if (g->rows[static_cast<std::size_t>(r)] & (0x10 >> col)) {
            fill(image, penX + col * scale, penY + r * scale, penX + (col + 1) * scale,
                 penY + (r + 1) * scale, {0, 0, 0});
          }
        }
      }
    }
    penX += 6 * scale;
  }
}

void requireSize(int maxWidth, int maxHeight, const std::string& what) {
  if (maxWidth <= 0 || maxHeight <= 0) {
    throw Error(ErrorKind::InvalidInput, what,
                "a key image needs a positive size, not " + std::to_string(maxWidth) + " x " +
                    std::to_string(maxHeight));
  }
}

KeyImage blank(int width, int height) {
  KeyImage image;
  image.width = width;
  image.height = height;
  image.rgb.assign(static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 3, 0);
  return image;
}

}  // namespace

std::array<std::uint8_t, 3> KeyImage::pixel(int x, int y) const {
  const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                         static_cast<std::size_t>(x)) *
                        3;
  return {rgb[i], rgb[i + 1], rgb[i + 2]};
}

void KeyImage::setPixel(int x, int y, std::array<std::uint8_t, 3> color) {
  const std::size_t i = (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                         static_cast<std::size_t>(x)) *
                        3;
  rgb[i] = color[0];
  rgb[i + 1] = color[1];
  rgb[i + 2] = color[2];
}

std::array<std::uint8_t, 3> findingColor(int id) {
  static constexpr Rgb kPalette[] = {{255, 64, 64}, {0, 200, 255},  {255, 210, 0},
                                     {60, 230, 60}, {255, 80, 255}, {255, 140, 0}};
  const int n = static_cast<int>(std::size(kPalette));
  return kPalette[((id - 1) % n + n) % n];
}

KeyImage mammographyKeyImage(const MammographyReport& report, const mammo::MammoView& view,
                             const mammo::ImageFindings& marks, const mammo::ImagePyramid& pyramid,
                             const mammo::DisplaySettings& display, int maxWidth, int maxHeight) {
  requireSize(maxWidth, maxHeight, view.id);
  const double columns = static_cast<double>(pyramid.columns());
  const double rows = static_cast<double>(pyramid.rows());
  const double scale = std::min(maxWidth / columns, maxHeight / rows);
  KeyImage image = blank(std::clamp(static_cast<int>(std::lround(columns * scale)), 1, maxWidth),
                         std::clamp(static_cast<int>(std::lround(rows * scale)), 1, maxHeight));
  mammo::ViewTransform transform;
  transform.scale = scale;
  transform.centerColumn = columns / 2;
  transform.centerRow = rows / 2;
  {
    const std::vector<std::uint8_t> table = mammo::pyramidDisplayTable(pyramid, display);
    std::vector<std::uint8_t> grey(static_cast<std::size_t>(image.width) *
                                   static_cast<std::size_t>(image.height));
    mammo::renderPyramid(pyramid, table.data(), transform,
                         {grey.data(), image.width, image.height, image.width});
    for (std::size_t i = 0; i < grey.size(); ++i) {
      image.rgb[3 * i] = image.rgb[3 * i + 1] = image.rgb[3 * i + 2] = grey[i];
    }
  }
  const int thickness = std::max(2, image.width / 200);
  const int textScale = std::max(2, image.width / 160);
  std::string caption;
  for (const MammoFinding& f : report.content().findings) {
    if (f.link.kind != ReportLink::Kind::CadMark || f.link.broken || f.link.imageId != view.id ||
        f.link.markIndex < 0 || f.link.markIndex >= static_cast<int>(marks.marks.size())) {
      continue;
    }
    const mammo::FindingMark& m = marks.marks[static_cast<std::size_t>(f.link.markIndex)];
    auto [ax, ay] = transform.toScreen(m.x0, m.y0, image.width, image.height);
    auto [bx, by] = transform.toScreen(m.x1, m.y1, image.width, image.height);
    auto [cx, cy] = transform.toScreen(m.column, m.row, image.width, image.height);
    // A box at least 16 pixels wide, so that a point mark stays visible.
    const double half = 8 + thickness;
    ax = std::min({ax, bx, cx - half}), bx = std::max({bx, cx + half});
    ay = std::min({ay, by, cy - half}), by = std::max({by, cy + half});
    const int x0 = static_cast<int>(std::floor(ax)) - thickness;
    const int y0 = static_cast<int>(std::floor(ay)) - thickness;
    const int x1 = static_cast<int>(std::ceil(bx)) + thickness;
    const int y1 = static_cast<int>(std::ceil(by)) + thickness;
    const Rgb color = findingColor(f.id);
    drawBox(image, x0, y0, x1, y1, thickness, color);
    const std::string name = findingName(f.id);
    const int lw = labelWidth(name, textScale), lh = labelHeight(textScale);
    const int lx = std::clamp(x0, 0, std::max(0, image.width - lw));
    const int ly = y0 - lh >= 0 ? y0 - lh : std::min(y1, image.height - lh);
    drawLabel(image, name, lx, ly, textScale, color);
    caption += (caption.empty() ? "" : ", ") + name + " " +
               (f.kind.value() ? std::string(nameOf(*f.kind.value())) : std::string("finding"));
  }
  image.caption = std::string(mammo::toString(view.laterality)) + " " + mammo::toString(view.view) +
                  ": " + (caption.empty() ? "no findings" : caption);
  return image;
}

namespace {

// How the slice is laid out on the key image: the slice axis, and for the image's columns and
// rows the index axis and whether it runs backwards.
struct SliceLayout {
  int slice = 2;
  int horizontal = 0, vertical = 1;
  bool flipHorizontal = false, flipVertical = false;
};

SliceLayout axialLayout(const ImageGeometry& g) {
  SliceLayout s;
  double best = -1;
  for (int a = 0; a < 3; ++a) {  // the axis nearest S/I (LPS z)
    if (std::abs(g.direction[static_cast<std::size_t>(6 + a)]) > best) {
      best = std::abs(g.direction[static_cast<std::size_t>(6 + a)]);
      s.slice = a;
    }
  }
  const int u = s.slice == 0 ? 1 : 0;
  const int v = s.slice == 2 ? 1 : 2;
  // The axis nearer LPS x runs across (patient right on the left: +x to the right), the other
  // down (anterior at the top: +y downward).
  const bool uAcross = std::abs(g.direction[static_cast<std::size_t>(u)]) >=
                       std::abs(g.direction[static_cast<std::size_t>(v)]);
  s.horizontal = uAcross ? u : v;
  s.vertical = uAcross ? v : u;
  s.flipHorizontal = g.direction[static_cast<std::size_t>(s.horizontal)] < 0;
  s.flipVertical = g.direction[static_cast<std::size_t>(3 + s.vertical)] < 0;
  return s;
}

}  // namespace

KeyImage measurementKeyImage(const MeasurementRow& row, const LabelMap& labels, const Volume& image,
                             int maxWidth, int maxHeight) {
  requireSize(maxWidth, maxHeight, labels.name());
  const ImageGeometry& g = labels.geometry();
  if (!g.sameGrid(image.geometry())) {
    throw Error(ErrorKind::InvalidInput, labels.name(),
                "the label map is not on the image's grid: " + g.differenceFrom(image.geometry()));
  }
  const SliceLayout layout = axialLayout(g);
  const auto axis = [](int a) { return static_cast<std::size_t>(a); };
  const std::size_t slices = g.size[axis(layout.slice)];
  // The cross-section of the segment on each slice.
  std::vector<std::size_t> counts(slices, 0);
  const std::uint16_t* voxels = labels.data();
  for (std::size_t k = 0, n = 0; k < g.size[2]; ++k) {
    for (std::size_t j = 0; j < g.size[1]; ++j) {
      for (std::size_t i = 0; i < g.size[0]; ++i, ++n) {
        if (voxels[n] == row.label) {
          ++counts[layout.slice == 0 ? i : layout.slice == 1 ? j : k];
        }
      }
    }
  }
  const auto largest = std::max_element(counts.begin(), counts.end());
  if (largest == counts.end() || *largest == 0) {
    throw Error(ErrorKind::InvalidInput, labels.name(),
                "segment \"" + row.name + "\" (label " + std::to_string(row.label) +
                    ") has no voxels for a key image");
  }
  const std::size_t slice = static_cast<std::size_t>(largest - counts.begin());

  const std::size_t across = g.size[axis(layout.horizontal)];
  const std::size_t down = g.size[axis(layout.vertical)];
  const double widthMm = static_cast<double>(across) * g.spacing[axis(layout.horizontal)];
  const double heightMm = static_cast<double>(down) * g.spacing[axis(layout.vertical)];
  const double scale = std::min(maxWidth / widthMm, maxHeight / heightMm);  // pixels per mm
  KeyImage key = blank(std::clamp(static_cast<int>(std::lround(widthMm * scale)), 1, maxWidth),
                       std::clamp(static_cast<int>(std::lround(heightMm * scale)), 1, maxHeight));

  // The index of a voxel from (column, row) indices of the slice.
  const auto index = [&](std::size_t c, std::size_t r) {
    std::array<std::size_t, 3> ijk{};
    ijk[axis(layout.slice)] = slice;
    ijk[axis(layout.horizontal)] = layout.flipHorizontal ? across - 1 - c : c;
    ijk[axis(layout.vertical)] = layout.flipVertical ? down - 1 - r : r;
    return ijk;
  };
  // Window: the image's first window, else the 1st..99th percentile of the slice.
  double low = 0, high = 1;
  if (!image.info().windows.empty() && image.info().windows.front().width > 0) {
    low = image.info().windows.front().center - image.info().windows.front().width / 2;
    high = low + image.info().windows.front().width;
  } else {
    std::vector<double> values;
    values.reserve(across * down);
    for (std::size_t r = 0; r < down; ++r) {
      for (std::size_t c = 0; c < across; ++c) {
        const auto ijk = index(c, r);
        values.push_back(image.valueAt(ijk[0], ijk[1], ijk[2]));
      }
    }
    const auto at = [&](double q) {
      auto it = values.begin() + static_cast<std::ptrdiff_t>(q * double(values.size() - 1));
      std::nth_element(values.begin(), it, values.end());
      return *it;
    };
    low = at(0.01);
    high = std::max(at(0.99), low + 1e-6);
  }

  // Sample: bilinear for the image, nearest for the segment's mask.
  std::vector<std::uint8_t> mask(static_cast<std::size_t>(key.width) *
                                 static_cast<std::size_t>(key.height));
  for (int y = 0; y < key.height; ++y) {
    const double fr = (y + 0.5) / key.height * static_cast<double>(down) - 0.5;
    const std::size_t r0 =
        static_cast<std::size_t>(std::clamp(std::floor(fr), 0.0, double(down - 1)));
    const std::size_t r1 = std::min(r0 + 1, down - 1);
    const double wr = std::clamp(fr - static_cast<double>(r0), 0.0, 1.0);
    const std::size_t rn = std::min(static_cast<std::size_t>(std::max(fr + 0.5, 0.0)), down - 1);
    for (int x = 0; x < key.width; ++x) {
      const double fc = (x + 0.5) / key.width * static_cast<double>(across) - 0.5;
      const std::size_t c0 =
          static_cast<std::size_t>(std::clamp(std::floor(fc), 0.0, double(across - 1)));
      const std::size_t c1 = std::min(c0 + 1, across - 1);
      const double wc = std::clamp(fc - static_cast<double>(c0), 0.0, 1.0);
      const auto value = [&](std::size_t c, std::size_t r) {
        const auto ijk = index(c, r);
        return image.valueAt(ijk[0], ijk[1], ijk[2]);
      };
      const double v = (1 - wr) * ((1 - wc) * value(c0, r0) + wc * value(c1, r0)) +
                       wr * ((1 - wc) * value(c0, r1) + wc * value(c1, r1));
      const auto grey = static_cast<std::uint8_t>(
          std::lround(std::clamp((v - low) / (high - low), 0.0, 1.0) * 255));
      key.setPixel(x, y, {grey, grey, grey});
      const std::size_t cn =
          std::min(static_cast<std::size_t>(std::max(fc + 0.5, 0.0)), across - 1);
      const auto ijk = index(cn, rn);
      mask[static_cast<std::size_t>(y) * static_cast<std::size_t>(key.width) +
           static_cast<std::size_t>(x)] = labels.at(ijk[0], ijk[1], ijk[2]) == row.label;
    }
  }
  // The outline: mask pixels with a pixel outside the mask within `radius`.
  const Segment* segment = labels.segment(row.label);
  const Rgb color = segment ? segment->color : Rgb{255, 255, 0};
  const int radius = std::max(1, key.width / 200);
  const auto inside = [&](int x, int y) {
    return x >= 0 && y >= 0 && x < key.width && y < key.height &&
           mask[static_cast<std::size_t>(y) * static_cast<std::size_t>(key.width) +
                static_cast<std::size_t>(x)];
  };
  for (int y = 0; y < key.height; ++y) {
    for (int x = 0; x < key.width; ++x) {
      if (!inside(x, y)) {
        continue;
      }
      bool edge = false;
      for (int dy = -radius; dy <= radius && !edge; ++dy) {
        for (int dx = -radius; dx <= radius && !edge; ++dx) {
          edge = !inside(x + dx, y + dy);
        }
      }
      if (edge) {
        key.setPixel(x, y, color);
      }
    }
  }
  const double areaMm2 = static_cast<double>(*largest) * g.spacing[axis(layout.horizontal)] *
                         g.spacing[axis(layout.vertical)];
  char area[32];
  std::snprintf(area, sizeof area, "%.0f", areaMm2);
  key.caption = (row.name.empty() ? "Segment " + std::to_string(row.label) : row.name) +
                ": axial slice " + std::to_string(slice + 1) + " of " + std::to_string(slices) +
                " (largest cross-section, " + area + " mm\u00B2)";
  return key;
}

}  // namespace delineate::core::report
