// Dataset upload through the MONAI Label client against delineate-server over HTTP on
// 127.0.0.1: what the client puts is what the server keeps (bytes and info), the server's info
// answers let a client verify that, putting an id again leaves one entry, an interrupted upload
// leaves nothing, and each kind of refusal tells whether trying again can help.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "AiTestSupport.h"
#include "FaultServer.h"
#include "core/Error.h"
#include "core/ai/Multipart.h"
#include "core/ai/ServerAnswerError.h"
#include "core/ai/VolumeBytes.h"
#include "core/jobs/ProgressSink.h"
#include "core/net/HttpClient.h"
#include "core/report/Sha256.h"
#include "plugins/monai-label/MonaiLabelBackend.h"

using namespace delineate;
using core::ai::DatastoreFile;
using core::ai::ServerAnswerError;
using delineate::plugins::MonaiLabelBackend;
using nlohmann::json;

namespace {

plugins::MonaiServerConfig datastoreConfigFor(const std::string& url) {
  plugins::MonaiServerConfig c;
  c.url = url;
  return c;
}

// The file as an upload queue stages it: bytes, and their checksum and size as the info.
DatastoreFile staged(const std::string& filename, std::string bytes, json extra = json::object()) {
  DatastoreFile f;
  f.filename = filename;
  f.info = std::move(extra);
  f.info["sha256"] = core::report::sha256Hex(bytes);
  f.info["size"] = bytes.size();
  f.bytes = std::move(bytes);
  return f;
}

core::net::HttpResponse send(const std::string& method, const std::string& url,
                             const std::string& contentType = {}, const std::string& body = {}) {
  core::net::HttpRequest r;
  r.method = method;
  r.url = url;
  r.contentType = contentType;
  r.body = body;
  core::NullProgress progress;
  return core::net::makeHttpClient()->send(r, progress);
}

// A form with one `info` field, as PUT /datastore/*/info takes it.
core::net::HttpResponse putInfo(const std::string& url, const json& info) {
  core::ai::MultipartEncoder form;
  form.addField("info", info.dump());
  const std::string type = form.contentType();
  return send("PUT", url, type, form.finish());
}

std::size_t filesUnder(const std::filesystem::path& folder) {
  std::size_t n = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(folder)) {
    n += e.is_regular_file() ? 1 : 0;
  }
  return n;
}

// Sends `head` and `body` over a plain socket, then closes the sending side: a client that goes
// away halfway through its upload. Returns what the server answered, if anything.
std::string sendAndHangUp(const std::string& url, const std::string& head,
                          const std::string& body) {
  const int port = std::stoi(url.substr(url.rfind(':') + 1));
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    ::close(fd);
    ADD_FAILURE() << "cannot connect to " << url;
    return {};
  }
  timeval timeout{10, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  const std::string bytes = head + body;
  ::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL);
  ::shutdown(fd, SHUT_WR);
  std::string answer;
  char buf[4096];
  for (ssize_t n; (n = ::recv(fd, buf, sizeof(buf), 0)) > 0;) {
    answer.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return answer;
}

}  // namespace

TEST(DatastoreClient, AnImageIsStoredWithItsInfoAndReadBackAsSent) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  test::BallImage ball;
  MonaiLabelBackend client(datastoreConfigFor(server.url()));
  core::NullProgress progress;
  const DatastoreFile file =
      staged("case-1.nii.gz", core::ai::volumeToBytes(*ball.image, "x.nii.gz"));
  EXPECT_EQ(client.putImageFile("case-1", file, progress), "case-1");

  const std::optional<json> info = client.imageInfo("case-1", progress);
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->value("sha256", ""), file.info["sha256"]);
  EXPECT_EQ(info->value("size", 0u), file.bytes.size());
  EXPECT_EQ(info->value("name", ""), "case-1.nii.gz");
  EXPECT_EQ(info->value("client_id", ""), "delineate");
  const core::net::HttpResponse stored =
      send("GET", server.url() + "/datastore/image?image=case-1");
  ASSERT_EQ(stored.status, 200);
  EXPECT_EQ(core::report::sha256Hex(stored.body), file.info["sha256"]);

  EXPECT_FALSE(client.imageInfo("case-2", progress).has_value());
  EXPECT_EQ(send("HEAD", server.url() + "/datastore/image?image=case-1").status, 200);
  EXPECT_EQ(send("HEAD", server.url() + "/datastore/image?image=case-2").status, 404);
}

TEST(DatastoreClient, ALabelIsStoredWithItsLabelInfoAndTheServersChecksum) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  test::BallImage ball;
  MonaiLabelBackend client(datastoreConfigFor(server.url()));
  core::NullProgress progress;
  client.putImageFile("case-1",
                      staged("case-1.nii.gz", core::ai::volumeToBytes(*ball.image, "x.nii.gz")),
                      progress);
  const json labelInfo = json::array({{{"name", "Lesion"}, {"idx", 1}}});
  const DatastoreFile label =
      staged("case-1.nii.gz", core::ai::volumeToBytes(*ball.truth->asVolume(), "l.nii.gz"),
             {{"label_info", labelInfo}});
  client.putLabelFile("case-1", "final", label, progress);

  const std::optional<json> info = client.labelInfo("case-1", "final", progress);
  ASSERT_TRUE(info.has_value());
  EXPECT_EQ(info->at("label_info"), labelInfo);
  EXPECT_EQ(info->value("sha256", ""), label.info["sha256"]);
  // The server's own digest of what it stored, in MONAI Label's spelling.
  EXPECT_EQ(info->value("checksum", ""), "SHA256:" + label.info["sha256"].get<std::string>());
  EXPECT_FALSE(client.labelInfo("case-1", "original", progress).has_value());
  EXPECT_FALSE(client.labelInfo("case-9", "final", progress).has_value());
  EXPECT_EQ(send("HEAD", server.url() + "/datastore/label?image=case-1&tag=final").status, 200);
  EXPECT_EQ(send("HEAD", server.url() + "/datastore/label?image=case-1&tag=original").status, 404);

  try {
    client.putLabelFile("case-9", "final", label, progress);
    FAIL() << "a label of an image the server does not hold";
  } catch (const ServerAnswerError& e) {
    EXPECT_EQ(e.httpStatus(), 404);
    EXPECT_FALSE(e.transient());
    EXPECT_NE(std::string(e.what()).find("case-9"), std::string::npos) << e.what();
  }
}

TEST(DatastoreClient, PuttingTheSameIdAgainReplacesAndLeavesOneEntry) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  test::BallImage ball;
  MonaiLabelBackend client(datastoreConfigFor(server.url()));
  core::NullProgress progress;
  const std::string image = core::ai::volumeToBytes(*ball.image, "x.nii.gz");
  const std::string label = core::ai::volumeToBytes(*ball.truth->asVolume(), "l.nii.gz");
  for (int attempt = 0; attempt < 3; ++attempt) {  // a queue retrying after lost answers
    const json extra = {{"attempt", attempt}};
    EXPECT_EQ(client.putImageFile("case-1", staged("case-1.nii.gz", image, extra), progress),
              "case-1");
    client.putLabelFile("case-1", "final", staged("case-1.nii.gz", label, extra), progress);
  }
  const core::net::HttpResponse all = send("GET", server.url() + "/datastore/?output=all");
  ASSERT_EQ(all.status, 200);
  const json store = json::parse(all.body);
  ASSERT_EQ(store["objects"].size(), 1u) << all.body;
  EXPECT_EQ(store["objects"]["case-1"]["labels"].size(), 1u) << all.body;
  EXPECT_EQ(store["objects"]["case-1"]["image"]["ext"], ".nii.gz") << "MONAI Label's shape";
  EXPECT_EQ(store["objects"]["case-1"]["labels"]["final"]["info"].value("attempt", -1), 2);
  const auto info = client.info(progress);
  EXPECT_EQ(info.datastore->total, 1);
  EXPECT_EQ(info.datastore->completed, 1);
  EXPECT_EQ(client.imageInfo("case-1", progress)->value("attempt", -1), 2);  // the last one
  EXPECT_EQ(client.labelInfo("case-1", "final", progress)->value("attempt", -1), 2);
  EXPECT_EQ(filesUnder(dir / "store" / "images"), 1u);
  EXPECT_EQ(filesUnder(dir / "store" / "labels"), 1u);
}

TEST(DatastoreClient, InfoIsMergedAndALabelCanBeDeleted) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  test::BallImage ball;
  MonaiLabelBackend client(datastoreConfigFor(server.url()));
  core::NullProgress progress;
  const DatastoreFile file =
      staged("case-1.nii.gz", core::ai::volumeToBytes(*ball.image, "x.nii.gz"));
  client.putImageFile("case-1", file, progress);
  client.putLabelFile(
      "case-1", "final",
      staged("case-1.nii.gz", core::ai::volumeToBytes(*ball.truth->asVolume(), "l.nii.gz")),
      progress);

  const std::string base = server.url() + "/datastore/";
  EXPECT_EQ(putInfo(base + "image/info?image=case-1", {{"reviewed", true}, {"name", "x"}}).status,
            200);
  const json image = client.imageInfo("case-1", progress).value();
  EXPECT_EQ(image.value("reviewed", false), true);
  EXPECT_EQ(image.value("sha256", ""), file.info["sha256"]);  // merged, not replaced
  EXPECT_EQ(image.value("name", ""), "case-1.nii.gz");        // the file stays where it is
  EXPECT_EQ(putInfo(base + "label/info?label=case-1&tag=final", {{"approved_by", "r1"}}).status,
            200);
  EXPECT_EQ(client.labelInfo("case-1", "final", progress)->value("approved_by", ""), "r1");
  EXPECT_EQ(putInfo(base + "image/info?image=case-9", {{"a", 1}}).status, 404);

  EXPECT_EQ(send("DELETE", base + "label?id=case-1&tag=final").status, 200);
  EXPECT_FALSE(client.labelInfo("case-1", "final", progress).has_value());
  EXPECT_EQ(send("HEAD", base + "label?image=case-1&tag=final").status, 404);
  EXPECT_EQ(filesUnder(dir / "store" / "labels"), 0u);
  EXPECT_TRUE(client.imageInfo("case-1", progress).has_value());  // the image stays
}

TEST(DatastoreClient, AnUploadCutShortLeavesNothingBehind) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  test::BallImage ball;
  const std::string image = core::ai::volumeToBytes(*ball.image, "x.nii.gz");
  core::ai::MultipartEncoder form;
  form.addField("params", "{}");
  form.addFile("file", "case-1.nii.gz", image);
  const std::string type = form.contentType();
  const std::string body = form.finish();

  // The whole body announced, half of it sent, then the client is gone.
  const std::string head =
      "PUT /datastore/image?image=case-1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
      "Content-Type: " +
      type + "\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  const std::string answer = sendAndHangUp(server.url(), head, body.substr(0, body.size() / 2));
  EXPECT_EQ(answer.find("HTTP/1.1 200"), std::string::npos) << answer;
  // A body that is whole by its length but lacks the multipart end: cut before it was sent.
  const std::string cut = body.substr(0, body.size() - 40);
  const core::net::HttpResponse r =
      send("PUT", server.url() + "/datastore/image?image=case-2", type, cut);
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_NE(r.body.find("multipart body ends"), std::string::npos) << r.body;

  core::NullProgress progress;
  MonaiLabelBackend client(datastoreConfigFor(server.url()));
  EXPECT_EQ(client.info(progress).datastore->total, 0);
  EXPECT_FALSE(client.imageInfo("case-1", progress).has_value());
  EXPECT_EQ(filesUnder(dir / "store" / "images"), 0u);
}

TEST(DatastoreClient, PartialFilesOfAnInterruptedWriteAreNotImages) {
  test::TempDir dir;
  std::filesystem::create_directories(dir / "store" / "images");
  // What a crash between write and rename leaves: a hidden temporary beside the images.
  std::ofstream(dir / "store" / "images" / ".case-1.partial-99-0.nii.gz") << "half an image";
  std::ofstream(dir / "store" / "images" / "case-2.nii.gz") << "copied in by hand";
  test::LocalServer server(dir / "store");
  MonaiLabelBackend client(datastoreConfigFor(server.url()));
  core::NullProgress progress;
  EXPECT_EQ(client.info(progress).datastore->total, 1);
  EXPECT_TRUE(client.imageInfo("case-2", progress).has_value());
  EXPECT_FALSE(std::filesystem::exists(dir / "store" / "images" / ".case-1.partial-99-0.nii.gz"));
}

namespace {

const std::string kJson = "application/json";

// What putImageFile throws when every request is answered `action`.
ServerAnswerError refusal(const test::FaultAction& action) {
  test::FaultServer fault([action](const std::string&, const std::string&) { return action; });
  MonaiLabelBackend client(datastoreConfigFor(fault.url()));
  core::NullProgress progress;
  try {
    client.putImageFile("case-1", staged("case-1.nii.gz", "bytes"), progress);
  } catch (const ServerAnswerError& e) {
    EXPECT_NE(std::string(e.what()).find(fault.url()), std::string::npos) << e.what();
    return e;
  }
  ADD_FAILURE() << "no ServerAnswerError";
  return ServerAnswerError("", "", 0);
}

}  // namespace

TEST(DatastoreClient, BusyServersSayWhenToComeBack) {
  const ServerAnswerError busy =
      refusal(test::answer(429, kJson, R"({"detail": "Too Many Requests"})", "Retry-After: 7\r\n"));
  EXPECT_EQ(busy.httpStatus(), 429);
  EXPECT_EQ(busy.retryAfterSeconds(), 7.0);
  EXPECT_TRUE(busy.transient());
  EXPECT_NE(std::string(busy.what()).find("PUT /datastore/image"), std::string::npos)
      << busy.what();

  const ServerAnswerError down = refusal(test::answer(
      503, "text/plain", "Service Unavailable", "Retry-After: Sun, 06 Nov 1994 08:49:37 GMT\r\n"));
  EXPECT_TRUE(down.transient());
  EXPECT_EQ(down.retryAfterSeconds(), 0.0);  // a date already past: now
}

TEST(DatastoreClient, ServerFailuresAreTransientAndRefusalsAreNot) {
  const ServerAnswerError crashed =
      refusal(test::answer(500, "text/plain", "Internal Server Error"));
  EXPECT_EQ(crashed.httpStatus(), 500);
  EXPECT_TRUE(crashed.transient());
  EXPECT_FALSE(crashed.retryAfterSeconds().has_value());

  const ServerAnswerError missing = refusal(test::answer(404, kJson, R"({"detail": "Not Found"})"));
  EXPECT_EQ(missing.httpStatus(), 404);
  EXPECT_FALSE(missing.transient());

  const ServerAnswerError invalid = refusal(test::answer(
      422, kJson, R"({"detail": [{"loc": ["body", "file"], "msg": "field required"}]})"));
  EXPECT_EQ(invalid.httpStatus(), 422);
  EXPECT_FALSE(invalid.transient());
}

TEST(DatastoreClient, InfoReadsTellNoneFromFailure) {
  const auto script = [](const std::string&, const std::string& path) {
    if (path == "/datastore/image/info") {
      return test::answer(404, kJson, R"({"detail": "Not Found"})");
    }
    if (path == "/datastore/label/info") {
      return test::answer(503, "text/plain", "Service Unavailable", "Retry-After: 3\r\n");
    }
    return test::answer(200, kJson, "[1, 2]");  // not an info object
  };
  test::FaultServer fault(script);
  MonaiLabelBackend client(datastoreConfigFor(fault.url()));
  core::NullProgress progress;
  EXPECT_FALSE(client.imageInfo("case-1", progress).has_value());
  try {
    client.labelInfo("case-1", "final", progress);
    FAIL() << "a 503 is no answer";
  } catch (const ServerAnswerError& e) {
    EXPECT_TRUE(e.transient());
    EXPECT_EQ(e.retryAfterSeconds(), 3.0);
  }
  MonaiLabelBackend odd(datastoreConfigFor(fault.url() + "/odd"));
  EXPECT_THROW(odd.imageInfo("case-1", progress), core::Error);
}
