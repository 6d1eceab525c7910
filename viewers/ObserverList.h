#pragma once
// Callbacks registered under an id, called in registration order. The shared piece of the
// views' Qt-free state classes (ViewState, LabelDisplayState, MarkerState).
#include <functional>
#include <map>
#include <vector>

namespace delineate::viewers {

template <class... Args>
class ObserverList {
 public:
  using Observer = std::function<void(Args...)>;

  int add(Observer observer) {
    observers_[next_] = std::move(observer);
    return next_++;
  }
  void remove(int id) { observers_.erase(id); }
  // Calls every observer registered now. An observer may add or remove observers while being
  // told: one removed meanwhile is not called, one added is called from the next notify on.
  void notify(Args... args) const {
    std::vector<int> ids;
    ids.reserve(observers_.size());
    for (const auto& entry : observers_) {
      ids.push_back(entry.first);
    }
    for (int id : ids) {
      const auto it = observers_.find(id);
      if (it != observers_.end()) {
        const Observer observer = it->second;  // a copy: the entry may go while it runs
        observer(args...);
      }
    }
  }

 private:
  std::map<int, Observer> observers_;
  int next_ = 1;
};

}  // namespace delineate::viewers
