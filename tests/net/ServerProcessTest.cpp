// The real executables end to end: delineate-server started as its own process on 127.0.0.1,
// `delineate-cli infer` against it (image uploaded with the request, then through a session),
// the label written and the timings printed; SIGTERM stops the server cleanly. With sign-in on
// (--auth-users), `infer --user` signs in with the password from the environment or a file.
// `delineate-cli detect --server` asks the server's mammography model for AI findings.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "AiTestSupport.h"
#include "core/Error.h"
#include "core/io/DicomHeader.h"
#include "core/io/LabelMapFileIO.h"
#include "core/io/VolumeFileIO.h"
#include "core/jobs/ProgressSink.h"
#include "core/mammo/MammoFindings.h"
#include "core/net/TcpProbe.h"

using namespace delineate;

extern char** environ;

namespace {

pid_t spawn(const std::vector<std::string>& argv) {
  std::vector<char*> args;
  for (const std::string& a : argv) {
    args.push_back(const_cast<char*>(a.c_str()));
  }
  args.push_back(nullptr);
  pid_t pid = -1;
  EXPECT_EQ(::posix_spawn(&pid, args[0], nullptr, nullptr, args.data(), environ), 0);
  return pid;
}

// Runs a command and returns its stdout and exit status.
std::pair<std::string, int> run(const std::string& command) {
  std::string out;
  FILE* p = ::popen(command.c_str(), "r");
  std::array<char, 4096> buf{};
  while (p != nullptr && std::fgets(buf.data(), buf.size(), p) != nullptr) {
    out += buf.data();
  }
  const int status = p != nullptr ? ::pclose(p) : -1;
  return {out, WIFEXITED(status) ? WEXITSTATUS(status) : -1};
}

class RunningServer {
 public:
  explicit RunningServer(const std::filesystem::path& datastore,
                         const std::vector<std::string>& options = {}) {
    port_ = core::net::freeLocalPort();
    std::vector<std::string> argv = {DELINEATE_SERVER, "--port", std::to_string(port_),
                                     "--datastore", datastore.string()};
    argv.insert(argv.end(), options.begin(), options.end());
    pid_ = spawn(argv);
    core::NullProgress progress;
    for (int i = 0; i < 100; ++i) {
      try {
        core::net::probeTcp("127.0.0.1", port_, std::chrono::milliseconds(200), progress);
        return;
      } catch (const core::Error&) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
    }
    ADD_FAILURE() << "delineate-server did not start";
  }
  ~RunningServer() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  // SIGTERM; the exit status.
  int stop() {
    ::kill(pid_, SIGTERM);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

 private:
  int port_ = 0;
  pid_t pid_ = -1;
};

}  // namespace

TEST(ServerProcess, CliInferAgainstTheRealServerWritesTheStructure) {
  test::TempDir dir;
  test::BallImage ball;
  core::writeVolumeFile(*ball.image, dir / "ball.nii.gz");
  RunningServer server(dir / "store");
  const std::string c = ball.centre[0] ? std::to_string(ball.centre[0]) + "," +
                                             std::to_string(ball.centre[1]) + "," +
                                             std::to_string(ball.centre[2])
                                       : "";
  for (const std::string mode : {"", " --session"}) {
    const std::filesystem::path out = dir / ("label" + std::to_string(mode.size()) + ".nii.gz");
    const auto [stdout_, code] =
        run(std::string(DELINEATE_CLI) + " infer --server " + server.url() +
            " --model local_deepgrow --label Lesion --fg " + c + " --bg 2,2,2 --image " +
            (dir / "ball.nii.gz").string() + " --out " + out.string() + mode + " 2>/dev/null");
    ASSERT_EQ(code, 0) << stdout_;
    const auto report = nlohmann::json::parse(stdout_);
    EXPECT_EQ(report["session_created"].get<bool>(), !mode.empty());
    EXPECT_GT(report["bytes_sent"].get<double>(), 20000);
    EXPECT_GT(report["labelled_voxels"].get<double>(), 1000);
    EXPECT_TRUE(report["server_s"].is_number());
    const core::LabelMap got = core::readLabelMapFiles(out, &ball.image->geometry());
    EXPECT_GT(test::dice(got, *ball.truth), 0.9);
    EXPECT_EQ(got.segments().at(0).name, "Lesion");
  }
  EXPECT_EQ(server.stop(), 0);
}

TEST(ServerProcess, CliInferSpeaksClaraAiaaWithExtremePoints) {
  test::TempDir dir;
  test::BallImage ball;
  core::writeVolumeFile(*ball.image, dir / "ball.nii.gz");
  RunningServer server(dir / "store");
  const auto at = [&](long di, long dj, long dk) {
    return std::to_string(ball.centre[0] + di) + "," + std::to_string(ball.centre[1] + dj) + "," +
           std::to_string(ball.centre[2] + dk);
  };
  std::string extreme;
  for (const std::string& p :
       {at(-10, 0, 0), at(10, 0, 0), at(0, -10, 0), at(0, 10, 0), at(0, 0, -6), at(0, 0, 6)}) {
    extreme += " --extreme " + p;
  }
  const std::filesystem::path out = dir / "dextr.nii.gz";
  const auto [stdout_, code] =
      run(std::string(DELINEATE_CLI) + " infer --api aiaa --server " + server.url() +
          " --model local_extreme_points --label Lesion" + extreme + " --image " +
          (dir / "ball.nii.gz").string() + " --out " + out.string() + " 2>/dev/null");
  ASSERT_EQ(code, 0) << stdout_;
  const auto report = nlohmann::json::parse(stdout_);
  EXPECT_FALSE(report["session_created"].get<bool>());
  const core::LabelMap got = core::readLabelMapFiles(out, &ball.image->geometry());
  EXPECT_GT(test::dice(got, *ball.truth), 0.6);  // the engine on the upsampled crop: ~0.7
  // Five points are refused before anything is sent.
  const auto [refused, rc] =
      run(std::string(DELINEATE_CLI) + " infer --api aiaa --server " + server.url() +
          " --model local_extreme_points" + extreme.substr(0, extreme.rfind(" --extreme")) +
          " --image " + (dir / "ball.nii.gz").string() + " --out " + out.string() + " 2>&1");
  EXPECT_EQ(rc, 2);
  EXPECT_NE(refused.find("six points"), std::string::npos) << refused;
  EXPECT_EQ(server.stop(), 0);
}

TEST(ServerProcess, CliInferNamesAServerThatIsNotThere) {
  test::TempDir dir;
  test::BallImage ball;
  core::writeVolumeFile(*ball.image, dir / "ball.nii.gz");
  const std::string url = "http://127.0.0.1:" + std::to_string(core::net::freeLocalPort());
  const auto [out, code] =
      run(std::string(DELINEATE_CLI) + " infer --server " + url + " --model m --fg 1,1,1 --image " +
          (dir / "ball.nii.gz").string() + " --out " + (dir / "x.nii.gz").string() + " 2>&1");
  EXPECT_EQ(code, 1);
  EXPECT_NE(out.find(url.substr(7)), std::string::npos) << out;
  EXPECT_NE(out.find("cannot connect"), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(dir / "x.nii.gz"));
}

TEST(ServerProcess, CliInferSignsInWithUserAndPasswordFromTheEnvironmentOrAFile) {
  test::TempDir dir;
  test::BallImage ball;
  core::writeVolumeFile(*ball.image, dir / "ball.nii.gz");
  std::ofstream(dir / "users.json") << R"({"users": [{"username": "carol", "password": "p w!",
      "roles": ["monailabel-user"]}]})";
  std::ofstream(dir / "good.txt") << "p w!\n";
  std::ofstream(dir / "bad.txt") << "nope\n";
  RunningServer server(dir / "store",
                       {"--auth-users", (dir / "users.json").string(), "--token-lifetime", "60"});
  const std::string c = std::to_string(ball.centre[0]) + "," + std::to_string(ball.centre[1]) +
                        "," + std::to_string(ball.centre[2]);
  const auto infer = [&](const std::string& env, const std::string& options,
                         const std::string& out) {
    return run(env + " " + DELINEATE_CLI + " infer --server " + server.url() +
               " --model local_deepgrow --fg " + c + " --image " + (dir / "ball.nii.gz").string() +
               " --out " + (dir / out).string() + " " + options + " 2>&1");
  };
  {
    const auto [out, code] = infer("env DELINEATE_PASSWORD='p w!'", "--user carol", "env.nii.gz");
    EXPECT_EQ(code, 0) << out;
    EXPECT_TRUE(std::filesystem::exists(dir / "env.nii.gz"));
  }
  {
    const auto [out, code] =
        infer("env -u DELINEATE_PASSWORD",
              "--user carol --password-file " + (dir / "good.txt").string(), "file.nii.gz");
    EXPECT_EQ(code, 0) << out;
    EXPECT_TRUE(std::filesystem::exists(dir / "file.nii.gz"));
  }
  {
    const auto [out, code] =
        infer("env -u DELINEATE_PASSWORD",
              "--user carol --password-file " + (dir / "bad.txt").string(), "bad.nii.gz");
    EXPECT_EQ(code, 1) << out;
    EXPECT_NE(out.find(server.url()), std::string::npos) << out;
    EXPECT_NE(out.find("rejected the user name or password"), std::string::npos) << out;
    EXPECT_EQ(out.find("nope"), std::string::npos) << "the password is never printed: " << out;
    EXPECT_FALSE(std::filesystem::exists(dir / "bad.nii.gz"));
  }
  {
    const auto [out, code] = infer("env -u DELINEATE_PASSWORD", "", "none.nii.gz");
    EXPECT_EQ(code, 1) << out;
    EXPECT_NE(out.find("sign-in needed"), std::string::npos) << out;
  }
  {
    const auto [out, code] = infer("env -u DELINEATE_PASSWORD", "--user carol", "nopw.nii.gz");
    EXPECT_EQ(code, 2) << out;
    EXPECT_NE(out.find("DELINEATE_PASSWORD"), std::string::npos) << out;
  }
  EXPECT_EQ(server.stop(), 0);
}

TEST(ServerProcess, CliDetectAsksTheServersMammographyModel) {
  test::TempDir dir;
  std::map<std::string, test::MammoViewFile> views;  // by SOP Instance UID
  for (const char* laterality : {"R", "L"}) {
    for (const char* view : {"CC", "MLO"}) {
      test::MammoViewFile f = test::writeMammoView(dir / "study", laterality, view);
      views[core::readDicomHeader(f.file.string()).sopInstanceUid] = std::move(f);
    }
  }
  RunningServer server(dir / "store");
  const std::filesystem::path json = dir / "findings.json";
  const auto [out, code] = run(std::string(DELINEATE_CLI) + " detect --server " + server.url() +
                               " --model mammo_demo_detector --json " + json.string() + " " +
                               (dir / "study").string() + " 2>&1");
  ASSERT_EQ(code, 0) << out;
  const std::string source = "MONAI Label at " + server.url() + " model mammo_demo_detector";
  EXPECT_NE(out.find("DEMONSTRATION, NOT A DIAGNOSIS"), std::string::npos) << out;
  EXPECT_NE(out.find(source), std::string::npos) << out;
  EXPECT_NE(out.find("risk score"), std::string::npos) << out;
  const core::mammo::StudyFindings f = core::mammo::readStudyFindings(json);
  EXPECT_TRUE(f.demonstration);
  EXPECT_EQ(f.source, source);
  ASSERT_TRUE(f.riskScore);
  ASSERT_EQ(f.images.size(), 4u);
  int leftMasses = 0;
  for (const core::mammo::ImageFindings& image : f.images) {
    ASSERT_TRUE(views.count(image.imageId)) << image.imageId;
    const test::MammoViewFile& v = views.at(image.imageId);
    if (v.sample.image->info().laterality != "L") {
      continue;
    }
    const auto truth = test::labelCentroid(v.sample, 1);
    for (const core::mammo::FindingMark& m : image.marks) {
      if (m.kind == "mass" &&
          std::hypot(m.column - truth.first, m.row - truth.second) * 0.13 < 10.0) {
        ++leftMasses;
        break;
      }
    }
  }
  EXPECT_EQ(leftMasses, 2) << out;
  // A model the server does not have: the message names the server and the image.
  const auto [bad, rc] = run(std::string(DELINEATE_CLI) + " detect --server " + server.url() +
                             " --model no_such_model " + (dir / "study").string() + " 2>&1");
  EXPECT_EQ(rc, 1) << bad;
  EXPECT_NE(bad.find(server.url()), std::string::npos) << bad;
  EXPECT_NE(bad.find("no_such_model"), std::string::npos) << bad;
  EXPECT_NE(bad.find((dir / "study").string()), std::string::npos) << bad;
  EXPECT_EQ(server.stop(), 0);
}

TEST(ServerProcess, CliInferSpeaksNnInteractiveWithPointsBoxesAndLassos) {
  test::TempDir dir;
  const test::BallImage ball({32, 13, 10}, 7.0);
  core::writeVolumeFile(*ball.image, dir / "ball.nii.gz");
  // A lasso drawn on the ball's axial slice, as a label image on the image's grid.
  core::LabelMap lasso("lasso", ball.image->geometry(), {core::defaultSegment(1)});
  for (std::size_t j = 5; j < 22; ++j) {
    for (std::size_t i = 24; i < 41; ++i) {
      lasso.mutableData()[i + 48 * (j + 44 * 10)] = 1;
    }
  }
  core::writeLabelMapFiles(lasso, dir / "lasso.nii.gz");
  RunningServer server(dir / "store", {"--api-key", "k3y"});
  const std::string base = std::string(DELINEATE_CLI) + " infer --api nninteractive --server " +
                           server.url() + " --image " + (dir / "ball.nii.gz").string();
  const std::string out = (dir / "out.nii.gz").string();
  struct Case {
    std::string name, prompts;
  };
  for (const Case& c : {Case{"point", " --point 32,13,10"},
                        Case{"box then negative point", " --box 23,4,10,41,22,10 --point 0,0,0,-"},
                        Case{"lasso", " --lasso " + (dir / "lasso.nii.gz").string()}}) {
    const auto [stdout_, code] =
        run("NN_INTERACTIVE_API_KEY=k3y " + base + c.prompts + " --out " + out + " 2>&1");
    ASSERT_EQ(code, 0) << c.name << ": " << stdout_;
    const auto report = nlohmann::json::parse(stdout_);
    EXPECT_TRUE(report["session_created"].get<bool>()) << c.name;
    EXPECT_GT(report["bytes_sent"].get<double>(), 1000) << c.name;
    const core::LabelMap got = core::readLabelMapFiles(out, &ball.image->geometry());
    EXPECT_GT(test::dice(got, *ball.truth), 0.75) << c.name;
  }
  // The wrong key is named. A MONAI Label model takes a box as its region of interest ("roi",
  // as 3D Slicer sends it), which delineate-server's engine segments as a box; a lasso it does
  // not take is refused naming the prompt kind.
  const auto [wrong, rc] = run(base + " --api-key nope --point 32,13,10 --out " + out + " 2>&1");
  EXPECT_EQ(rc, 1);
  EXPECT_NE(wrong.find("API key"), std::string::npos) << wrong;
  const std::string monaiBase = std::string(DELINEATE_CLI) + " infer --server " + server.url() +
                                " --model local_deepgrow --image " +
                                (dir / "ball.nii.gz").string() + " --out " + out;
  const auto [box, rc2] = run(monaiBase + " --box 23,4,10,41,22,10 2>&1");
  ASSERT_EQ(rc2, 0) << box;
  const core::LabelMap fromRoi = core::readLabelMapFiles(out, &ball.image->geometry());
  EXPECT_GT(test::dice(fromRoi, *ball.truth), 0.75) << "the box as a region of interest";
  const auto [lassoed, rc5] =
      run(monaiBase + " --lasso " + (dir / "lasso.nii.gz").string() + " 2>&1");
  EXPECT_EQ(rc5, 1);
  EXPECT_NE(lassoed.find("does not take lasso prompts"), std::string::npos) << lassoed;
  const auto [negative, rc6] = run(monaiBase + " --box 23,4,10,41,22,10,- 2>&1");
  EXPECT_EQ(rc6, 1);
  EXPECT_NE(negative.find("negative box prompts"), std::string::npos) << negative;
  // --initial: the ball and, wrongly, a block beside it; a negative point on the block refines
  // it away. A MONAI Label model refuses to refine.
  core::LabelMap initial("initial", ball.image->geometry(), {core::defaultSegment(1)});
  for (std::size_t n = 0; n < initial.voxelCount(); ++n) {
    const std::size_t i = n % 48, j = (n / 48) % 44, k = n / (48 * 44);
    const bool block = i >= 41 && i < 46 && j >= 10 && j < 17 && k >= 8 && k < 13;
    initial.mutableData()[n] = ball.truth->data()[n] != 0 || block ? 1 : 0;
  }
  core::writeLabelMapFiles(initial, dir / "initial.nii.gz");
  const std::string initialArg = " --initial " + (dir / "initial.nii.gz").string();
  const auto [refined, rc3] = run("NN_INTERACTIVE_API_KEY=k3y " + base + initialArg +
                                  " --point 43,13,10,- --out " + out + " 2>&1");
  ASSERT_EQ(rc3, 0) << refined;
  const core::LabelMap got = core::readLabelMapFiles(out, &ball.image->geometry());
  EXPECT_EQ(got.at(43, 13, 10), 0) << "the block is refined away";
  EXPECT_GT(test::dice(got, *ball.truth), 0.85);
  const auto [monai, rc4] = run(std::string(DELINEATE_CLI) + " infer --server " + server.url() +
                                " --model local_deepgrow --fg 32,13,10" + initialArg + " --image " +
                                (dir / "ball.nii.gz").string() + " --out " + out + " 2>&1");
  EXPECT_EQ(rc4, 1);
  EXPECT_NE(monai.find("does not refine"), std::string::npos) << monai;
  EXPECT_EQ(server.stop(), 0);
}

// `infer --api builtin` runs the built-in engine here, without a server; --span gives the
// slices the boxed structure spans, which only the built-in engine uses: a server's protocol has
// no field for it, so it is left out with a note.
TEST(ServerProcess, CliInferRunsTheBuiltInEngineHereAndBoundsItByTheBoxsSpan) {
  test::TempDir dir;
  const test::BallImage ball({32, 13, 10}, 7.0);  // slices 6..14
  core::writeVolumeFile(*ball.image, dir / "ball.nii.gz");
  const std::string out = (dir / "out.nii.gz").string();
  const std::string base = std::string(DELINEATE_CLI) + " infer --image " +
                           (dir / "ball.nii.gz").string() + " --out " + out +
                           " --box 23,4,10,41,22,10";
  const auto slices = [&] {
    const core::LabelMap got = core::readLabelMapFiles(out, &ball.image->geometry());
    std::size_t lo = 99, hi = 0;
    for (std::size_t n = 0; n < got.voxelCount(); ++n) {
      if (got.data()[n] != 0) {
        lo = std::min(lo, n / (48 * 44));
        hi = std::max(hi, n / (48 * 44));
      }
    }
    return std::pair{lo, hi};
  };
  const auto [whole, rc] = run(base + " --api builtin 2>&1");
  ASSERT_EQ(rc, 0) << whole;
  EXPECT_EQ(slices(), (std::pair<std::size_t, std::size_t>{6, 14}));
  const auto [spanned, rc2] = run(base + " --api builtin --span 8,12 2>&1");
  ASSERT_EQ(rc2, 0) << spanned;
  EXPECT_EQ(slices(), (std::pair<std::size_t, std::size_t>{8, 12}));
  const auto [oneEnd, rc3] = run(base + " --api builtin --span ,11 2>&1");
  ASSERT_EQ(rc3, 0) << oneEnd;
  EXPECT_EQ(slices(), (std::pair<std::size_t, std::size_t>{6, 11}));
  // A span that leaves out the box's slice, or one without a box before it, is refused.
  const auto [wrong, rc4] = run(base + " --api builtin --span 11,12 2>&1");
  EXPECT_EQ(rc4, 2);
  EXPECT_NE(wrong.find("--span needs FIRST,LAST"), std::string::npos) << wrong;
  const auto [alone, rc5] =
      run(std::string(DELINEATE_CLI) + " infer --api builtin --span 8,12 " + "--image " +
          (dir / "ball.nii.gz").string() + " --out " + out + " 2>&1");
  EXPECT_EQ(rc5, 2);
  // Over nnInteractive the box goes without it, with a note.
  RunningServer server(dir / "store", {"--api-key", "k3y"});
  const auto [nn, rc6] = run("NN_INTERACTIVE_API_KEY=k3y " + base +
                             " --api nninteractive --span 8,12 --server " + server.url() + " 2>&1");
  ASSERT_EQ(rc6, 0) << nn;
  EXPECT_NE(nn.find("has no field for a box's span"), std::string::npos) << nn;
  EXPECT_EQ(server.stop(), 0);
}
