// What leaves the workstation for an AI server (delineate-server in this process, every request
// it receives recorded): an image that may show identifying text is refused before a single
// request goes out while the server has de-identification on, and sent when it is off; what is
// sent for an ordinary DICOM image (sessions, uploads with the request, the datastore) names
// neither the patient, the study nor the source folder, in the HTTP request or inside the NIfTI.
#include <gtest/gtest.h>
#include <zlib.h>

#include <cstring>
#include <mutex>

#include "AiTestSupport.h"
#include "RunCommand.h"
#include "core/ai/Multipart.h"
#include "core/deid/HeldBackError.h"
#include "core/io/DicomScanner.h"
#include "core/io/DicomSeriesLoader.h"
#include "core/io/DicomSeriesWriter.h"
#include "plugins/clara-aiaa/ClaraAiaaBackend.h"
#include "plugins/monai-label/MonaiLabelBackend.h"

using namespace delineate;

namespace {

namespace fs = std::filesystem;

// What identifies the patient of the test image; none of it may reach the server.
const std::vector<std::string> kIdentifiers = {
    "DOE",          "Doe",          "JANE",     "Jane",
    "PID-4711",     "ACC-0815",     "19610203", "1.2.826.0.1.3680043.10.4711",
    "Head of Jane", "st-mungo-pacs"};

// delineate-server's handler behind a real listener, keeping every request it received.
class RecordingServer {
 public:
  explicit RecordingServer(const fs::path& datastore) {
    server::ServerOptions options;
    options.datastore = datastore;
    app_ = std::make_unique<server::MonaiServer>(std::make_shared<annotation::LocalEngineBackend>(),
                                                 options);
    url_ = "http://127.0.0.1:" + std::to_string(core::net::freeLocalPort());
    http_ =
        std::make_unique<core::net::HttpServer>(url_, [this](const core::net::ServerRequest& r) {
          {
            std::lock_guard lock(mutex_);
            requests_.push_back(r);
          }
          return app_->handle(r);
        });
  }
  const std::string& url() const { return url_; }
  server::MonaiServer& app() { return *app_; }
  std::vector<core::net::ServerRequest> requests() {
    std::lock_guard lock(mutex_);
    return requests_;
  }

 private:
  std::unique_ptr<server::MonaiServer> app_;
  std::string url_;
  std::mutex mutex_;
  std::vector<core::net::ServerRequest> requests_;
  std::unique_ptr<core::net::HttpServer> http_;
};

// The ball image as a DICOM series of an identifiable patient, read back as the app reads it.
core::VolumePtr identifiableBall(const fs::path& folder, const std::string& burnedIn) {
  const test::BallImage ball;
  core::VolumeInfo info = ball.image->info();
  info.patientName = "DOE^JANE";
  info.patientId = "PID-4711";
  info.patientBirthDate = "19610203";
  info.accessionNumber = "ACC-0815";
  info.studyInstanceUid = "1.2.826.0.1.3680043.10.4711.1";
  info.seriesInstanceUid = "1.2.826.0.1.3680043.10.4711.2";
  info.frameOfReferenceUid = "1.2.826.0.1.3680043.10.4711.3";
  info.seriesDescription = "Head of Jane";
  const core::Volume named(ball.image->geometry(),
                           std::const_pointer_cast<core::VoxelBuffer>(ball.image->sharedVoxels()),
                           info);
  core::DicomWriteOptions options;
  options.attributes = {{"BurnedInAnnotation", burnedIn}, {"InstitutionName", "st-mungo-pacs"}};
  core::NullProgress progress;
  core::writeDicomSeries(named, folder, options, progress);
  const auto scan = core::scanDicomFolder(folder, progress);
  return core::loadDicomSeries(*scan.allSeries().at(0), progress);
}

core::ai::InferRequest clickOn(const core::VolumePtr& image) {
  core::ai::InferRequest r;
  r.model = annotation::LocalEngineBackend::kClickModel;
  r.image = image;
  r.label = "Lesion";
  r.foreground = {test::BallImage().centre};
  return r;
}

plugins::MonaiServerConfig monaiAt(const std::string& url, bool deidentify = true) {
  plugins::MonaiServerConfig c;
  c.url = url;
  c.outbound.deidentify = deidentify;
  return c;
}

// The bytes of a gzip stream, inflated; empty when they are not one.
std::string gunzip(std::string_view bytes) {
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) {
    return {};
  }
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = static_cast<uInt>(bytes.size());
  std::string out;
  char buffer[65536];
  int status = Z_OK;
  while (status == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buffer);
    z.avail_out = sizeof buffer;
    status = inflate(&z, Z_NO_FLUSH);
    out.append(buffer, sizeof buffer - z.avail_out);
  }
  inflateEnd(&z);
  return status == Z_STREAM_END ? out : std::string();
}

// Every place of `request` that could carry an identifier, as text: the request line, the
// headers, the body, and each NIfTI file inside it inflated.
std::string everything(const core::net::ServerRequest& r, std::vector<std::string>& niftis,
                       std::vector<std::string>& filenames) {
  std::string all = r.method + " " + r.path + "\n";
  for (const auto& [key, value] : r.query) {
    all += key + "=" + value + "\n";
  }
  for (const auto& [key, value] : r.headers) {
    all += key + ": " + value + "\n";
  }
  all += r.body;
  if (core::ai::multipartBoundary(r.header("Content-Type"))) {
    for (const core::ai::MultipartPart& part :
         core::ai::parseMultipart(r.header("Content-Type"), std::string_view(r.body))) {
      if (part.filename) {
        filenames.push_back(*part.filename);
        const std::string inflated = gunzip(part.body);
        EXPECT_FALSE(inflated.empty()) << *part.filename << " is gzipped NIfTI";
        EXPECT_EQ(static_cast<unsigned char>(part.body[3]) & 0x08, 0)
            << "the gzip header of " << *part.filename << " names no file";
        niftis.push_back(inflated);
        all += inflated;
      }
    }
  }
  return all;
}

}  // namespace

TEST(OutboundDeid, ABurnedInImageIsRefusedBeforeAnyRequestWhileDeidentificationIsOn) {
  test::TempDir dir;
  RecordingServer server(dir / "store");
  const core::VolumePtr image = identifiableBall(dir / "burned", "YES");
  core::NullProgress progress;

  plugins::MonaiLabelBackend monai(monaiAt(server.url()));
  try {
    monai.infer(clickOn(image), progress);
    ADD_FAILURE() << "a burned-in image was sent";
  } catch (const core::deid::HeldBackError& e) {
    EXPECT_EQ(e.where(), server.url());
    EXPECT_NE(e.detail().find((dir / "burned").string()), std::string::npos) << e.what();
    EXPECT_NE(e.detail().find("Burned In Annotation is YES"), std::string::npos) << e.what();
  }
  EXPECT_THROW(monai.uploadImage(*image, "", progress), core::deid::HeldBackError);
  plugins::ClaraServerConfig clara;
  clara.url = server.url();
  plugins::ClaraAiaaBackend aiaa(clara);
  EXPECT_THROW(aiaa.infer(clickOn(image), progress), core::deid::HeldBackError);

  EXPECT_TRUE(server.requests().empty()) << "not even the model list was asked for";
  EXPECT_EQ(server.app().sessions().size(), 0u);

  // A trusted server (de-identification off) gets it, still without identifiers in the names.
  plugins::MonaiLabelBackend trusted(monaiAt(server.url(), false));
  const core::ai::InferResult result = trusted.infer(clickOn(image), progress);
  ASSERT_NE(result.labels, nullptr);
  EXPECT_GT(test::dice(*result.labels, *test::BallImage().truth), 0.9);
  EXPECT_EQ(server.app().sessions().size(), 1u);
}

TEST(OutboundDeid, WhatIsSentNamesNeitherThePatientNorTheStudyNorTheFolder) {
  test::TempDir dir;
  RecordingServer server(dir / "store");
  const core::VolumePtr image = identifiableBall(dir / "DOE_JANE-PID-4711", "NO");
  ASSERT_EQ(image->info().patientId, "PID-4711") << "the loaded image knows who it shows";
  core::NullProgress progress;

  plugins::MonaiLabelBackend sessions(monaiAt(server.url()));
  EXPECT_GT(test::dice(*sessions.infer(clickOn(image), progress).labels, *test::BallImage().truth),
            0.9);
  plugins::MonaiServerConfig oneCall = monaiAt(server.url());
  oneCall.useSessions = false;
  plugins::MonaiLabelBackend uploads(oneCall);
  uploads.infer(clickOn(image), progress);
  const std::string stored = sessions.uploadImage(*image, "", progress);
  plugins::ClaraServerConfig claraConfig;
  claraConfig.url = server.url();
  plugins::ClaraAiaaBackend clara(claraConfig);
  clara.infer(clickOn(image), progress);

  std::vector<std::string> niftis, filenames;
  std::size_t requests = 0;
  for (const core::net::ServerRequest& r : server.requests()) {
    ++requests;
    const std::string all = everything(r, niftis, filenames);
    for (const std::string& id : kIdentifiers) {
      EXPECT_EQ(all.find(id), std::string::npos) << r.method << " " << r.path << ": " << id;
    }
  }
  EXPECT_GE(requests, 6u);
  ASSERT_EQ(niftis.size(), 4u) << "a session, an upload with the request, the datastore, AIAA";
  for (const std::string& name : filenames) {
    EXPECT_TRUE(name == "image.nii.gz" || name == stored + ".nii.gz") << name;
  }
  for (const std::string& nifti : niftis) {
    ASSERT_GE(nifti.size(), 348u);
    // descrip (80 bytes at 148), aux_file (24 at 228), intent_name (16 at 328): all empty.
    EXPECT_EQ(nifti.substr(148, 80), std::string(80, '\0'));
    EXPECT_EQ(nifti.substr(228, 24), std::string(24, '\0'));
    EXPECT_EQ(nifti.substr(328, 16), std::string(16, '\0'));
  }
}

TEST(OutboundDeid, TheCliRefusesABurnedInImageUnlessAllowed) {
  test::TempDir dir;
  RecordingServer server(dir / "store");
  identifiableBall(dir / "burned", "YES");
  const std::string infer = std::string(DELINEATE_CLI) + " infer --server " + server.url() +
                            " --model " + annotation::LocalEngineBackend::kClickModel +
                            " --image " + (dir / "burned").string() + " --fg 24,22,20 --out " +
                            (dir / "out.nii.gz").string();
  std::string output;
  EXPECT_EQ(test::runCommand(infer, &output), 1) << output;
  EXPECT_NE(output.find("Burned In Annotation is YES"), std::string::npos) << output;
  EXPECT_NE(output.find("--allow-burned-in"), std::string::npos)
      << "the refusal says how to send anyway: " << output;
  EXPECT_TRUE(server.requests().empty());
  EXPECT_FALSE(fs::exists(dir / "out.nii.gz"));

  EXPECT_EQ(test::runCommand(infer + " --allow-burned-in", &output), 0) << output;
  EXPECT_TRUE(fs::exists(dir / "out.nii.gz"));
}
