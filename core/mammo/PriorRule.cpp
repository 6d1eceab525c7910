#include "core/mammo/PriorRule.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace delineate::core::mammo {

namespace {

using Date = std::chrono::year_month_day;

std::optional<Date> parseDate(const std::string& text) {
  if (text.size() != 8 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  const Date d{std::chrono::year(std::stoi(text.substr(0, 4))),
               std::chrono::month(unsigned(std::stoi(text.substr(4, 2)))),
               std::chrono::day(unsigned(std::stoi(text.substr(6, 2))))};
  if (!d.ok()) {
    return std::nullopt;
  }
  return d;
}

std::string format(const Date& d) {
  char text[16];
  std::snprintf(text, sizeof text, "%04d%02u%02u", int(d.year()), unsigned(d.month()),
                unsigned(d.day()));
  return text;
}

// `months` before `d`; the 31st becomes the last day of a shorter month.
Date monthsBefore(const Date& d, int months) {
  const std::chrono::year_month ym = d.year() / d.month() - std::chrono::months(months);
  const std::chrono::day last = (ym / std::chrono::last).day();
  return ym / std::min(d.day(), last);
}

// The window's latest and (when limited) earliest day.
std::pair<Date, std::optional<Date>> window(const PriorRule& rule, const Date& current) {
  const Date latest = rule.minMonthsEarlier > 0
                          ? monthsBefore(current, rule.minMonthsEarlier)
                          : Date(std::chrono::sys_days(current) - std::chrono::days(1));
  std::optional<Date> earliest;
  if (rule.maxMonthsEarlier > 0) {
    earliest = monthsBefore(current, rule.maxMonthsEarlier);
  }
  return {latest, earliest};
}

}  // namespace

std::string PriorRule::dateRange(const std::string& currentDate) const {
  const auto current = parseDate(currentDate);
  if (!current) {
    return {};
  }
  const auto [latest, earliest] = window(*this, *current);
  return (earliest ? format(*earliest) : std::string()) + "-" + format(latest);
}

bool PriorRule::admits(const std::string& currentDate, const std::string& priorDate) const {
  const auto current = parseDate(currentDate);
  if (!current) {
    return true;
  }
  const auto prior = parseDate(priorDate);
  if (!prior) {
    return false;
  }
  const auto [latest, earliest] = window(*this, *current);
  return *prior <= latest && (!earliest || *prior >= *earliest);
}

std::string PriorRule::describe() const {
  if (minMonthsEarlier <= 0 && maxMonthsEarlier <= 0) {
    return "any earlier day";
  }
  if (maxMonthsEarlier <= 0) {
    return "at least " + std::to_string(minMonthsEarlier) + " months earlier";
  }
  if (minMonthsEarlier <= 0) {
    return "at most " + std::to_string(maxMonthsEarlier) + " months earlier";
  }
  return std::to_string(minMonthsEarlier) + " to " + std::to_string(maxMonthsEarlier) +
         " months earlier";
}

std::vector<std::string> choosePriors(const PriorRule& rule, const std::string& currentUid,
                                      const std::string& currentDate,
                                      std::vector<std::pair<std::string, std::string>> studies) {
  std::sort(studies.begin(), studies.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  });
  std::vector<std::string> out;
  for (const auto& [uid, date] : studies) {
    if (uid != currentUid && rule.admits(currentDate, date) &&
        std::find(out.begin(), out.end(), uid) == out.end()) {
      out.push_back(uid);
    }
  }
  return out;
}

}  // namespace delineate::core::mammo
