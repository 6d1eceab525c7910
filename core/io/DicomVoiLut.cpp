#include "core/io/DicomVoiLut.h"

#include <dcmtk/config/osconfig.h>  // must come first
#include <dcmtk/dcmdata/dcdeftag.h>
#include <dcmtk/dcmdata/dcelem.h>
#include <dcmtk/dcmdata/dcitem.h>
#include <dcmtk/dcmdata/dcsequen.h>
#include <dcmtk/dcmdata/dcvr.h>

#include <cctype>
#include <optional>

namespace delineate::core {

namespace {

std::string text(DcmItem& item, const DcmTagKey& tag) {
  OFString s;
  if (item.findAndGetOFStringArray(tag, s).bad()) {
    return {};
  }
  std::string out(s.c_str(), s.length());
  const auto first = out.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) {
    return {};
  }
  return out.substr(first, out.find_last_not_of(" \t\r\n") - first + 1);
}

// One value of a US, SS or OW element as its 16-bit pattern (LUT Descriptor: "US or SS").
std::optional<Uint16> word(DcmElement& e, unsigned long pos) {
  if (e.ident() == EVR_SS) {
    Sint16 v = 0;
    if (e.getSint16(v, pos).bad()) {
      return std::nullopt;
    }
    return static_cast<Uint16>(v);
  }
  Uint16 v = 0;
  if (e.getUint16(v, pos).bad()) {
    return std::nullopt;
  }
  return v;
}

// The entries of LUT Data (US or OW; 8-bit entries may come packed two to a word, low byte
// first), or the number of entries found when it cannot give `entries` of them.
std::vector<std::uint16_t> lutData(DcmElement& e, std::size_t entries, unsigned bits,
                                   std::size_t& found) {
  std::vector<std::uint16_t> out;
  found = 0;
  Uint16* words = nullptr;
  if (e.ident() != EVR_OB && e.getUint16Array(words).good()) {
    found = e.getLength() / sizeof(Uint16);
    if (words == nullptr) {
      found = 0;
    } else if (found == entries) {
      out.assign(words, words + found);
    } else if (bits <= 8 && entries > 1 && found == (entries + 1) / 2) {
      out.resize(entries);
      for (std::size_t i = 0; i < entries; ++i) {
        out[i] = static_cast<std::uint16_t>((words[i / 2] >> (i % 2 == 0 ? 0 : 8)) & 0xff);
      }
    }
    return out;
  }
  Uint8* bytes = nullptr;
  if (e.getUint8Array(bytes).good() && bytes != nullptr) {
    found = e.getLength();
    if (found == entries) {
      out.assign(bytes, bytes + found);
    }
  }
  return out;
}

}  // namespace

std::vector<VoiLutTable> readVoiLuts(DcmItem& item, bool pixelSigned, const std::string& path,
                                     std::vector<std::string>& warnings) {
  std::vector<VoiLutTable> out;
  DcmSequenceOfItems* seq = nullptr;
  if (item.findAndGetSequence(DCM_VOILUTSequence, seq).bad() || seq == nullptr) {
    return out;
  }
  for (unsigned long i = 0; i < seq->card(); ++i) {
    DcmItem* lut = seq->getItem(i);
    if (lut == nullptr) {
      continue;
    }
    VoiLutTable t;
    t.name = text(*lut, DCM_LUTExplanation);
    const std::string label = "VOI LUT " + std::to_string(i + 1);
    auto skip = [&](const std::string& why) {
      warnings.push_back(path + ": " + label + (t.name.empty() ? "" : " (" + t.name + ")") +
                         " skipped: " + why);
    };
    DcmElement* descriptor = nullptr;
    if (lut->findAndGetElement(DCM_LUTDescriptor, descriptor).bad() || descriptor == nullptr) {
      skip("no LUT Descriptor");
      continue;
    }
    const auto n = word(*descriptor, 0);
    const auto first = word(*descriptor, 1);
    const auto bits = word(*descriptor, 2);
    if (!n || !first || !bits) {
      skip("the LUT Descriptor does not hold 3 values");
      continue;
    }
    if (*bits < 8 || *bits > 16) {
      skip("the LUT Descriptor gives " + std::to_string(*bits) +
           " bits per entry (8 to 16 allowed)");
      continue;
    }
    const std::size_t entries = *n == 0 ? 65536 : *n;  // the number of entries; 0 means 2^16
    DcmElement* data = nullptr;
    if (lut->findAndGetElement(DCM_LUTData, data).bad() || data == nullptr) {
      skip("no LUT Data");
      continue;
    }
    std::size_t found = 0;
    t.data = lutData(*data, entries, *bits, found);
    if (t.data.size() != entries) {
      skip("the LUT Data holds " + std::to_string(found) + " entries, the LUT Descriptor says " +
           std::to_string(entries));
      continue;
    }
    // The first value mapped follows the Pixel Representation (or the element's own VR, SS).
    const bool signedFirst = pixelSigned || descriptor->ident() == EVR_SS;
    t.firstValue =
        signedFirst ? static_cast<double>(static_cast<std::int16_t>(*first)) : double(*first);
    t.bits = *bits;
    if (t.name.empty()) {
      t.name = label;
    }
    out.push_back(std::move(t));
  }
  return out;
}

std::string readVoiFunction(DcmItem& item, const std::string& path,
                            std::vector<std::string>& warnings) {
  std::string f = text(item, DCM_VOILUTFunction);
  for (char& c : f) {
    c = char(std::toupper(static_cast<unsigned char>(c)));
  }
  if (f == "LINEAR") {
    return {};
  }
  if (!f.empty() && f != "LINEAR_EXACT" && f != "SIGMOID") {
    warnings.push_back(path + ": unknown VOI LUT Function " + f + ", shown as LINEAR");
    return {};
  }
  return f;
}

}  // namespace delineate::core
