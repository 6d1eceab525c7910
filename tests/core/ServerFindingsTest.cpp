// findingsFromServer with a scripted backend (no sockets): one request per image carrying the
// model, the image (MONOCHROME1 turned round so that dense is bright) and its laterality and view;
// the answers merged in image order with the source, the demonstration flag and the risk score
// 1 - prod(1 - p); errors naming the server and the image file; cancellation.
#include <gtest/gtest.h>

#include <functional>

#include "core/Error.h"
#include "core/jobs/ProgressSink.h"
#include "core/mammo/ServerFindings.h"

using namespace delineate::core;
using namespace delineate::core::mammo;
using nlohmann::json;

namespace {

class ScriptedBackend : public ai::AiBackend {
 public:
  using Answer = std::function<json(const ai::InferRequest&)>;
  explicit ScriptedBackend(Answer answer) : answer_(std::move(answer)) {}

  std::string displayName() const override { return "Scripted at http://stub:8000"; }
  ai::ServerInfo info(ProgressSink&) override { return {}; }
  ai::InferResult infer(const ai::InferRequest& request, ProgressSink& progress) override {
    progress.throwIfCancelled();
    requests.push_back(request);
    ai::InferResult r;
    r.params = answer_(request);
    return r;
  }

  std::vector<ai::InferRequest> requests;

 private:
  Answer answer_;
};

DetectorImage image(const std::string& file, Laterality laterality, ViewCode view,
                    const std::string& photometric = "MONOCHROME2") {
  ImageGeometry g;
  g.size = {4, 3, 1};
  g.spacing = {0.1, 0.1, 1};
  auto voxels = std::make_shared<VoxelBuffer>(ScalarType::UInt16, g.voxelCount());
  for (std::size_t i = 0; i < g.voxelCount(); ++i) {
    voxels->as<std::uint16_t>()[i] = static_cast<std::uint16_t>(100 + 10 * i);
  }
  VolumeInfo info;
  info.modality = "MG";
  info.photometric = photometric;
  info.sourceFiles = {file};
  DetectorImage d;
  d.image = std::make_shared<const Volume>(g, voxels, info);
  d.view.id = "uid-" + file;
  d.view.laterality = laterality;
  d.view.view = view;
  return d;
}

}  // namespace

TEST(ServerFindings, MergesTheAnswersInImageOrderWithSourceFlagAndRisk) {
  int call = 0;
  ScriptedBackend backend([&call](const ai::InferRequest&) -> json {
    switch (call++) {
      case 0:
        return {{"boxes", {{10, 20, 30, 40}, {0, 0, 2, 2}}},
                {"scores", {0.2, 0.6}},
                {"labels", {2, 1}},
                {"label_names", {{"mass", 1}, {"calcification", 2}}},
                {"probability", 0.6},
                {"demonstration", true}};
      case 1:
        return {{"boxes", json::array()}, {"probability", 0.5}};
      default:
        return {{"boxes", {{5, 5, 7, 9}}}};  // no probability: left out of the risk
    }
  });
  NullProgress progress;
  const StudyFindings f =
      findingsFromServer(backend, "det",
                         {image("/x/L_CC.dcm", Laterality::Left, ViewCode::CC),
                          image("/x/R_CC.dcm", Laterality::Right, ViewCode::CC),
                          image("/x/L_MLO.dcm", Laterality::Left, ViewCode::MLO)},
                         progress);
  EXPECT_EQ(f.source, "Scripted at http://stub:8000 model det");
  EXPECT_TRUE(f.demonstration);
  ASSERT_TRUE(f.riskScore);
  EXPECT_NEAR(*f.riskScore, 1 - (1 - 0.6) * (1 - 0.5), 1e-12);
  ASSERT_EQ(f.images.size(), 3u);
  EXPECT_EQ(f.images[0].imageId, "uid-/x/L_CC.dcm");
  ASSERT_EQ(f.images[0].marks.size(), 2u);
  EXPECT_EQ(f.images[0].marks[0].kind, "mass");  // highest score first
  EXPECT_DOUBLE_EQ(f.images[0].marks[0].column, 1);
  EXPECT_EQ(f.images[0].marks[1].kind, "calcification");
  EXPECT_DOUBLE_EQ(f.images[0].marks[1].row, 30);
  EXPECT_TRUE(f.images[1].marks.empty());
  ASSERT_EQ(f.images[2].marks.size(), 1u);
  EXPECT_EQ(f.images[2].marks[0].kind, "finding");
  ASSERT_EQ(backend.requests.size(), 3u);
  EXPECT_EQ(backend.requests[0].model, "det");
  EXPECT_EQ(backend.requests[0].options["laterality"], "L");
  EXPECT_EQ(backend.requests[0].options["view"], "CC");
  EXPECT_EQ(backend.requests[2].options["view"], "MLO");
  EXPECT_EQ(backend.requests[1].options["laterality"], "R");
}

TEST(ServerFindings, NoDemonstrationFlagAndNoProbabilityGiveNeither) {
  ScriptedBackend backend([](const ai::InferRequest&) -> json {
    return {{"boxes", {{1, 1, 2, 2}}}, {"demonstration", false}};
  });
  NullProgress progress;
  const StudyFindings f = findingsFromServer(
      backend, "det", {image("a.dcm", Laterality::Unknown, ViewCode::Unknown)}, progress);
  EXPECT_FALSE(f.demonstration);
  EXPECT_FALSE(f.riskScore);
  ASSERT_EQ(backend.requests.size(), 1u);
  EXPECT_TRUE(backend.requests[0].options.empty()) << backend.requests[0].options.dump();
}

TEST(ServerFindings, AMonochrome1ImageIsSentWithDenseBright) {
  ScriptedBackend backend([](const ai::InferRequest&) -> json { return {{"probability", 0.1}}; });
  NullProgress progress;
  const DetectorImage m1 = image("m1.dcm", Laterality::Left, ViewCode::CC, "MONOCHROME1");
  const DetectorImage m2 = image("m2.dcm", Laterality::Left, ViewCode::CC);
  findingsFromServer(backend, "det", {m1, m2}, progress);
  ASSERT_EQ(backend.requests.size(), 2u);
  const Volume& sent = *backend.requests[0].image;
  EXPECT_EQ(sent.info().photometric, "MONOCHROME2");
  EXPECT_TRUE(sent.geometry().sameGrid(m1.image->geometry()));
  const auto* in = m1.image->data<std::uint16_t>();
  const auto* out = sent.data<std::uint16_t>();
  for (std::size_t i = 0; i < 12; ++i) {
    EXPECT_EQ(out[i], 100 + 210 - in[i]) << i;  // min + max - value
  }
  EXPECT_EQ(backend.requests[1].image, m2.image) << "MONOCHROME2 goes as it is";
}

TEST(ServerFindings, ErrorsNameTheServerAndTheImageFile) {
  {
    ScriptedBackend backend([](const ai::InferRequest&) -> json {
      throw Error(ErrorKind::Network, "http://stub:8000", "cannot connect to the server");
    });
    NullProgress progress;
    try {
      findingsFromServer(backend, "det", {image("/exam/L_CC.dcm", Laterality::Left, ViewCode::CC)},
                         progress);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::Network);
      EXPECT_EQ(e.where(), "Scripted at http://stub:8000");
      EXPECT_EQ(e.detail(), "/exam/L_CC.dcm: cannot connect to the server");
    }
  }
  {
    int call = 0;
    ScriptedBackend backend([&call](const ai::InferRequest&) -> json {
      return call++ == 0 ? json{{"probability", 0.2}} : json{{"boxes", "several"}};
    });
    NullProgress progress;
    try {
      findingsFromServer(backend, "det",
                         {image("/exam/L_CC.dcm", Laterality::Left, ViewCode::CC),
                          image("/exam/L_MLO.dcm", Laterality::Left, ViewCode::MLO)},
                         progress);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
      EXPECT_EQ(e.where(), "Scripted at http://stub:8000");
      EXPECT_NE(e.detail().find("/exam/L_MLO.dcm: the answer of model 'det' is not a findings"),
                std::string::npos)
          << e.detail();
      EXPECT_NE(e.detail().find("\"boxes\" must be a list"), std::string::npos) << e.detail();
    }
  }
  {
    ScriptedBackend backend([](const ai::InferRequest&) -> json { return {}; });
    NullProgress progress;
    DetectorImage none;
    none.view.id = "1.2.3";
    try {
      findingsFromServer(backend, "det", {none}, progress);
      ADD_FAILURE() << "no error";
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::InvalidInput);
      EXPECT_NE(std::string(e.what()).find("1.2.3"), std::string::npos) << e.what();
    }
  }
}

TEST(ServerFindings, ACancelledJobStopsBeforeTheNextRequest) {
  CancelToken token;
  ScriptedBackend backend([&token](const ai::InferRequest&) -> json {
    token.cancel();
    return {{"probability", 0.2}};
  });
  NullProgress progress(token);
  EXPECT_THROW(findingsFromServer(backend, "det",
                                  {image("a.dcm", Laterality::Left, ViewCode::CC),
                                   image("b.dcm", Laterality::Left, ViewCode::MLO)},
                                  progress),
               CancelledError);
  EXPECT_EQ(backend.requests.size(), 1u);
}
