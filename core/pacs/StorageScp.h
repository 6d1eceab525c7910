#pragma once
// This workstation's Storage SCP: takes the instances a node sends (any of
// receivableStorageClasses(), in the syntax they come) and writes each as
// FOLDER/<Series Instance UID>/<SOP Instance UID>.dcm (a C-MOVE's study folder) or, by study,
// FOLDER/<Study Instance UID>/<Series…>/<SOP…>.dcm (the study cache, for a listener that is always
// on), under a `.partial` name first, straight from the network to the file (no copy of the
// instance in memory).
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace delineate::core::pacs {

class StorageScp {
 public:
  // Opens the port (throws Error(Network) naming it when it is taken or not allowed) and starts
  // accepting associations called `aeTitle` on a thread of its own.
  enum class Layout { Series, StudySeries };
  StorageScp(const std::string& aeTitle, int port, std::filesystem::path folder,
             Layout layout = Layout::Series);
  // Stops listening and joins the thread (within about a second).
  ~StorageScp();
  StorageScp(const StorageScp&) = delete;
  StorageScp& operator=(const StorageScp&) = delete;

  std::size_t received() const;
  // The first instance that could not be written (a full disk), or empty.
  std::string writeProblem() const;

  class Impl;

 private:
  std::unique_ptr<Impl> impl_;
  std::thread thread_;
};

}  // namespace delineate::core::pacs
