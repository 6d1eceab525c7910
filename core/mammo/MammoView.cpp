#include "core/mammo/MammoView.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace delineate::core::mammo {

namespace {

std::string upper(std::string s) {
  s.erase(std::remove_if(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); }),
          s.end());
  for (char& c : s) {
    c = char(std::toupper(static_cast<unsigned char>(c)));
  }
  return s;
}

struct ViewName {
  ViewCode view;
  const char* text;
  const char* code;  // CID 4014 in SNOMED-RT style (older objects)
  const char* sct;   // the same in SNOMED CT (current objects); "" where we do not use one
};

constexpr ViewName kViews[] = {
    {ViewCode::CC, "CC", "R-10242", "399162004"}, {ViewCode::MLO, "MLO", "R-10226", "399368009"},
    {ViewCode::ML, "ML", "R-10224", "399260004"}, {ViewCode::LM, "LM", "R-10228", "399352003"},
    {ViewCode::XCCL, "XCCL", "R-1024A", ""},      {ViewCode::XCCM, "XCCM", "R-1024B", ""},
    {ViewCode::FB, "FB", "R-10234", ""},          {ViewCode::SIO, "SIO", "R-102D0", ""},
    {ViewCode::LMO, "LMO", "R-10230", ""},        {ViewCode::AT, "AT", "R-102CF", ""},
};

}  // namespace

bool namesImage(const MammoView& view, const std::string& imageId) {
  return !imageId.empty() && (imageId == view.id || imageId == view.sopInstanceUid);
}

const char* toString(Laterality laterality) {
  switch (laterality) {
    case Laterality::Right:
      return "R";
    case Laterality::Left:
      return "L";
    case Laterality::Unknown:
      break;
  }
  return "?";
}

const char* toString(ViewCode view) {
  for (const ViewName& v : kViews) {
    if (v.view == view) {
      return v.text;
    }
  }
  return "?";
}

Laterality parseLaterality(const std::string& text) {
  const std::string t = upper(text);
  if (t == "R" || t == "RIGHT") {
    return Laterality::Right;
  }
  if (t == "L" || t == "LEFT") {
    return Laterality::Left;
  }
  return Laterality::Unknown;
}

ViewCode parseViewCode(const std::string& text) {
  const std::string t = upper(text);
  for (const ViewName& v : kViews) {
    if (t == v.text || t == v.code || (*v.sct != '\0' && t == v.sct)) {
      return v.view;
    }
  }
  return ViewCode::Unknown;
}

}  // namespace delineate::core::mammo
