#include "OrthancServer.h"

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <string_view>
#include <thread>

#include "core/Base64.h"
#include "core/Error.h"
#include "core/jobs/ProgressSink.h"
#include "core/net/HttpClient.h"
#include "core/net/HttpServer.h"

extern char** environ;

namespace delineate::test {

bool OrthancServer::installed() {
  return ::access(kBinary, X_OK) == 0;
}

bool OrthancServer::dicomWebInstalled() {
  return ::access(kDicomWebPlugin, R_OK) == 0;
}

OrthancServer::OrthancServer(const std::filesystem::path& folder,
                             std::vector<std::string> allowedCallers)
    : OrthancServer(folder, OrthancOptions{.allowedCallers = std::move(allowedCallers)}) {}

OrthancServer::OrthancServer(const std::filesystem::path& folder, OrthancOptions options)
    : options_(std::move(options)) {
  httpPort_ = core::net::freeLocalPort();
  dicomPort_ = core::net::freeLocalPort();
  while (dicomPort_ == httpPort_) {
    dicomPort_ = core::net::freeLocalPort();
  }
  // Orthanc's database and files in memory where the system has a tmpfs: it syncs its SQLite
  // index on every instance, which on a disk costs ~80 ms per instance stored.
  std::filesystem::path storage = folder / "storage";
  std::error_code ec;
  if (std::filesystem::is_directory("/dev/shm", ec) && ::access("/dev/shm", W_OK) == 0) {
    static std::atomic<int> counter{0};
    scratch_ =
        std::filesystem::path("/dev/shm") /
        ("delineate-orthanc-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(scratch_, ec);
    if (std::filesystem::create_directories(scratch_, ec) && !ec) {
      storage = scratch_;
    } else {
      scratch_.clear();
    }
  }
  std::filesystem::create_directories(folder);
  std::filesystem::create_directories(storage);
  nlohmann::json modalities = nlohmann::json::object();
  for (const std::string& caller : options_.allowedCallers) {
    modalities[caller] = {caller, "127.0.0.1", options_.callerPort};
  }
  nlohmann::json config = {{"Name", "DelineateTestPacs"},
                           {"StorageDirectory", storage.string()},
                           {"IndexDirectory", storage.string()},
                           {"HttpPort", httpPort_},
                           {"RemoteAccessAllowed", false},
                           {"AuthenticationEnabled", false},
                           {"DicomServerEnabled", true},
                           {"DicomAet", kAeTitle},
                           {"DicomPort", dicomPort_},
                           {"DicomCheckCalledAet", true},
                           {"DicomAlwaysAllowEcho", false},
                           {"DicomAlwaysAllowStore", false},
                           {"DicomCheckModalityHost", true},
                           {"DicomModalities", modalities},
                           {"Plugins", nlohmann::json::array()},
                           {"StableAge", 1},
                           {"ConcurrentJobs", 1}};
  if (options_.anyCallerMayQuery) {
    config["DicomAlwaysAllowFind"] = true;
    config["DicomAlwaysAllowMove"] = true;
    config["DicomCheckModalityHost"] = false;
  }
  if (options_.dicomWeb) {
    config["Plugins"] = nlohmann::json::array({kDicomWebPlugin});
    // As Debian configures it, RetrieveURLs naming "localhost" included.
    config["DicomWeb"] = {{"Enable", true},
                          {"Root", "/dicom-web/"},
                          {"Host", "localhost"},
                          {"Ssl", false},
                          {"EnableWado", false}};
  }
  if (!options_.users.empty()) {
    config["AuthenticationEnabled"] = true;
    nlohmann::json users = nlohmann::json::object();
    for (const auto& [user, password] : options_.users) {
      users[user] = password;
    }
    config["RegisteredUsers"] = users;
  }
  const std::filesystem::path configFile = folder / "orthanc.json";
  std::ofstream(configFile) << config.dump(2);
  const std::string log = "--logdir=" + folder.string();
  std::vector<std::string> argv = {kBinary, log, configFile.string()};
  std::vector<char*> args;
  for (std::string& a : argv) {
    args.push_back(a.data());
  }
  args.push_back(nullptr);
  // Orthanc's DCMTK leaves Nagle's algorithm on unless TCP_NODELAY says otherwise.
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    if (std::string_view(*e).rfind("TCP_NODELAY=", 0) != 0) {
      env.emplace_back(*e);
    }
  }
  if (options_.tcpNoDelay) {
    env.emplace_back("TCP_NODELAY=1");
  }
  std::vector<char*> envp;
  for (std::string& e : env) {
    envp.push_back(e.data());
  }
  envp.push_back(nullptr);
  if (::posix_spawn(&pid_, kBinary, nullptr, nullptr, args.data(), envp.data()) != 0) {
    pid_ = -1;
    return;
  }
  // Ready when the REST API answers (the DICOM server starts before it).
  core::NullProgress progress;
  for (int i = 0; i < 200 && !ready_; ++i) {
    try {
      get("/system");
      ready_ = true;
    } catch (const std::exception&) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  }
}

OrthancServer::~OrthancServer() {
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    int status = 0;
    for (int i = 0; i < 100 && ::waitpid(pid_, &status, WNOHANG) == 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, &status, 0);
  }
  if (!scratch_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(scratch_, ec);
  }
}

core::pacs::DicomNode OrthancServer::node() const {
  return {"Test PACS", kAeTitle, "127.0.0.1", dicomPort_};
}

core::pacs::DicomNode OrthancServer::webNode() const {
  core::pacs::DicomNode n;
  n.name = "Test DICOMweb";
  n.dicomWebUrl = httpBase() + "/dicom-web";
  if (!options_.users.empty()) {
    n.auth = core::pacs::WebAuth::Basic;
    n.user = options_.users.front().first;
  }
  return n;
}

nlohmann::json OrthancServer::get(const std::string& path) const {
  core::net::HttpRequest request;
  request.url = httpBase() + path;
  if (!options_.users.empty()) {
    const auto& [user, password] = options_.users.front();
    const std::string pair = user + ":" + password;
    request.headers.emplace_back(
        "Authorization",
        "Basic " +
            core::base64Encode(reinterpret_cast<const std::uint8_t*>(pair.data()), pair.size()));
  }
  request.connectTimeout = std::chrono::milliseconds(500);
  request.timeout = std::chrono::milliseconds(10000);
  core::NullProgress progress;
  const core::net::HttpResponse r = core::net::makeHttpClient()->send(request, progress);
  if (!r.ok()) {
    throw core::Error(core::ErrorKind::Network, request.url, "HTTP " + std::to_string(r.status));
  }
  return nlohmann::json::parse(r.body);
}

}  // namespace delineate::test
