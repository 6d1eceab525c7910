// delineate-server answers MONAI Label's own Python client (monailabel/client/client.py) as that
// client talks: the requests below are written byte for byte as it writes them (http.client's
// headers, its fixed multipart boundary with a '$', `"client_id": null` in every params, a file
// name with folders in it; and the `requests` library's form for a new session), over a plain
// socket, so nothing of Delineate's own HTTP client smooths them. The client itself is not in
// this repository: docs/ai.md ("Other clients") says what it sends.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <optional>

#include "AiTestSupport.h"
#include "core/ai/Multipart.h"
#include "core/ai/NiftiLabelBytes.h"
#include "core/ai/VolumeBytes.h"
#include "core/jobs/ProgressSink.h"

using namespace delineate;
using nlohmann::json;

namespace {

// The boundary the Python client writes into every form it encodes itself.
const std::string kPyBoundary = "----------lImIt_of_THE_fIle_eW_$";

struct RawAnswer {
  int status = 0;
  std::string head;  // status line and headers
  std::string body;
};

std::optional<std::size_t> contentLengthOf(const std::string& head) {
  std::string lower = head;
  for (char& c : lower) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  const auto at = lower.find("\r\ncontent-length:");
  if (at == std::string::npos) {
    return std::nullopt;
  }
  return static_cast<std::size_t>(std::stoull(head.substr(at + 17)));
}

// Sends `bytes` on a new connection to `url` and reads one answer (by its Content-Length, or to
// the end of the connection).
RawAnswer rawExchange(const std::string& url, const std::string& bytes) {
  const int port = std::stoi(url.substr(url.rfind(':') + 1));
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  RawAnswer out;
  if (::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
    ::close(fd);
    ADD_FAILURE() << "cannot connect to " << url;
    return out;
  }
  timeval timeout{60, 0};
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  for (std::size_t sent = 0; sent < bytes.size();) {
    const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      break;
    }
    sent += static_cast<std::size_t>(n);
  }
  std::string all;
  std::optional<std::size_t> headEnd, length;
  char buf[65536];
  // The server runs in this process: its training child's SIGCHLD may interrupt a wait here.
  for (ssize_t n; (n = ::recv(fd, buf, sizeof(buf), 0)) > 0 || (n < 0 && errno == EINTR);) {
    if (n < 0) {
      continue;
    }
    all.append(buf, static_cast<std::size_t>(n));
    if (!headEnd && all.find("\r\n\r\n") != std::string::npos) {
      headEnd = all.find("\r\n\r\n") + 4;
      length = contentLengthOf(all.substr(0, *headEnd));
    }
    if (headEnd && length && all.size() >= *headEnd + *length) {
      break;
    }
  }
  ::close(fd);
  if (!headEnd) {
    ADD_FAILURE() << "no answer from " << url << " (" << all.size() << " bytes, errno " << errno
                  << ")";
    return out;
  }
  out.head = all.substr(0, *headEnd);
  out.body = all.substr(*headEnd);
  out.status = std::stoi(out.head.substr(9, 3));
  return out;
}

// A request as Python's http.client writes it for the MONAI Label client: Host and
// Accept-Encoding, then the client's own lower-case content headers when there is a body.
std::string pyRequest(const std::string& url, const std::string& method, const std::string& target,
                      const std::string& contentType = {}, const std::string& body = {}) {
  std::string r = method + " " + target + " HTTP/1.1\r\nHost: " + url.substr(7) +
                  "\r\nAccept-Encoding: identity\r\n";
  if (!body.empty()) {
    r += "content-type: " + contentType + "\r\ncontent-length: " + std::to_string(body.size()) +
         "\r\n";
  }
  return r + "\r\n" + body;
}

// The client's own form encoding: each line ends in CRLF, the last one empty.
std::string pyForm(const std::vector<std::pair<std::string, std::string>>& fields,
                   const std::string& fileField = {}, const std::string& fileName = {},
                   const std::string& fileBytes = {}) {
  std::string b;
  for (const auto& [name, value] : fields) {
    b += "--" + kPyBoundary + "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" +
         value + "\r\n";
  }
  if (!fileField.empty()) {
    b += "--" + kPyBoundary + "\r\nContent-Disposition: form-data; name=\"" + fileField +
         "\"; filename=\"" + fileName + "\"\r\nContent-Type: application/octet-stream\r\n\r\n" +
         fileBytes + "\r\n";
  }
  return b + "--" + kPyBoundary + "--\r\n\r\n";
}

std::string pyFormRequest(const std::string& url, const std::string& method,
                          const std::string& target, const std::string& form) {
  return pyRequest(url, method, target, "multipart/form-data; boundary=" + kPyBoundary, form);
}

// PUT /session/ goes through the `requests` library instead: its own headers, a random hex
// boundary, the file part without a Content-Type, and `client_id: None` left out of the form.
std::string requestsSessionPut(const std::string& url, const std::string& fileName,
                               const std::string& bytes) {
  const std::string boundary = "682edf7060e0d7b02c53f9588ab6d04d";
  const std::string body = "--" + boundary +
                           "\r\nContent-Disposition: form-data; name=\"files\"; filename=\"" +
                           fileName + "\"\r\n\r\n" + bytes + "\r\n--" + boundary + "--\r\n";
  return "PUT /session/ HTTP/1.1\r\nHost: " + url.substr(7) +
         "\r\nUser-Agent: python-requests/2.28.1\r\nAccept-Encoding: gzip, deflate\r\nAccept: "
         "*/*\r\nConnection: keep-alive\r\nContent-Length: " +
         std::to_string(body.size()) +
         "\r\nContent-Type: multipart/form-data; boundary=" + boundary + "\r\n\r\n" + body;
}

json jsonOf(const RawAnswer& a) {
  return json::parse(a.body, nullptr, false);
}

// The label image of an infer answer (multipart: `params` and one file), on the ball's grid.
std::shared_ptr<core::LabelMap> labelOfInferAnswer(const RawAnswer& a, const test::BallImage& b) {
  const auto typeAt = a.head.find("multipart/form-data");
  if (typeAt == std::string::npos) {
    ADD_FAILURE() << "not a form: " << a.head;
    return nullptr;
  }
  const std::string type = a.head.substr(typeAt, a.head.find("\r\n", typeAt) - typeAt);
  const auto parts = core::ai::parseMultipart(type, a.body);
  for (const auto& p : parts) {
    if (p.filename) {
      core::NullProgress progress;
      return core::ai::labelMapFromNiftiBytes(std::string(p.body), b.image->geometry(), "ai",
                                              {{.label = 1}}, "delineate-server", progress);
    }
  }
  ADD_FAILURE() << "no file in the answer";
  return nullptr;
}

}  // namespace

TEST(MonaiPythonClient, ItsWholeAnnotationLoopIsServed) {
  test::TempDir dir;
  test::LocalServer server(dir / "store", "true");
  const std::string& url = server.url();
  const test::BallImage ball;
  const std::string image = core::ai::volumeToBytes(*ball.image, "ball.nii.gz");
  const std::string label = core::ai::volumeToBytes(*ball.truth->asVolume(), "ball.nii.gz");
  const std::string nullClient = R"({"client_id": null})";

  // info
  RawAnswer a = rawExchange(url, pyRequest(url, "GET", "/info/"));
  ASSERT_EQ(a.status, 200) << a.body;
  EXPECT_TRUE(jsonOf(a)["models"].contains("local_deepgrow"));

  // upload_image(): a file name with folders, params with a null client id.
  a = rawExchange(url, pyFormRequest(url, "PUT", "/datastore/?image=case1",
                                     pyForm({{"params", nullClient}}, "file",
                                            "data/cases/ball.nii.gz", image)));
  ASSERT_EQ(a.status, 200) << a.body;
  EXPECT_EQ(jsonOf(a)["image"], "case1");

  // datastore(): the image is listed, as stored.
  a = rawExchange(url, pyRequest(url, "GET", "/datastore/?output=all"));
  ASSERT_EQ(a.status, 200) << a.body;
  EXPECT_TRUE(jsonOf(a)["objects"].contains("case1")) << a.body;

  // next_sample("random", {}): the unlabelled image, although every client id was null.
  a = rawExchange(url,
                  pyRequest(url, "POST", "/activelearning/random", "application/json", nullClient));
  ASSERT_EQ(a.status, 200) << a.body;
  EXPECT_EQ(jsonOf(a).value("id", ""), "case1") << a.body;

  // infer() by datastore id: deepgrow from a click in the ball.
  const std::string click =
      R"({"foreground": [[24, 22, 20]], "background": [], "client_id": null})";
  a = rawExchange(url, pyFormRequest(url, "POST", "/infer/local_deepgrow?image=case1",
                                     pyForm({{"params", click}})));
  ASSERT_EQ(a.status, 200) << a.body.substr(0, 300);
  auto proposal = labelOfInferAnswer(a, ball);
  ASSERT_NE(proposal, nullptr);
  EXPECT_GT(test::dice(*proposal, *ball.truth), 0.8);

  // create_session() through `requests`, then infer() by session with an empty image id.
  a = rawExchange(url, requestsSessionPut(url, "ball.nii.gz", image));
  ASSERT_EQ(a.status, 200) << a.body;
  const std::string session = jsonOf(a).value("session_id", "");
  ASSERT_FALSE(session.empty()) << a.body;
  a = rawExchange(url,
                  pyFormRequest(url, "POST", "/infer/local_deepgrow?image=&session_id=" + session,
                                pyForm({{"params", click}})));
  ASSERT_EQ(a.status, 200) << a.body.substr(0, 300);
  proposal = labelOfInferAnswer(a, ball);
  ASSERT_NE(proposal, nullptr);
  EXPECT_GT(test::dice(*proposal, *ball.truth), 0.8);
  EXPECT_EQ(rawExchange(url, pyRequest(url, "GET", "/session/" + session)).status, 200);
  EXPECT_EQ(rawExchange(url, pyRequest(url, "DELETE", "/session/" + session)).status, 200);
  EXPECT_EQ(rawExchange(url, pyRequest(url, "GET", "/session/" + session)).status, 404);

  // save_label() with tag "final", and download_label() gives the same bytes back.
  a = rawExchange(url, pyFormRequest(url, "PUT", "/datastore/label?image=case1&tag=final",
                                     pyForm({{"params", nullClient}}, "label",
                                            "data/labels/ball.nii.gz", label)));
  ASSERT_EQ(a.status, 200) << a.body;
  a = rawExchange(url, pyRequest(url, "GET", "/datastore/label?label=case1&tag=final"));
  ASSERT_EQ(a.status, 200) << a.body.substr(0, 200);
  EXPECT_EQ(a.body, label);

  // next_sample() again: nothing left to label.
  a = rawExchange(url,
                  pyRequest(url, "POST", "/activelearning/random", "application/json", nullClient));
  ASSERT_EQ(a.status, 200) << a.body;
  EXPECT_FALSE(jsonOf(a).contains("id")) << a.body;

  // train_start(), train_status(), train_stop().
  a = rawExchange(url,
                  pyRequest(url, "POST", "/train/local_deepgrow", "application/json", nullClient));
  EXPECT_EQ(a.status, 200) << a.body;
  EXPECT_EQ(rawExchange(url, pyRequest(url, "GET", "/train/")).status, 200);
  EXPECT_EQ(rawExchange(url, pyRequest(url, "DELETE", "/train/")).status, 200);
}

TEST(MonaiPythonClient, AParamOfTheWrongTypeIsTheClientsErrorNamingIt) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  const std::string& url = server.url();
  const test::BallImage ball;
  const std::string image = core::ai::volumeToBytes(*ball.image, "ball.nii.gz");
  const RawAnswer a = rawExchange(
      url, pyFormRequest(url, "POST", "/infer/local_deepgrow",
                         pyForm({{"params", R"({"foreground": [[24, 22, 20]], "label": 5})"}},
                                "file", "ball.nii.gz", image)));
  EXPECT_EQ(a.status, 400) << a.body;
  EXPECT_NE(a.body.find("\\\"label\\\" must be a text"), std::string::npos) << a.body;
}
