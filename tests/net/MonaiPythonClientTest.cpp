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

// What 3D Slicer's MONAI Label module and the Python client send beyond the plain loop: image
// ids named after a DICOM series ("2: AX T1", quoted with '+' for spaces), an ROI given corner
// high first, upload params that reuse a name the server keeps its own records under, and the
// training status it polls.
TEST(MonaiPythonClient, SlicersIdsRoiAndTrainingPollAreServedAsMonaiLabelServesThem) {
  test::TempDir dir;
  // The command leaves MONAI Label style stats and a line of output, then trains until stopped.
  test::LocalServer server(dir / "store",
                           "printf '{\"current_epoch\": 2, \"total_epochs\": 10}' > "
                           "train_stats.json; echo epoch 2 done; exec sleep 30");
  const std::string& url = server.url();
  const test::BallImage ball;
  const test::BallImage other({20, 20, 18}, 6.0);
  const std::string image = core::ai::volumeToBytes(*ball.image, "ball.nii.gz");
  const std::string otherImage = core::ai::volumeToBytes(*other.image, "other.nii.gz");
  const std::string label = core::ai::volumeToBytes(*ball.truth->asVolume(), "ball.nii.gz");

  // Nothing trained yet: 404, which the clients read as "not training".
  RawAnswer a = rawExchange(url, pyRequest(url, "GET", "/train/?check_if_running=true"));
  EXPECT_EQ(a.status, 404) << a.body;
  EXPECT_EQ(rawExchange(url, pyRequest(url, "GET", "/train/")).status, 404);

  // An id with a colon and spaces, as quote_plus writes it; and one whose file name would be
  // the same once made safe. Each keeps its own image.
  a = rawExchange(url, pyFormRequest(url, "PUT", "/datastore/?image=2%3A+AX+T1",
                                     pyForm({{"params", R"({"client_id": null})"}}, "file",
                                            "ball.nii.gz", image)));
  ASSERT_EQ(a.status, 200) << a.body;
  EXPECT_EQ(jsonOf(a)["image"], "2: AX T1");
  a = rawExchange(url, pyFormRequest(url, "PUT", "/datastore/?image=2__AX_T1",
                                     pyForm({{"params", R"({"strategy": "random"})"}}, "file",
                                            "other.nii.gz", otherImage)));
  ASSERT_EQ(a.status, 200) << a.body;
  a = rawExchange(url, pyRequest(url, "GET", "/datastore/?output=all"));
  EXPECT_TRUE(jsonOf(a)["objects"].contains("2: AX T1")) << a.body;
  EXPECT_TRUE(jsonOf(a)["objects"].contains("2__AX_T1")) << a.body;
  // (Compared as a whole: the bytes themselves are not worth printing.)
  EXPECT_TRUE(rawExchange(url, pyRequest(url, "GET", "/datastore/image?image=2%3A+AX+T1")).body ==
              image)
      << "the image of \"2: AX T1\"";
  EXPECT_TRUE(rawExchange(url, pyRequest(url, "GET", "/datastore/image?image=2__AX_T1")).body ==
              otherImage)
      << "the image of \"2__AX_T1\"";

  // next_sample: the image whose upload params held a "strategy" of their own is still served.
  for (const char* strategy : {"first", "random"}) {
    a = rawExchange(url, pyRequest(url, "POST", std::string("/activelearning/") + strategy,
                                   "application/json", R"({"client_id": null})"));
    ASSERT_EQ(a.status, 200) << strategy << ": " << a.body;
    EXPECT_TRUE(jsonOf(a).contains("id")) << strategy << ": " << a.body;
  }

  // Inference by that id with Slicer's ROI: corners high first on i and j, a flat k.
  for (const char* roi : {"[34, 15, 32, 13, 20, 20]", "[15, 34, 13, 32, 20, 21]"}) {
    const std::string params =
        std::string(R"({"foreground": [[24, 22, 20]], "background": [], "roi": )") + roi +
        R"(, "client_id": null})";
    a = rawExchange(url, pyFormRequest(url, "POST", "/infer/local_deepgrow?image=2%3A+AX+T1",
                                       pyForm({{"params", params}})));
    ASSERT_EQ(a.status, 200) << roi << ": " << a.body.substr(0, 300);
    const auto proposal = labelOfInferAnswer(a, ball);
    ASSERT_NE(proposal, nullptr);
    EXPECT_GT(test::dice(*proposal, *ball.truth), 0.75) << roi;
  }
  a = rawExchange(url, pyFormRequest(url, "PUT", "/datastore/label?image=2%3A+AX+T1&tag=final",
                                     pyForm({{"params", "{}"}}, "label", "ball.nii.gz", label)));
  ASSERT_EQ(a.status, 200) << a.body;
  EXPECT_TRUE(
      rawExchange(url, pyRequest(url, "GET", "/datastore/label?label=2%3A+AX+T1&tag=final")).body ==
      label)
      << "the label of \"2: AX T1\"";

  // A session's info is answered as itself, named by its id.
  a = rawExchange(url, requestsSessionPut(url, "ball.nii.gz", image));
  const std::string session = jsonOf(a).value("session_id", "");
  ASSERT_FALSE(session.empty()) << a.body;
  a = rawExchange(url, pyRequest(url, "GET", "/session/" + session));
  ASSERT_EQ(a.status, 200) << a.body;
  EXPECT_TRUE(jsonOf(a).contains("expiry")) << a.body;
  EXPECT_EQ(jsonOf(a).value("name", ""), session) << a.body;

  // Training: running while it runs, with the epoch the clients read and the output's last
  // line; stopping answers the stopped run, then null.
  a = rawExchange(url, pyRequest(url, "POST", "/train/local_deepgrow", "application/json", "{}"));
  ASSERT_EQ(a.status, 200) << a.body;
  a = rawExchange(url, pyRequest(url, "GET", "/train/?check_if_running=true"));
  ASSERT_EQ(a.status, 200) << a.body;
  EXPECT_EQ(jsonOf(a)["status"], "RUNNING") << a.body;
  json info;
  for (int tries = 0; tries < 100; ++tries) {  // the command writes its stats as it starts
    info = jsonOf(rawExchange(url, pyRequest(url, "GET", "/info/")));
    if (info["train_stats"]["local_deepgrow"].contains("epoch")) {
      break;
    }
    ::usleep(50000);
  }
  EXPECT_EQ(info["train_stats"]["local_deepgrow"].value("epoch", 0), 2) << info.dump();
  a = rawExchange(url, pyRequest(url, "DELETE", "/train/"));
  ASSERT_EQ(a.status, 200) << a.body;
  EXPECT_EQ(jsonOf(a)["status"], "STOPPED") << a.body;
  ASSERT_TRUE(jsonOf(a)["details"].is_array()) << a.body;
  EXPECT_FALSE(jsonOf(a)["details"].empty()) << a.body;
  EXPECT_EQ(jsonOf(rawExchange(url, pyRequest(url, "DELETE", "/train/"))), json())
      << "nothing runs";
  EXPECT_EQ(rawExchange(url, pyRequest(url, "GET", "/train/?check_if_running=true")).status, 404);
  a = rawExchange(url, pyRequest(url, "GET", "/train/?all=true"));
  ASSERT_EQ(a.status, 200) << a.body;
  EXPECT_TRUE(jsonOf(a).is_array()) << a.body;
}
