// The nnInteractive v2 client against delineate-server's nnInteractive routes over HTTP on
// 127.0.0.1: leases, the image sent once, points, boxes, scribbles and lassos on the axial,
// coronal and sagittal planes, server undo, several clients at once, a full server, an expired
// lease claimed again, a wrong API key, prompts outside the image, and what the wire carries.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "AiTestSupport.h"
#include "core/Error.h"
#include "core/ai/PackedArray.h"
#include "core/ai/ServerAnswerError.h"
#include "core/jobs/ProgressSink.h"
#include "core/net/HttpClient.h"
#include "plugins/nninteractive/NnInteractiveBackend.h"

using namespace delineate;
using core::ai::Prompt;
using core::ai::PromptKind;
using nlohmann::json;
using plugins::NnInteractiveBackend;

namespace {

std::unique_ptr<NnInteractiveBackend> clientOf(const std::string& url, std::string key = {}) {
  plugins::NnInteractiveConfig c;
  c.url = url;
  c.apiKey = std::move(key);
  return std::make_unique<NnInteractiveBackend>(std::move(c));
}

core::ai::InferRequest requestFor(const test::BallImage& ball) {
  core::ai::InferRequest r;
  r.image = ball.image;
  r.model = NnInteractiveBackend::kModel;
  return r;
}

Prompt boxPrompt(core::VoxelBox box, bool positive = true) {
  Prompt p;
  p.kind = PromptKind::Box;
  p.positive = positive;
  p.box = box;
  return p;
}

// A mask prompt over `box`, set where `inside(i, j, k)` says.
template <class Inside>
Prompt maskPrompt(PromptKind kind, core::VoxelBox box, Inside inside) {
  Prompt p;
  p.kind = kind;
  p.box = box;
  for (std::size_t k = box.lo[2]; k < box.hi[2]; ++k) {
    for (std::size_t j = box.lo[1]; j < box.hi[1]; ++j) {
      for (std::size_t i = box.lo[0]; i < box.hi[0]; ++i) {
        p.mask.push_back(inside(i, j, k) ? 1 : 0);
      }
    }
  }
  return p;
}

core::net::HttpResponse post(const std::string& url, const std::string& path,
                             const std::string& lease, const std::string& type,
                             const std::string& body, const std::string& meta = {}) {
  core::net::HttpRequest r;
  r.method = "POST";
  r.url = url + path;
  r.contentType = type;
  r.body = body;
  if (!lease.empty()) {
    r.headers.push_back({"X-Lease-Token", lease});
  }
  if (!meta.empty()) {
    r.headers.push_back({"X-Meta", meta});
  }
  core::NullProgress progress;
  return core::net::makeHttpClient()->send(r, progress);
}

core::net::HttpResponse get(const std::string& url, const std::string& path,
                            const std::string& lease = {}) {
  core::net::HttpRequest r;
  r.url = url + path;
  if (!lease.empty()) {
    r.headers.push_back({"X-Lease-Token", lease});
  }
  core::NullProgress progress;
  return core::net::makeHttpClient()->send(r, progress);
}

}  // namespace

TEST(NnInteractive, AClickThenMoreClicksAndUndoFollowTheServersBuffer) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  const test::BallImage ball({32, 13, 10}, 7.0);
  auto client = clientOf(server.url());
  core::NullProgress progress;

  const auto info = client->info(progress);
  ASSERT_EQ(info.models.size(), 1u);
  EXPECT_EQ(info.models[0].name, "nninteractive");
  const auto caps = client->capabilities();
  EXPECT_TRUE(caps.serverUndo);
  EXPECT_TRUE(caps.takes(PromptKind::Lasso));

  core::ai::InferRequest r = requestFor(ball);
  r.foreground = {ball.centre};
  const auto first = client->infer(r, progress);
  EXPECT_TRUE(first.timings.sessionCreated);
  EXPECT_GT(test::dice(*first.labels, *ball.truth), 0.8);
  EXPECT_EQ(server.app().nnInteractive().leases().size(), 1u);

  // A negative click inside the ball: the image is not sent again, the proposal shrinks.
  r.background = {{ball.centre[0] + 3, ball.centre[1], ball.centre[2]}};
  const auto second = client->infer(r, progress);
  EXPECT_FALSE(second.timings.sessionCreated);
  std::size_t before = 0, after = 0;
  for (std::size_t n = 0; n < ball.truth->voxelCount(); ++n) {
    before += first.labels->data()[n] != 0;
    after += second.labels->data()[n] != 0;
  }
  EXPECT_LT(after, before);

  // Undo on the server gives back exactly the first proposal; a second undo has nothing left.
  const auto undone = client->undoLastPrompt(progress);
  EXPECT_EQ(std::memcmp(undone.labels->data(), first.labels->data(),
                        first.labels->voxelCount() * sizeof(std::uint16_t)),
            0);
  EXPECT_THROW(client->undoLastPrompt(progress), core::Error);
}

TEST(NnInteractive, BoxesScribblesAndLassosOnEveryPlane) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  // Off centre, so that a prompt whose axes were mixed up would miss it.
  const test::BallImage ball({32, 13, 10}, 7.0);
  const auto c = ball.centre;
  const std::size_t i0 = std::size_t(c[0]), j0 = std::size_t(c[1]), k0 = std::size_t(c[2]);
  // Each prompt alone (a fresh request), on one plane; the proposal must find the ball.
  std::vector<std::pair<std::string, Prompt>> prompts;
  prompts.emplace_back("axial box",
                       boxPrompt({{i0 - 11, j0 - 11, k0}, {i0 + 12, j0 + 12, k0 + 1}}));
  prompts.emplace_back("coronal box",
                       boxPrompt({{i0 - 11, j0, k0 - 7}, {i0 + 12, j0 + 1, k0 + 8}}));
  prompts.emplace_back("sagittal box",
                       boxPrompt({{i0, j0 - 11, k0 - 7}, {i0 + 1, j0 + 12, k0 + 8}}));
  prompts.emplace_back("3-D box",
                       boxPrompt({{i0 - 11, j0 - 11, k0 - 7}, {i0 + 12, j0 + 12, k0 + 8}}));
  // Scribbles: an L drawn inside the ball on each plane.
  prompts.emplace_back(
      "axial scribble",
      maskPrompt(
          PromptKind::Scribble, {{i0 - 5, j0 - 5, k0}, {i0 + 6, j0 + 6, k0 + 1}},
          [&](std::size_t i, std::size_t j, std::size_t) { return i == i0 || j == j0 + 2; }));
  prompts.emplace_back(
      "coronal scribble",
      maskPrompt(
          PromptKind::Scribble, {{i0 - 5, j0, k0 - 3}, {i0 + 6, j0 + 1, k0 + 4}},
          [&](std::size_t i, std::size_t, std::size_t k) { return k == k0 || i == i0 - 2; }));
  prompts.emplace_back(
      "sagittal scribble",
      maskPrompt(
          PromptKind::Scribble, {{i0, j0 - 5, k0 - 3}, {i0 + 1, j0 + 6, k0 + 4}},
          [&](std::size_t, std::size_t j, std::size_t k) { return k == k0 + 1 || j == j0; }));
  // Lassos: the filled outline of the ball's section, a little larger, on each plane.
  auto disc = [&](double a, double b, double ra, double rb) {
    return a * a / (ra * ra) + b * b / (rb * rb) <= 1.0;
  };
  prompts.emplace_back(
      "axial lasso",
      maskPrompt(PromptKind::Lasso, {{i0 - 12, j0 - 12, k0}, {i0 + 13, j0 + 13, k0 + 1}},
                 [&](std::size_t i, std::size_t j, std::size_t) {
                   return disc(double(i) - double(i0), double(j) - double(j0), 11.5, 11.5);
                 }));
  prompts.emplace_back(
      "coronal lasso",
      maskPrompt(PromptKind::Lasso, {{i0 - 12, j0, k0 - 7}, {i0 + 13, j0 + 1, k0 + 8}},
                 [&](std::size_t i, std::size_t, std::size_t k) {
                   return disc(double(i) - double(i0), double(k) - double(k0), 11.5, 7);
                 }));
  prompts.emplace_back(
      "sagittal lasso",
      maskPrompt(PromptKind::Lasso, {{i0, j0 - 12, k0 - 7}, {i0 + 1, j0 + 13, k0 + 8}},
                 [&](std::size_t, std::size_t j, std::size_t k) {
                   return disc(double(j) - double(j0), double(k) - double(k0), 11.5, 7);
                 }));
  auto client = clientOf(server.url());
  core::NullProgress progress;
  for (const auto& [name, prompt] : prompts) {
    core::ai::InferRequest r = requestFor(ball);
    r.prompts = {prompt};
    const auto result = client->infer(r, progress);
    EXPECT_GT(test::dice(*result.labels, *ball.truth), 0.75) << name;
    // The built-in engine takes the same prompt directly and agrees with the server.
    annotation::LocalEngineBackend local;
    core::ai::InferRequest direct = r;
    direct.model = annotation::LocalEngineBackend::kClickModel;
    const auto same = local.infer(direct, progress);
    EXPECT_EQ(std::memcmp(same.labels->data(), result.labels->data(),
                          result.labels->voxelCount() * sizeof(std::uint16_t)),
              0)
        << name;
  }
}

TEST(NnInteractive, SeveralClientsHoldLeasesAndAFullServerSaysSo) {
  test::TempDir dir;
  server::NnInteractiveOptions options;
  options.leases.maxSessions = 2;
  test::LocalServer server(dir / "store", {}, std::nullopt, {}, options);
  const test::BallImage ball;
  core::NullProgress progress;
  auto a = clientOf(server.url()), b = clientOf(server.url()), c = clientOf(server.url());
  core::ai::InferRequest r = requestFor(ball);
  r.foreground = {ball.centre};
  std::thread ta([&] { a->infer(r, progress); });
  std::thread tb([&] { b->infer(r, progress); });
  ta.join();
  tb.join();
  EXPECT_NE(a->leaseToken(), b->leaseToken());
  EXPECT_EQ(server.app().nnInteractive().leases().size(), 2u);
  try {
    c->infer(r, progress);
    ADD_FAILURE() << "a third client got a lease";
  } catch (const core::ai::ServerAnswerError& e) {
    EXPECT_EQ(e.httpStatus(), 503);
    EXPECT_NE(std::string(e.what()).find("full"), std::string::npos) << e.what();
    EXPECT_EQ(e.retryAfterSeconds().value_or(0), 10);
  }
  // Released when a client goes away: the third gets in.
  a.reset();
  EXPECT_GT(test::dice(*c->infer(r, progress).labels, *ball.truth), 0.8);
}

TEST(NnInteractive, AnExpiredLeaseIsClaimedAgainAndTheImageSentAgain) {
  test::TempDir dir;
  server::NnInteractiveOptions options;
  options.leases.idleTimeoutSeconds = 0.5;
  test::LocalServer server(dir / "store", {}, std::nullopt, {}, options);
  const test::BallImage ball;
  core::NullProgress progress;
  auto client = clientOf(server.url());
  core::ai::InferRequest r = requestFor(ball);
  r.foreground = {ball.centre};
  const auto first = client->infer(r, progress);
  EXPECT_FALSE(first.params.value("lease_renewed", true));
  const std::string lease = client->leaseToken();
  // Wait until the server says the lease is gone.
  const auto end = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (get(server.url(), "/lease_status", lease).status != 410 &&
         std::chrono::steady_clock::now() < end) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ASSERT_EQ(get(server.url(), "/lease_status", lease).status, 410);
  r.foreground.push_back({ball.centre[0] + 2, ball.centre[1], ball.centre[2]});
  const auto second = client->infer(r, progress);
  EXPECT_TRUE(second.params.value("lease_renewed", false));
  EXPECT_TRUE(second.timings.sessionCreated);
  EXPECT_NE(client->leaseToken(), lease);
  EXPECT_GT(test::dice(*second.labels, *ball.truth), 0.8);
}

TEST(NnInteractive, TheApiKeyIsCheckedBeforeTheLease) {
  test::TempDir dir;
  server::NnInteractiveOptions options;
  options.apiKey = "right-key";
  test::LocalServer server(dir / "store", {}, std::nullopt, {}, options);
  EXPECT_EQ(get(server.url(), "/healthz").status, 200);
  const auto noKey = post(server.url(), "/heartbeat", "unknown", "application/json", "{}");
  EXPECT_EQ(noKey.status, 401);  // not 410: auth first
  EXPECT_NE(noKey.body.find("Missing bearer token"), std::string::npos);
  const test::BallImage ball;
  core::NullProgress progress;
  auto wrong = clientOf(server.url(), "wrong-key");
  core::ai::InferRequest r = requestFor(ball);
  r.foreground = {ball.centre};
  try {
    wrong->infer(r, progress);
    ADD_FAILURE() << "a wrong key was accepted";
  } catch (const core::ai::ServerAnswerError& e) {
    EXPECT_EQ(e.httpStatus(), 401);
    EXPECT_NE(std::string(e.what()).find("API key"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(server.url()), std::string::npos) << e.what();
  }
  EXPECT_GT(
      test::dice(*clientOf(server.url(), "right-key")->infer(r, progress).labels, *ball.truth),
      0.8);
}

TEST(NnInteractive, PromptsOutsideTheImageAndBadArraysAreRefusedWithAReason) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  const std::string url = server.url();
  const json claimed = json::parse(post(url, "/claim", {}, "application/json", "").body);
  const std::string lease = claimed.at("lease_token");
  EXPECT_EQ(lease.size(), 32u);
  EXPECT_EQ(claimed.at("max_sessions"), 3);
  // Prompts before an image.
  EXPECT_EQ(post(url, "/add_point_interaction", lease, "application/json",
                 R"({"coordinates": [1, 2, 3], "include_interaction": true})")
                .status,
            400);
  // An all-zero image is refused, a 3-D one too.
  const std::vector<std::int64_t> shape{1, 4, 5, 6};
  std::string zeros(120, '\0');
  const auto zero =
      post(url, "/set_image", lease, "application/octet-stream",
           core::ai::packArray(core::ai::NpDtype::UInt8, shape,
                               std::span(reinterpret_cast<const std::byte*>(zeros.data()), 120)));
  EXPECT_EQ(zero.status, 400);
  EXPECT_NE(zero.body.find("entirely zero"), std::string::npos) << zero.body;
  std::string ones(120, '\x05');
  const std::vector<std::int64_t> flat{4, 5, 6};
  EXPECT_EQ(
      post(url, "/set_image", lease, "application/octet-stream",
           core::ai::packArray(core::ai::NpDtype::UInt8, flat,
                               std::span(reinterpret_cast<const std::byte*>(ones.data()), 120)))
          .status,
      400);
  // A good one, as [C, a0, a1, a2]; a buffer of another shape is refused.
  const auto set =
      post(url, "/set_image", lease, "application/octet-stream",
           core::ai::packArray(core::ai::NpDtype::UInt8, shape,
                               std::span(reinterpret_cast<const std::byte*>(ones.data()), 120)),
           R"({"image_properties": {"spacing": [2.0, 1.0, 1.0]}})");
  ASSERT_EQ(set.status, 200) << set.body;
  EXPECT_EQ(json::parse(set.body).at("original_image_shape"), json({1, 4, 5, 6}));
  EXPECT_EQ(post(url, "/set_target_buffer", lease, "application/json",
                 R"({"shape": [4, 5, 7], "dtype": "uint8"})")
                .status,
            400);
  const auto floats = post(url, "/set_target_buffer", lease, "application/json",
                           R"({"shape": [4, 5, 6], "dtype": "float32"})");
  EXPECT_EQ(floats.status, 400);
  EXPECT_NE(floats.body.find("bool or an integer type"), std::string::npos) << floats.body;
  ASSERT_EQ(post(url, "/set_target_buffer", lease, "application/json",
                 R"({"shape": [4, 5, 6], "dtype": "uint8"})")
                .status,
            200);
  // Outside the image [4, 5, 6].
  const auto point = post(url, "/add_point_interaction", lease, "application/json",
                          R"({"coordinates": [4, 0, 0], "include_interaction": true})");
  EXPECT_EQ(point.status, 400);
  EXPECT_NE(point.body.find("outside the image"), std::string::npos) << point.body;
  const auto box =
      post(url, "/add_bbox_interaction", lease, "application/json",
           R"({"bbox_coords": [[5, 9], [0, 2], [0, 2]], "include_interaction": true})");
  EXPECT_EQ(box.status, 400);
  EXPECT_NE(box.body.find("no extent along axis 0"), std::string::npos) << box.body;
  const std::string mask(4, '\x01');
  const std::vector<std::int64_t> maskShape{1, 2, 2};
  const auto lasso =
      post(url, "/add_lasso_interaction", lease, "application/octet-stream",
           core::ai::packArray(core::ai::NpDtype::UInt8, maskShape,
                               std::span(reinterpret_cast<const std::byte*>(mask.data()), 4)),
           R"({"include_interaction": true, "interaction_bbox": [[3, 4], [4, 6], [0, 2]]})");
  EXPECT_EQ(lasso.status, 400);
  EXPECT_NE(lasso.body.find("outside the image"), std::string::npos) << lasso.body;
  // A body that is no packed array.
  const auto garbage =
      post(url, "/add_scribble_interaction", lease, "application/octet-stream", "not an array",
           R"({"include_interaction": true, "interaction_bbox": null})");
  EXPECT_EQ(garbage.status, 400);
  EXPECT_NE(garbage.body.find("NNIA"), std::string::npos) << garbage.body;
  // A click in the image answers its region: X-Meta and a packed uint8 array of that shape.
  const auto inside = post(url, "/add_point_interaction", lease, "application/json",
                           R"({"coordinates": [2, 2, 3], "include_interaction": true})");
  ASSERT_EQ(inside.status, 200) << inside.body;
  const json meta = json::parse(inside.header("X-Meta"));
  EXPECT_TRUE(meta.at("ran_prediction").get<bool>());
  ASSERT_TRUE(meta.at("bbox").is_array()) << meta.dump();
  const auto region = core::ai::unpackArray(inside.body, "answer");
  EXPECT_EQ(json(region.shape), meta.at("shape"));
  EXPECT_EQ(meta.at("dtype"), "uint8");
  // Undoing that first click restores an empty region: its all-zero chunk is written as
  // c-blosc2 writes one (not flagged "stored"), or the reference client could not read it.
  const auto undone = post(url, "/undo", lease, "application/json", "{}");
  ASSERT_EQ(undone.status, 200) << undone.body;
  const auto restored = core::ai::unpackArray(undone.body, "undo answer");
  EXPECT_EQ(restored.bytes, std::string(restored.bytes.size(), '\0'));
  const std::size_t chunkAt = 8 + 5 + 3 * 8 + 4 + 16;  // "uint8", 3 axes, nchunks, ulen, clen
  ASSERT_GE(undone.body.size(), chunkAt + 32);
  EXPECT_EQ(static_cast<std::uint8_t>(undone.body[chunkAt + 2]) & 0x02, 0);
  EXPECT_EQ(static_cast<std::uint8_t>(undone.body[chunkAt + 31]), 0x10) << "the zeros chunk";
  // Sending the buffer again keeps the prompts and the undo step, as the reference server does;
  // flags may come as numbers, and a box one slice past the image's end means its last slice.
  ASSERT_EQ(post(url, "/add_point_interaction", lease, "application/json",
                 R"({"coordinates": [2, 2, 3], "include_interaction": 1, "run_prediction": 0})")
                .status,
            200);
  ASSERT_EQ(post(url, "/set_target_buffer", lease, "application/json",
                 R"({"shape": [4, 5, 6], "dtype": "uint8"})")
                .status,
            200);
  const auto undoAgain = post(url, "/undo", lease, "application/json", "{}");
  ASSERT_EQ(undoAgain.status, 200) << undoAgain.body;
  EXPECT_TRUE(json::parse(undoAgain.header("X-Meta")).at("ran_prediction").get<bool>());
  const auto edge =
      post(url, "/add_bbox_interaction", lease, "application/json",
           R"({"bbox_coords": [[4, 5], [0, 3], [0, 3]], "include_interaction": true})");
  ASSERT_EQ(edge.status, 200) << edge.body;
  // image_properties may be null.
  EXPECT_EQ(
      post(url, "/set_image", lease, "application/octet-stream",
           core::ai::packArray(core::ai::NpDtype::UInt8, shape,
                               std::span(reinterpret_cast<const std::byte*>(ones.data()), 120)),
           R"({"image_properties": null})")
          .status,
      200);
  // Released: the lease is unknown from then on.
  EXPECT_EQ(post(url, "/release", lease, "application/json", "").status, 200);
  const auto gone = post(url, "/heartbeat", lease, "application/json", "");
  EXPECT_EQ(gone.status, 410);
  EXPECT_NE(gone.body.find("lease expired or unknown"), std::string::npos);
}

TEST(NnInteractive, AnInitialSegmentationIsRefinedByTheClicksThatFollow) {
  test::TempDir dir;
  test::LocalServer server(dir / "store");
  const test::BallImage ball({32, 13, 10}, 7.0);
  auto client = clientOf(server.url());
  core::NullProgress progress;
  client->info(progress);
  EXPECT_TRUE(client->capabilities().initialMasks);
  // The user's segment: the ball and, wrongly, a block of the background beside it.
  const auto c = ball.centre;
  const core::Size3 n = ball.image->geometry().size;
  auto withBlock = std::make_shared<std::vector<std::uint8_t>>(ball.truth->voxelCount(), 0);
  auto inBlock = [&](std::size_t i, std::size_t j, std::size_t k) {
    return i >= std::size_t(c[0] + 9) && i < std::size_t(c[0] + 14) && j + 3 >= std::size_t(c[1]) &&
           j < std::size_t(c[1] + 4) && k + 2 >= std::size_t(c[2]) && k < std::size_t(c[2] + 3);
  };
  for (std::size_t k = 0, at = 0; k < n[2]; ++k) {
    for (std::size_t j = 0; j < n[1]; ++j) {
      for (std::size_t i = 0; i < n[0]; ++i, ++at) {
        (*withBlock)[at] = ball.truth->data()[at] != 0 || inBlock(i, j, k) ? 1 : 0;
      }
    }
  }
  core::ai::InferRequest r = requestFor(ball);
  r.initialMask = withBlock;
  // No prompt yet: the segment as it stands comes back.
  const auto kept = client->infer(r, progress);
  EXPECT_NE(kept.labels->at(std::size_t(c[0] + 11), std::size_t(c[1]), std::size_t(c[2])), 0);
  EXPECT_NE(kept.labels->at(std::size_t(c[0]), std::size_t(c[1]), std::size_t(c[2])), 0);
  // A negative click on the block takes it away and keeps the ball.
  r.background = {{c[0] + 11, c[1], c[2]}};
  const auto cut = client->infer(r, progress);
  EXPECT_EQ(cut.labels->at(std::size_t(c[0] + 11), std::size_t(c[1]), std::size_t(c[2])), 0);
  EXPECT_GT(test::dice(*cut.labels, *ball.truth), 0.85);
  // Another segment (a new mask): sent afresh, so the block is gone with no click at all.
  auto ballOnly = std::make_shared<std::vector<std::uint8_t>>(ball.truth->voxelCount(), 0);
  for (std::size_t at = 0; at < ballOnly->size(); ++at) {
    (*ballOnly)[at] = ball.truth->data()[at] != 0 ? 1 : 0;
  }
  r.initialMask = ballOnly;
  r.background.clear();
  const auto fresh = client->infer(r, progress);
  EXPECT_EQ(fresh.labels->at(std::size_t(c[0] + 11), std::size_t(c[1]), std::size_t(c[2])), 0);
  EXPECT_GT(test::dice(*fresh.labels, *ball.truth), 0.9);
}
