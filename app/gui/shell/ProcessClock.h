#pragma once

namespace delineate::app {

// Milliseconds since this process started (from /proc/self/stat), including the time the dynamic
// loader spent before main(); 0 when unavailable.
double millisecondsSinceProcessStart();

}  // namespace delineate::app
