#pragma once
// Callbacks registered under an id, called in registration order. The shared piece of the
// views' Qt-free state classes (ViewState, LabelDisplayState, MarkerState).
#include <functional>
#include <map>

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
  void notify(Args... args) const {
    // A copy: an observer may add or remove observers while being told.
    const auto current = observers_;
    for (const auto& [id, observer] : current) {
      observer(args...);
    }
  }

 private:
  std::map<int, Observer> observers_;
  int next_ = 1;
};

}  // namespace delineate::viewers
