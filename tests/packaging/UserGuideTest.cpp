// The user guide (docs/guide/) and its screenshots, taken during the build by `delineate
// --screenshot` from the sample data: every image a page shows was generated, is a picture of
// the window (not blank), and has a copy in the source tree for reading the guide there; every
// relative link of the guide leads to a file that exists.
#include <gtest/gtest.h>

#include <QImage>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>

namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

std::vector<fs::path> pages() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(DELINEATE_GUIDE_SOURCE)) {
    if (e.path().extension() == ".md") {
      out.push_back(e.path());
    }
  }
  return out;
}

TEST(UserGuide, EveryImageAPageShowsWasTakenDuringTheBuildAndShowsTheWindow) {
  const std::regex image(R"(!\[[^\]]*\]\(images/([A-Za-z0-9_-]+\.png)\))");
  std::set<std::string> shown;
  for (const fs::path& page : pages()) {
    const std::string text = read(page);
    for (std::sregex_iterator m(text.begin(), text.end(), image), end; m != end; ++m) {
      shown.insert((*m)[1]);
    }
  }
  ASSERT_GE(shown.size(), 5u) << "the guide is illustrated";
  for (const std::string& name : shown) {
    const fs::path built = fs::path(DELINEATE_GUIDE_IMAGES) / name;
    const QImage png(QString::fromStdString(built.string()));
    ASSERT_FALSE(png.isNull()) << built << " was not generated";
    EXPECT_EQ(png.size(), QSize(1400, 900)) << name;
    std::set<QRgb> colours;
    for (int y = 0; y < png.height(); y += 7) {
      for (int x = 0; x < png.width(); x += 7) {
        colours.insert(png.pixel(x, y));
      }
    }
    EXPECT_GT(colours.size(), 200u) << name << ": an image of the window, not a blank one";
    EXPECT_TRUE(fs::exists(fs::path(DELINEATE_GUIDE_SOURCE) / "images" / name))
        << name << ": run scripts/update-guide-images.sh to copy it into docs/guide/images";
  }
}

TEST(UserGuide, EveryRelativeLinkLeadsToAFile) {
  const std::regex link(R"(\]\(([^)#:\s]+)(#[^)]*)?\))");
  for (const fs::path& page : pages()) {
    const std::string text = read(page);
    for (std::sregex_iterator m(text.begin(), text.end(), link), end; m != end; ++m) {
      const std::string target = (*m)[1];
      if (target.rfind("images/", 0) == 0) {
        continue;  // checked above, against the build
      }
      EXPECT_TRUE(fs::exists(page.parent_path() / target))
          << page.filename() << " links to " << target << ", which does not exist";
    }
  }
}

}  // namespace
