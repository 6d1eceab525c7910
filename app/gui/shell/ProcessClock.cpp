#include "app/gui/shell/ProcessClock.h"

#include <time.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

namespace delineate::app {

double millisecondsSinceProcessStart() {
  std::ifstream f("/proc/self/stat");
  std::string line;
  if (!std::getline(f, line)) {
    return 0;
  }
  // Field 22 (starttime, clock ticks since boot) follows the command name in parentheses.
  const auto close = line.rfind(')');
  if (close == std::string::npos) {
    return 0;
  }
  std::istringstream rest(line.substr(close + 2));
  std::string field;
  for (int i = 3; i <= 22 && rest >> field; ++i) {
  }
  const double startSeconds = std::stod(field) / static_cast<double>(::sysconf(_SC_CLK_TCK));
  timespec now{};
  ::clock_gettime(CLOCK_BOOTTIME, &now);
  return (static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9 -
          startSeconds) *
         1000.0;
}

}  // namespace delineate::app
