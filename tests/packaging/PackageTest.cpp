// The Debian package written by `cpack -G DEB` (the packaging.build_deb fixture), checked the way
// an IT department would: its control fields and dependencies (no -dev package; every library a
// program or plugin links comes from a package it depends on; apt can install it here), its
// contents (programs, plugins, desktop entry, icons at every size, AppStream metadata, MIME types,
// documentation), the desktop files against the freedesktop tools, and the programs run from an
// extracted root: versions, the plugins found in the package's own folder, and a screenshot of
// the sample in the real window (Xvfb).
#include <gtest/gtest.h>
#include <unistd.h>

#include <QColor>
#include <QImage>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "RunCommand.h"

namespace fs = std::filesystem;
using delineate::test::runCommand;

namespace {

const std::string kAppId = "org.delineate.Delineate";

std::string shellQuoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out + "'";
}

std::string output(const std::string& command, int* rc = nullptr) {
  std::string text;
  const int status = runCommand(command, &text);
  if (rc != nullptr) {
    *rc = status;
  }
  return text;
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) {
      out.push_back(line);
    }
  }
  return out;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\n");
  const auto e = s.find_last_not_of(" \t\n");
  return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

// "libfoo1 (>= 1.2), qt6-qpa-plugins | other" -> every package name named.
std::set<std::string> dependencyNames(const std::string& depends) {
  std::set<std::string> out;
  std::string item;
  std::istringstream in(depends);
  while (std::getline(in, item, ',')) {
    std::istringstream alternatives(item);
    std::string alt;
    while (std::getline(alternatives, alt, '|')) {
      alt = trim(alt);
      out.insert(alt.substr(0, alt.find_first_of(" (:")));
    }
  }
  return out;
}

class Package : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = new fs::path(fs::temp_directory_path() /
                         ("delineate-package-" + std::to_string(::getpid())));
    fs::remove_all(*root_);
    fs::create_directories(*root_);
    int rc = 0;
    const std::string text = output(
        "dpkg-deb -x " + shellQuoted(DELINEATE_PACKAGE) + " " + shellQuoted(root_->string()), &rc);
    extracted_ = rc == 0;
    if (!extracted_) {
      std::fprintf(stderr, "dpkg-deb -x failed: %s\n", text.c_str());
    }
  }
  static void TearDownTestSuite() {
    std::error_code ec;
    fs::remove_all(*root_, ec);
    delete root_;
  }
  void SetUp() override {
    ASSERT_TRUE(fs::exists(DELINEATE_PACKAGE)) << DELINEATE_PACKAGE << " was not written";
    ASSERT_TRUE(extracted_);
  }

  static std::string field(const std::string& name) {
    return trim(output("dpkg-deb -f " + shellQuoted(DELINEATE_PACKAGE) + " " + name));
  }
  static fs::path root() { return *root_; }
  // The package's programs and plugins (ELF files).
  static std::vector<fs::path> elfFiles() {
    std::vector<fs::path> out;
    for (const fs::path& dir : {root() / "usr/bin", root() / "usr/lib/delineate/plugins"}) {
      for (const auto& entry : fs::directory_iterator(dir)) {
        out.push_back(entry.path());
      }
    }
    return out;
  }

  static fs::path* root_;
  static bool extracted_;
};

fs::path* Package::root_ = nullptr;
bool Package::extracted_ = false;

TEST_F(Package, ControlFieldsNameTheVersionAndOnlyRuntimePackages) {
  EXPECT_EQ(field("Package"), "delineate");
  EXPECT_EQ(field("Version"), DELINEATE_VERSION);
  EXPECT_EQ(field("Architecture"), "amd64");
  EXPECT_EQ(field("Section"), "science");
  const std::string depends = field("Depends");
  const std::set<std::string> names = dependencyNames(depends);
  for (const char* needed :
       {"libqt6widgets6", "libqt6openglwidgets6", "libqt6charts6", "qt6-qpa-plugins", "libqt6svg6",
        "libgl1-mesa-dri", "libdcmtk17", "libcpprest2.10", "libstdc++6", "libc6"}) {
    EXPECT_TRUE(names.count(needed)) << needed << " missing from: " << depends;
  }
  EXPECT_TRUE(std::any_of(names.begin(), names.end(), [](const std::string& n) {
    return n.rfind("libvtk9", 0) == 0;
  })) << depends;
  for (const std::string& n : names) {
    EXPECT_FALSE(n.size() > 4 && n.compare(n.size() - 4, 4, "-dev") == 0)
        << n << ": a development package in Depends";
  }
  EXPECT_GT(std::stoi(field("Installed-Size")), 1000) << "kB";
}

TEST_F(Package, EveryLibraryAProgramOrPluginLinksComesFromAPackageItDependsOn) {
  const std::set<std::string> names = dependencyNames(field("Depends"));
  const std::vector<fs::path> elves = elfFiles();
  ASSERT_GE(elves.size(), 6u) << "3 programs and 3 plugins";
  struct Link {
    std::string elf, soname, path;
  };
  std::vector<Link> links;
  for (const fs::path& elf : elves) {
    const std::string ldd = output("ldd " + shellQuoted(elf.string()));
    EXPECT_EQ(ldd.find("not found"), std::string::npos) << elf << ":\n" << ldd;
    std::map<std::string, std::string> resolved;  // soname -> path
    const std::regex line(R"(^\s*(\S+) => (\S+) \()");
    const std::regex loader(R"(^\s*(/\S+) \()");  // the dynamic loader: its path only
    for (const std::string& l : lines(ldd)) {
      std::smatch m;
      if (std::regex_search(l, m, line)) {
        resolved[m[1]] = m[2];
      } else if (std::regex_search(l, m, loader)) {
        resolved[fs::path(m[1].str()).filename().string()] = m[1];
      }
    }
    for (const std::string& l : lines(output("objdump -p " + shellQuoted(elf.string())))) {
      std::istringstream words(l);
      std::string tag, soname;
      if ((words >> tag >> soname) && tag == "NEEDED") {
        ASSERT_TRUE(resolved.count(soname)) << elf.filename() << ": " << soname << " not resolved";
        links.push_back({elf.filename().string(), soname, resolved[soname]});
      }
    }
  }
  // The names dpkg may know a library by: as the loader found it, resolved, and with or without
  // the /usr prefix (Debian 12 merges /lib into /usr/lib; packages name either).
  auto aliases = [](const std::string& path) {
    std::set<std::string> out{path, fs::canonical(path).string()};
    for (std::string p : std::set<std::string>(out)) {
      out.insert(p.rfind("/usr/", 0) == 0 ? p.substr(4) : "/usr" + p);
    }
    return out;
  };
  // One dpkg query for every library: "package:arch: /path" per line.
  std::string paths;
  for (const Link& l : links) {
    for (const std::string& a : aliases(l.path)) {
      paths += " " + shellQuoted(a);
    }
  }
  std::map<std::string, std::string> owner;  // path -> package
  for (const std::string& l : lines(output("dpkg -S" + paths + " 2>/dev/null"))) {
    const auto colon = l.find(": /");
    if (colon != std::string::npos) {
      owner[l.substr(colon + 2)] = l.substr(0, l.find_first_of(":,"));
    }
  }
  for (const Link& l : links) {
    std::string package;
    for (const std::string& a : aliases(l.path)) {
      package = owner.count(a) ? owner[a] : package;
    }
    ASSERT_FALSE(package.empty()) << l.path << ": dpkg knows no package of it";
    EXPECT_TRUE(names.count(package)) << l.elf << " links " << l.soname << " from " << package
                                      << ", which the package does not depend on";
  }
}

TEST_F(Package, AptCanInstallItOnThisDebian) {
  if (runCommand("command -v apt-get >/dev/null") != 0) {
    GTEST_SKIP() << "no apt-get";
  }
  int rc = 0;
  const std::string text = output("apt-get -s -q install " + shellQuoted(DELINEATE_PACKAGE), &rc);
  EXPECT_EQ(rc, 0) << text;
  EXPECT_NE(text.find("Inst delineate"), std::string::npos) << text;
}

TEST_F(Package, HoldsTheProgramsPluginsDesktopEntryIconsMetadataMimeTypesAndDocs) {
  for (const std::string& path : std::vector<std::string>{
           "usr/bin/delineate", "usr/bin/delineate-cli", "usr/bin/delineate-server",
           "usr/lib/delineate/plugins/libdelineate_plugin_builtin.so",
           "usr/lib/delineate/plugins/libdelineate_plugin_monai.so",
           "usr/lib/delineate/plugins/libdelineate_plugin_clara.so",
           "usr/share/applications/" + kAppId + ".desktop",
           "usr/share/metainfo/" + kAppId + ".metainfo.xml",
           "usr/share/mime/packages/delineate.xml",
           "usr/share/icons/hicolor/scalable/apps/" + kAppId + ".svg",
           "usr/share/doc/delineate/README.md", "usr/share/doc/delineate/copyright",
           "usr/share/doc/delineate/retraining.md", "usr/share/doc/delineate/guide/README.md",
           "usr/share/doc/delineate/guide/images/quickstart.png",
           "usr/share/doc/delineate/guide/images/annotating-ai-box.png"}) {
    EXPECT_TRUE(fs::exists(root() / path)) << path;
  }
  EXPECT_FALSE(fs::exists(root() / "usr/lib/delineate/plugins/libdelineate_test_plugin_echo.so"))
      << "test plugins stay out of the package";
  for (int size : {16, 22, 24, 32, 48, 64, 128, 256, 512}) {
    const fs::path png = root() / "usr/share/icons/hicolor" /
                         (std::to_string(size) + "x" + std::to_string(size)) / "apps" /
                         (kAppId + ".png");
    const QImage icon(QString::fromStdString(png.string()));
    ASSERT_FALSE(icon.isNull()) << png;
    EXPECT_EQ(icon.width(), size);
    EXPECT_EQ(icon.height(), size);
    EXPECT_EQ(qAlpha(icon.pixel(0, 0)), 0) << "a transparent corner";
    EXPECT_EQ(qAlpha(icon.pixel(size / 2, size / 2)), 255) << "an opaque middle";
  }
  for (const fs::path& elf : elfFiles()) {
    EXPECT_EQ(output("file -b " + shellQuoted(elf.string())).find("not stripped"),
              std::string::npos)
        << elf << " is stripped";
  }
}

TEST_F(Package, TheDesktopEntryAndAppStreamMetadataValidate) {
  const fs::path desktop = root() / "usr/share/applications" / (kAppId + ".desktop");
  if (runCommand("command -v desktop-file-validate >/dev/null") == 0) {
    int rc = 0;
    const std::string text = output("desktop-file-validate " + shellQuoted(desktop.string()), &rc);
    EXPECT_EQ(rc, 0) << text;
    EXPECT_EQ(text.find("error"), std::string::npos) << text;
  }
  std::ifstream in(desktop);
  const std::string entry((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(entry.find("\nExec=delineate %f\n"), std::string::npos);
  EXPECT_NE(entry.find("\nIcon=" + kAppId + "\n"), std::string::npos);
  for (const char* type : {"application/dicom", "application/x-nifti", "application/x-nifti-gzip",
                           "image/x-nrrd", "application/x-dicomdir"}) {
    EXPECT_NE(entry.find(type), std::string::npos) << type;
  }
  int rc = 0;
  const std::string text =
      output("appstreamcli validate --no-net --explain " +
                 shellQuoted((root() / "usr/share/metainfo" / (kAppId + ".metainfo.xml")).string()),
             &rc);
  EXPECT_EQ(rc, 0) << text;
  EXPECT_NE(
      output("grep -c 'release version=\"" DELINEATE_VERSION "\"' " +
             shellQuoted((root() / "usr/share/metainfo" / (kAppId + ".metainfo.xml")).string())),
      "0\n");
}

TEST_F(Package, TheMimeTypesNameTheFilesDelineateOpens) {
  const fs::path mime = root() / "mime-db";
  fs::create_directories(mime / "packages");
  fs::copy_file("/usr/share/mime/packages/freedesktop.org.xml",
                mime / "packages/freedesktop.org.xml", fs::copy_options::overwrite_existing);
  fs::copy_file(root() / "usr/share/mime/packages/delineate.xml", mime / "packages/delineate.xml",
                fs::copy_options::overwrite_existing);
  int rc = 0;
  const std::string text = output("update-mime-database " + shellQuoted(mime.string()), &rc);
  ASSERT_EQ(rc, 0) << text;
  std::ifstream in(mime / "globs2");
  std::map<std::string, std::pair<int, std::string>> best;  // glob -> weight, type
  for (std::string line; std::getline(in, line);) {
    std::istringstream f(line);
    std::string weight, type, glob;
    if (line.empty() || line[0] == '#' || !std::getline(f, weight, ':') ||
        !std::getline(f, type, ':') || !std::getline(f, glob, ':')) {
      continue;
    }
    best[glob] = std::max(best[glob], {std::stoi(weight), type});
  }
  EXPECT_EQ(best["*.nii"].second, "application/x-nifti");
  EXPECT_EQ(best["*.nii.gz"].second, "application/x-nifti-gzip");
  EXPECT_GT(best["*.nii.gz"].first, best["*.gz"].first) << "wins over plain gzip";
  EXPECT_EQ(best["*.nrrd"].second, "image/x-nrrd");
  EXPECT_EQ(best["*.nhdr"].second, "image/x-nrrd");
  EXPECT_EQ(best["*.dcm"].second, "application/dicom");
  EXPECT_EQ(best["DICOMDIR"].second, "application/x-dicomdir");
}

TEST_F(Package, TheInstalledProgramsRunAndFindThePackagesPlugins) {
  const std::string bin = (root() / "usr/bin").string();
  EXPECT_EQ(output(shellQuoted(bin + "/delineate") + " --version"),
            "delineate " DELINEATE_VERSION "\n");
  EXPECT_EQ(output(shellQuoted(bin + "/delineate-server") + " --version"),
            "delineate-server " DELINEATE_VERSION "\n");
  EXPECT_NE(output(shellQuoted(bin + "/delineate-cli") + " --version").find(DELINEATE_VERSION),
            std::string::npos);
  int rc = 0;
  const std::string plugins =
      output("env -u DELINEATE_PLUGIN_PATH " + shellQuoted(bin + "/delineate") + " --plugins", &rc);
  EXPECT_EQ(rc, 0) << plugins;
  const std::string folder = (root() / "usr/lib/delineate/plugins").string();
  for (const char* kind : {"builtin", "monai-label", "clara-aiaa"}) {
    EXPECT_NE(plugins.find(std::string("loaded   ") + kind + " "), std::string::npos)
        << kind << "\n"
        << plugins;
  }
  EXPECT_NE(plugins.find(folder + "/libdelineate_plugin_builtin.so"), std::string::npos)
      << "from the package's own folder:\n"
      << plugins;
  EXPECT_EQ(plugins.find("refused"), std::string::npos) << plugins;
}

TEST_F(Package, TheInstalledAppTakesAScreenshotOfTheSample) {
  const char* display = std::getenv("DISPLAY");
  if (display == nullptr || *display == '\0') {
    GTEST_SKIP() << "no X display: run under xvfb-run (ctest does, from scripts/test.sh)";
  }
  const std::string bin = (root() / "usr/bin").string();
  const fs::path sample = root() / "sample";
  int rc = 0;
  std::string text =
      output(shellQuoted(bin + "/delineate-cli") + " sample " + shellQuoted(sample.string()), &rc);
  ASSERT_EQ(rc, 0) << text;
  fs::path image;
  for (const auto& e : fs::recursive_directory_iterator(sample)) {
    if (e.path().filename() == "brain-mr.nii.gz") {
      image = e.path();
    }
  }
  ASSERT_FALSE(image.empty()) << text;
  const fs::path shot = root() / "shot.png";
  text = output(shellQuoted(bin + "/delineate") + " --screenshot " + shellQuoted(shot.string()) +
                    " --size 1024x768 " + shellQuoted(image.string()),
                &rc);
  ASSERT_EQ(rc, 0) << text;
  const QImage png(QString::fromStdString(shot.string()));
  ASSERT_FALSE(png.isNull()) << text;
  EXPECT_EQ(png.size(), QSize(1024, 768));
  std::set<QRgb> greys;
  for (int y = 0; y < png.height(); y += 4) {
    for (int x = 0; x < png.width(); x += 4) {
      const QColor c = png.pixelColor(x, y);
      if (c.red() == c.green() && c.green() == c.blue()) {
        greys.insert(c.rgb());
      }
    }
  }
  EXPECT_GT(greys.size(), 64u) << "the MR slices are drawn in many greys";
}

}  // namespace
