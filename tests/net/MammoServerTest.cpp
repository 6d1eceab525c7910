// Mammography AI findings from a server, end to end on 127.0.0.1: delineate-server's
// `mammo_demo_detector` (a MONAI Label "detection" model answering JSON only) asked by the real
// MONAI Label client through core::mammo::findingsFromServer, on the synthetic screening exam
// written as DICOM MG. The mass of the left breast is marked where the ground truth has it, the
// answer says it is a demonstration, and a server answering nonsense for the model gives an
// error that names the server and the image file. Segmentation models still need a label image.
// `mammo_demo_heatmap` answers its probability map as an image, which becomes each view's
// heatmap, hot where the mass is.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iterator>

#include "AiTestSupport.h"
#include "FaultServer.h"
#include "app/server/MammoDetectorModel.h"
#include "core/Error.h"
#include "core/ai/Multipart.h"
#include "core/jobs/ProgressSink.h"
#include "core/mammo/ServerFindings.h"
#include "core/net/HttpClient.h"
#include "plugins/monai-label/MonaiLabelBackend.h"

using namespace delineate;
using delineate::plugins::MonaiLabelBackend;

namespace {

constexpr double kPixelMm = 0.13;  // the sample's pixel spacing
const std::string kJson = "application/json";

plugins::MonaiServerConfig mammoConfigFor(const std::string& url, bool sessions = true) {
  plugins::MonaiServerConfig c;
  c.url = url;
  c.useSessions = sessions;
  return c;
}

// The sample's left CC and MLO written as DICOM MG, and read back as the detector's inputs.
struct LeftViews {
  explicit LeftViews(const std::filesystem::path& folder) {
    for (const char* view : {"CC", "MLO"}) {
      files.push_back(test::writeMammoView(folder, "L", view));
      inputs.push_back(test::readMammoView(files.back().file));
    }
  }
  std::vector<test::MammoViewFile> files;
  std::vector<core::mammo::DetectorImage> inputs;
};

const core::mammo::FindingMark* firstOfKind(const core::mammo::ImageFindings& image,
                                            const std::string& kind) {
  for (const core::mammo::FindingMark& m : image.marks) {
    if (m.kind == kind) {
      return &m;
    }
  }
  return nullptr;
}

// POST /infer/mammo_demo_detector with `file` uploaded as it is; the raw answer.
core::net::HttpResponse postUpload(const std::string& url, const std::string& filename,
                                   const std::string& bytes, const std::string& query = {}) {
  core::ai::MultipartEncoder form;
  form.addField("params", "{}");
  form.addFile("file", filename, bytes);
  core::net::HttpRequest request;
  request.method = "POST";
  request.url = url + "/infer/" + server::kMammoDetectorModel + query;
  request.contentType = form.contentType();
  request.body = form.finish();
  core::NullProgress progress;
  return core::net::makeHttpClient()->send(request, progress);
}

std::string fileBytes(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A small image whose info names `file`, for the fault tests (the fault server never reads it).
core::mammo::DetectorImage namedImage(const std::string& file) {
  core::ImageGeometry g;
  g.size = {64, 80, 1};
  g.spacing = {0.13, 0.13, 1};
  auto voxels = std::make_shared<core::VoxelBuffer>(core::ScalarType::UInt16, g.voxelCount());
  core::VolumeInfo info;
  info.modality = "MG";
  info.burnedInAnnotation = "NO";  // an MG without it is held back before sending
  info.sourceFiles = {file};
  core::mammo::DetectorImage image;
  image.image = std::make_shared<const core::Volume>(g, voxels, info);
  image.view.id = "1.2.3.4";
  image.view.laterality = core::mammo::Laterality::Left;
  image.view.view = core::mammo::ViewCode::CC;
  return image;
}

// A server listing the mammography model whose /infer answers `inferAnswer`.
test::FaultServer::Script detectorScript(test::FaultAction inferAnswer) {
  return [inferAnswer](const std::string& method, const std::string& path) {
    if (path == "/info/") {
      nlohmann::json info = {{"name", "fault"}, {"models", nlohmann::json::object()}};
      info["models"][server::kMammoDetectorModel] = server::mammoDetectorInfo();
      return test::answer(200, kJson, info.dump());
    }
    if (path == "/session/" && method == "PUT") {
      return test::answer(200, kJson, R"({"session_id": "s-1", "session_info": {}})");
    }
    return inferAnswer;
  };
}

}  // namespace

TEST(MammoServer, InfoListsTheDemonstrationDetector) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  MonaiLabelBackend client(mammoConfigFor(server.url()));
  core::NullProgress progress;
  const core::ai::ServerInfo info = client.info(progress);
  const core::ai::ModelInfo* m = info.findModel(server::kMammoDetectorModel);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->type, "detection");
  EXPECT_EQ(m->dimension, 2);
  EXPECT_EQ(core::ai::modelGroup(m->type), core::ai::ModelGroup::Others);
  ASSERT_EQ(m->labels.size(), 3u);
  EXPECT_EQ(m->labels[0].name, "mass");
  EXPECT_EQ(m->labels[0].value, 1);
  EXPECT_EQ(m->labels[1].name, "calcification");
  EXPECT_EQ(m->labels[2].name, "asymmetry");
  EXPECT_EQ(m->labels[2].value, 3);
  EXPECT_NE(m->description.find("demonstration"), std::string::npos) << m->description;
  EXPECT_NE(m->description.find("not a diagnosis"), std::string::npos) << m->description;
}

TEST(MammoServer, FindingsFromTheServerMarkTheMassOfTheLeftViews) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  const LeftViews left(dir / "study");
  const std::vector<test::MammoViewFile>& files = left.files;
  const std::vector<core::mammo::DetectorImage>& inputs = left.inputs;
  for (const core::mammo::DetectorImage& input : inputs) {
    EXPECT_EQ(input.view.laterality, core::mammo::Laterality::Left);
  }
  for (const bool sessions : {true, false}) {
    MonaiLabelBackend client(mammoConfigFor(server.url(), sessions));
    core::NullProgress progress;
    const core::mammo::StudyFindings f =
        core::mammo::findingsFromServer(client, server::kMammoDetectorModel, inputs, progress);
    EXPECT_TRUE(f.demonstration);
    EXPECT_EQ(f.source, "MONAI Label at " + server.url() + " model mammo_demo_detector");
    ASSERT_EQ(f.images.size(), 2u);
    double noneFound = 1;
    for (std::size_t i = 0; i < 2; ++i) {
      const core::mammo::ImageFindings& image = f.images[i];
      EXPECT_EQ(image.imageId, inputs[i].view.id);
      EXPECT_FALSE(image.heatmap);
      const core::mammo::FindingMark* mass = firstOfKind(image, "mass");
      ASSERT_NE(mass, nullptr) << "view " << i << ", sessions " << sessions;
      const auto truth = test::labelCentroid(files[i].sample, 1);
      EXPECT_LT(std::hypot(mass->column - truth.first, mass->row - truth.second) * kPixelMm, 10.0)
          << "view " << i;
      EXPECT_GT(mass->score, 0.3);
      EXPECT_LE(mass->score, 0.95);
      EXPECT_EQ(firstOfKind(image, "asymmetry"), nullptr) << "one image: no other breast";
      noneFound *= 1 - image.marks.front().score;  // the image's probability: its top mark
    }
    ASSERT_TRUE(f.riskScore);
    EXPECT_NEAR(*f.riskScore, 1 - noneFound, 1e-9);
  }
}

TEST(MammoServer, OneFullSizeImageThroughTheServerIsTimed) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  const auto file = test::writeMammoView(dir / "study", "L", "CC");
  const std::vector<core::mammo::DetectorImage> inputs = {test::readMammoView(file.file)};
  ASSERT_EQ(inputs[0].image->geometry().size[0], 1280u);
  ASSERT_EQ(inputs[0].image->geometry().size[1], 1664u);
  MonaiLabelBackend client(mammoConfigFor(server.url(), false));
  core::NullProgress progress;
  client.info(progress);
  const auto start = std::chrono::steady_clock::now();
  const core::mammo::StudyFindings f =
      core::mammo::findingsFromServer(client, server::kMammoDetectorModel, inputs, progress);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  RecordProperty("seconds", std::to_string(seconds));
  std::printf("[ timing   ] one 1280x1664 mammogram through delineate-server: %.2f s\n", seconds);
  EXPECT_NE(firstOfKind(f.images.at(0), "mass"), nullptr);
  EXPECT_LT(seconds, 30.0);
}

TEST(MammoServer, AnUploadedDicomFileSaysItsLateralityAndViewAndTheAnswerIsJsonOnly) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  const auto file = test::writeMammoView(dir / "study", "L", "MLO");
  const std::string bytes = fileBytes(file.file);
  const core::net::HttpResponse r = postUpload(server.url(), "L_MLO.dcm", bytes);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_NE(r.contentType().find("application/json"), std::string::npos) << r.contentType();
  const auto answer = nlohmann::json::parse(r.body);
  EXPECT_EQ(answer["laterality"], "L");
  EXPECT_EQ(answer["view"], "MLO");
  EXPECT_EQ(answer["demonstration"], true);
  EXPECT_EQ(answer["label_names"]["mass"], 1);
  ASSERT_FALSE(answer["boxes"].empty());
  EXPECT_EQ(answer["boxes"].size(), answer["scores"].size());
  EXPECT_EQ(answer["boxes"].size(), answer["labels"].size());
  EXPECT_NEAR(answer["probability"].get<double>(), answer["scores"][0].get<double>(), 1e-12);
  EXPECT_TRUE(answer["latencies"]["total"].is_number());
  // The same through findingsFromInferResult: the mass sits on the truth.
  const auto f = core::mammo::findingsFromInferResult(answer, "L_MLO");
  const core::mammo::FindingMark* mass = firstOfKind(f.images.at(0), "mass");
  ASSERT_NE(mass, nullptr);
  const auto truth = test::labelCentroid(file.sample, 1);
  EXPECT_LT(std::hypot(mass->column - truth.first, mass->row - truth.second) * kPixelMm, 10.0);
  // Found by its preamble too, whatever its name.
  EXPECT_EQ(postUpload(server.url(), "upload", bytes).status, 200);
  // There is no label image to send.
  const core::net::HttpResponse image = postUpload(server.url(), "x.dcm", bytes, "?output=image");
  EXPECT_EQ(image.status, 500);
  EXPECT_NE(image.body.find("no result image"), std::string::npos) << image.body;
  // A bad option is refused with a reason.
  core::ai::MultipartEncoder form;
  form.addField("params", R"({"mark_threshold": 7})");
  form.addFile("file", "x.dcm", bytes);
  core::net::HttpRequest bad;
  bad.method = "POST";
  bad.url = server.url() + "/infer/mammo_demo_detector";
  bad.contentType = form.contentType();
  bad.body = form.finish();
  core::NullProgress progress;
  const core::net::HttpResponse refused = core::net::makeHttpClient()->send(bad, progress);
  EXPECT_EQ(refused.status, 400);
  EXPECT_NE(refused.body.find("mark_threshold"), std::string::npos) << refused.body;
}

TEST(MammoServer, AServerAnsweringNonsenseForTheModelGivesAnErrorNamingServerAndFile) {
  const std::vector<std::pair<std::string, std::string>> answers = {
      {R"({"boxes": [[1, 2, 3]], "scores": [0.5]})", "box 0"},
      {R"({"boxes": [[1, 2, 3, 4]], "scores": [7]})", "outside 0..1"},
      {R"({"latencies": {"total": 0.1}})", "neither"},
      {R"(["not", "an", "object"])", "not a JSON object"},
      {R"({"boxes": [[1, 2, 3, 4]], "scores)", "malformed"}};
  for (const auto& [body, reason] : answers) {
    test::FaultServer fault(detectorScript(test::answer(200, kJson, body)));
    MonaiLabelBackend client(mammoConfigFor(fault.url(), false));
    core::NullProgress progress;
    try {
      core::mammo::findingsFromServer(client, server::kMammoDetectorModel,
                                      {namedImage("/data/exam/L_CC.dcm")}, progress);
      ADD_FAILURE() << "no error for " << body;
    } catch (const core::Error& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find(fault.url()), std::string::npos) << m;
      EXPECT_NE(m.find("/data/exam/L_CC.dcm"), std::string::npos) << m;
      EXPECT_NE(m.find(reason), std::string::npos) << m;
      EXPECT_EQ(e.kind(), core::ErrorKind::InvalidInput) << m;
    }
  }
  // An error status keeps its meaning.
  test::FaultServer failing(
      detectorScript(test::answer(500, kJson, R"({"detail": "CUDA out of memory"})")));
  MonaiLabelBackend client(mammoConfigFor(failing.url(), false));
  core::NullProgress progress;
  try {
    core::mammo::findingsFromServer(client, server::kMammoDetectorModel,
                                    {namedImage("/data/exam/R_MLO.dcm")}, progress);
    ADD_FAILURE() << "no error";
  } catch (const core::Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(failing.url()), std::string::npos) << m;
    EXPECT_NE(m.find("/data/exam/R_MLO.dcm"), std::string::npos) << m;
    EXPECT_NE(m.find("CUDA out of memory"), std::string::npos) << m;
    EXPECT_EQ(e.kind(), core::ErrorKind::Network) << m;
  }
}

TEST(MammoServer, ADetectionAnswerWithoutLabelImageSucceedsASegmentationOneStillFails) {
  // The detection model: JSON alone is the whole result.
  {
    test::FaultServer fault(detectorScript(test::answer(
        200, kJson, R"({"boxes": [[10, 20, 30, 40]], "scores": [0.5], "labels": [1]})")));
    MonaiLabelBackend client(mammoConfigFor(fault.url()));
    core::ai::InferRequest r;
    r.model = server::kMammoDetectorModel;
    r.image = namedImage("a.dcm").image;
    core::NullProgress progress;
    const core::ai::InferResult result = client.infer(r, progress);
    EXPECT_EQ(result.labels, nullptr);
    EXPECT_EQ(result.params["boxes"][0][2], 30);
    EXPECT_TRUE(result.timings.sessionCreated);
  }
  // Segmentation and click models answering JSON alone: an error, as before.
  test::FaultServer seg([](const std::string& method, const std::string& path) {
    if (path == "/info/") {
      return test::answer(200, kJson, annotation::LocalEngineBackend::infoJson().dump());
    }
    if (path == "/session/" && method == "PUT") {
      return test::answer(200, kJson, R"({"session_id": "s-1", "session_info": {}})");
    }
    return test::answer(200, kJson, R"({"label_names": {"lesion": 1}})");
  });
  MonaiLabelBackend client(mammoConfigFor(seg.url()));
  test::BallImage ball;
  for (const char* model : {annotation::LocalEngineBackend::kBrainMrModel,
                            annotation::LocalEngineBackend::kClickModel}) {
    core::ai::InferRequest r;
    r.model = model;
    r.image = ball.image;
    r.foreground = {ball.centre};
    core::NullProgress progress;
    try {
      client.infer(r, progress);
      ADD_FAILURE() << "no error for " << model;
    } catch (const core::Error& e) {
      EXPECT_NE(std::string(e.what()).find("holds no label image"), std::string::npos) << e.what();
    }
  }
}

// The probability map as the answer image: every view gets a heatmap, hottest near the mass; a
// request that does not accept probabilities reads the answer as labels, as before.
TEST(MammoServer, AProbabilityImageAnswerBecomesEachViewsHeatmap) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  const LeftViews left(dir / "study");
  const std::vector<test::MammoViewFile>& files = left.files;
  const std::vector<core::mammo::DetectorImage>& inputs = left.inputs;
  MonaiLabelBackend client(mammoConfigFor(server.url()));
  core::NullProgress progress;
  const core::ai::ServerInfo info = client.info(progress);
  ASSERT_NE(info.findModel(server::kMammoHeatmapModel), nullptr);
  EXPECT_EQ(info.findModel(server::kMammoHeatmapModel)->type, "segmentation");
  const core::mammo::StudyFindings f =
      core::mammo::findingsFromServer(client, server::kMammoHeatmapModel, inputs, progress);
  ASSERT_EQ(f.images.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const core::mammo::ImageFindings& image = f.images[i];
    ASSERT_TRUE(image.heatmap) << "view " << i;
    const core::mammo::FindingHeatmap& h = *image.heatmap;
    const auto& g = inputs[i].image->geometry();
    EXPECT_EQ(h.columns, (g.size[0] + std::size_t(h.step) - 1) / std::size_t(h.step));
    // The hottest heatmap pixel lies within 15 mm of the mass's centre.
    const auto hottest = std::max_element(h.values.begin(), h.values.end()) - h.values.begin();
    const double column = (double(hottest % h.columns) + 0.5) * h.step;
    const double row = (double(hottest / h.columns) + 0.5) * h.step;
    const auto truth = test::labelCentroid(files[i].sample, 1);
    EXPECT_LT(std::hypot(column - truth.first, row - truth.second) * kPixelMm, 15.0) << i;
    EXPECT_GT(h.values[std::size_t(hottest)], 0.3f);
    EXPECT_NE(firstOfKind(image, "mass"), nullptr);  // the params' marks come too
  }
  core::ai::InferRequest plain;
  plain.model = server::kMammoHeatmapModel;
  plain.image = inputs[0].image;
  const core::ai::InferResult labels = client.infer(plain, progress);
  EXPECT_EQ(labels.probability, nullptr);  // read as labels (rounded), as any float answer
  EXPECT_NE(labels.labels, nullptr);
}
