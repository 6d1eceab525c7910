#include "core/ai/ServerAnswerError.h"

#include <gtest/gtest.h>

#include <chrono>

using namespace delineate::core;
using namespace delineate::core::ai;
using namespace std::chrono_literals;

namespace {

// 2026-11-22 06:00:00 UTC, a Sunday.
std::chrono::system_clock::time_point sundayMorning() {
  return std::chrono::sys_days{std::chrono::year{2026} / 11 / 22} + 6h;
}

}  // namespace

TEST(ServerAnswerError, RetryAfterInSeconds) {
  EXPECT_EQ(parseRetryAfter("120"), 120.0);
  EXPECT_EQ(parseRetryAfter(" 5\t"), 5.0);
  EXPECT_EQ(parseRetryAfter("0"), 0.0);
}

TEST(ServerAnswerError, RetryAfterAsADateCountsFromNow) {
  const auto now = sundayMorning();
  EXPECT_EQ(parseRetryAfter("Sun, 22 Nov 2026 06:01:30 GMT", now), 90.0);
  EXPECT_EQ(parseRetryAfter("Mon, 23 Nov 2026 06:00:00 GMT", now), 86400.0);
  // A date already past: try now, not never.
  EXPECT_EQ(parseRetryAfter("Sun, 06 Nov 1994 08:49:37 GMT", now), 0.0);
}

TEST(ServerAnswerError, UnreadableRetryAfterIsNone) {
  const auto now = sundayMorning();
  for (const char* value : {"", "   ", "soon", "-5", "1.5", "120s", "99999999999",
                            "Sun, 22 Nov 2026 06:01:30", "Sun, 22 Nov 2026 06:01:30 GMT junk",
                            "Sun, 32 Nov 2026 06:01:30 GMT", "2026-11-22T06:01:30Z"}) {
    EXPECT_FALSE(parseRetryAfter(value, now).has_value()) << "'" << value << "'";
  }
}

TEST(ServerAnswerError, TransientStatusesAreThoseWorthTryingAgain) {
  for (int status : {408, 429, 500, 502, 503, 504}) {
    EXPECT_TRUE(ServerAnswerError("http://s", "x", status).transient()) << status;
  }
  for (int status : {400, 401, 403, 404, 409, 413, 422}) {
    EXPECT_FALSE(ServerAnswerError("http://s", "x", status).transient()) << status;
  }
}

TEST(ServerAnswerError, IsAnErrorNamingTheServer) {
  const ServerAnswerError e("http://gpu-box:8000", "uploading: HTTP 429", 429, 30.0);
  const Error& base = e;
  EXPECT_EQ(base.kind(), ErrorKind::Network);
  EXPECT_EQ(base.where(), "http://gpu-box:8000");
  EXPECT_NE(std::string(base.what()).find("uploading: HTTP 429"), std::string::npos);
  EXPECT_EQ(e.httpStatus(), 429);
  EXPECT_EQ(e.retryAfterSeconds(), 30.0);
}
