// Peak-list writers of the scale set: MGF and indexed mzML 1.1, streaming, one spectrum at a
// time, so a set of any size is written in one pass with constant memory (besides the mzML
// index offsets, 8 bytes + id per spectrum).
//
// MGF (Mascot generic format): TITLE, RTINSECONDS, PEPMASS, CHARGE (all charges, "2+ and 3+"),
// SCANS, then "m/z intensity" lines (m/z 5 decimals, intensity 6 significant digits).
// mzML: HUPO-PSI mzML 1.1.0 in the <indexedmzML> wrapper (schema mzML1.1.2_idx.xsd): MS2
// centroid spectra, selected ion m/z + charge state(s) + CID activation, m/z and intensity arrays
// as little-endian 32-bit floats, base64 (RFC 4648), no compression; <index name="spectrum"> with
// the byte offset of every <spectrum> start tag, <indexListOffset>, and <fileChecksum> = SHA-1 of
// the file up to and including "<fileChecksum>". Validates against
// /usr/share/openms/SCHEMAS/mzML_idx_1_10.xsd (perf/scale/check_scale_set.sh).
//
// Throws std::runtime_error (from OutputFile) when a file cannot be written. Not thread-safe.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "perf/scale/output_file.hpp"
#include "perf/scale/sha1.hpp"

namespace ionflow::scale {

// One spectrum as written. Units: m/z in Th, retention time in seconds.
struct ScaleSpectrum {
  uint64_t scan = 0;  // 1-based; id "scan=N" in mzML, SCANS=N in MGF
  std::string seed;   // provenance: "BSA1.mzML spectrum=2442 copy 3"
  double rt_seconds = 0.0;
  double precursor_mz = 0.0;
  std::vector<int> charges;  // empty = unknown
  std::vector<double> mz;
  std::vector<float> intensity;
};

inline std::string xml_escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

class MgfWriter {
 public:
  explicit MgfWriter(const std::string& path) : out_(path) {}

  void write(const ScaleSpectrum& s) {
    out_.put("BEGIN IONS\nTITLE=scan=");
    out_.put_uint(s.scan);
    out_.put(" seed=");
    out_.put(s.seed);
    out_.put("\nRTINSECONDS=");
    out_.put_fixed(s.rt_seconds, 3);
    out_.put("\nPEPMASS=");
    out_.put_fixed(s.precursor_mz, 6);
    if (!s.charges.empty()) {
      out_.put("\nCHARGE=");
      for (std::size_t i = 0; i < s.charges.size(); ++i) {
        if (i > 0) out_.put(" and ");
        out_.put_uint(static_cast<uint64_t>(s.charges[i]));
        out_.put('+');
      }
    }
    out_.put("\nSCANS=");
    out_.put_uint(s.scan);
    out_.put('\n');
    for (std::size_t i = 0; i < s.mz.size(); ++i) {
      out_.put_fixed(s.mz[i], 5);
      out_.put(' ');
      out_.put_general(s.intensity[i], 6);
      out_.put('\n');
    }
    out_.put("END IONS\n\n");
  }

  void close() { out_.close(); }

 private:
  OutputFile out_;
};

class IndexedMzmlWriter {
 public:
  // `spectrum_count` is written in <spectrumList count=...> and must equal the write() calls.
  IndexedMzmlWriter(const std::string& path, uint64_t spectrum_count) : out_(path) {
    out_.hash_into(&sha1_);
    out_.put(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
        "<indexedmzML xmlns=\"http://psi.hupo.org/ms/mzml\" "
        "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
        "xsi:schemaLocation=\"http://psi.hupo.org/ms/mzml "
        "http://psidev.info/files/ms/mzML/xsd/mzML1.1.2_idx.xsd\">\n"
        "<mzML xmlns=\"http://psi.hupo.org/ms/mzml\" version=\"1.1.0\" id=\"ionflow_scale_set\">\n"
        "<cvList count=\"2\">\n"
        "<cv id=\"MS\" fullName=\"Proteomics Standards Initiative Mass Spectrometry Ontology\" "
        "version=\"4.1.0\" URI=\"https://raw.githubusercontent.com/HUPO-PSI/psi-ms-CV/master/"
        "psi-ms.obo\"/>\n"
        "<cv id=\"UO\" fullName=\"Unit Ontology\" "
        "URI=\"http://ontologies.berkeleybop.org/uo.obo\"/>\n"
        "</cvList>\n"
        "<fileDescription><fileContent>"
        "<cvParam cvRef=\"MS\" accession=\"MS:1000580\" name=\"MSn spectrum\" value=\"\"/>"
        "<cvParam cvRef=\"MS\" accession=\"MS:1000127\" name=\"centroid spectrum\" value=\"\"/>"
        "</fileContent></fileDescription>\n"
        "<softwareList count=\"1\"><software id=\"ionflow_make_scale_set\" version=\"1\">"
        "<cvParam cvRef=\"MS\" accession=\"MS:1000799\" name=\"custom unreleased software tool\" "
        "value=\"ionflow_make_scale_set\"/></software></softwareList>\n"
        "<instrumentConfigurationList count=\"1\"><instrumentConfiguration id=\"IC1\">"
        "<cvParam cvRef=\"MS\" accession=\"MS:1000031\" name=\"instrument model\" value=\"\"/>"
        "</instrumentConfiguration></instrumentConfigurationList>\n"
        "<dataProcessingList count=\"1\"><dataProcessing id=\"DP1\">"
        "<processingMethod order=\"0\" softwareRef=\"ionflow_make_scale_set\">"
        "<cvParam cvRef=\"MS\" accession=\"MS:1000544\" name=\"Conversion to mzML\" value=\"\"/>"
        "</processingMethod></dataProcessing></dataProcessingList>\n"
        "<run id=\"scale\" defaultInstrumentConfigurationRef=\"IC1\">\n"
        "<spectrumList count=\"");
    out_.put_uint(spectrum_count);
    out_.put("\" defaultDataProcessingRef=\"DP1\">\n");
    offsets_.reserve(spectrum_count);
  }

  void write(const ScaleSpectrum& s) {
    offsets_.emplace_back(s.scan, out_.offset());
    out_.put("<spectrum index=\"");
    out_.put_uint(index_++);
    out_.put("\" id=\"scan=");
    out_.put_uint(s.scan);
    out_.put("\" defaultArrayLength=\"");
    out_.put_uint(s.mz.size());
    out_.put(
        "\">\n<cvParam cvRef=\"MS\" accession=\"MS:1000580\" name=\"MSn spectrum\" value=\"\"/>\n"
        "<cvParam cvRef=\"MS\" accession=\"MS:1000511\" name=\"ms level\" value=\"2\"/>\n"
        "<cvParam cvRef=\"MS\" accession=\"MS:1000127\" name=\"centroid spectrum\" value=\"\"/>\n"
        "<userParam name=\"seed spectrum\" value=\"");
    out_.put(xml_escape(s.seed));
    out_.put(
        "\" type=\"xsd:string\"/>\n<scanList count=\"1\">"
        "<cvParam cvRef=\"MS\" accession=\"MS:1000795\" name=\"no combination\" value=\"\"/>"
        "<scan><cvParam cvRef=\"MS\" accession=\"MS:1000016\" name=\"scan start time\" value=\"");
    out_.put_fixed(s.rt_seconds, 3);
    out_.put(
        "\" unitCvRef=\"UO\" unitAccession=\"UO:0000010\" unitName=\"second\"/></scan>"
        "</scanList>\n<precursorList count=\"1\"><precursor><selectedIonList count=\"1\">"
        "<selectedIon><cvParam cvRef=\"MS\" accession=\"MS:1000744\" name=\"selected ion m/z\" "
        "value=\"");
    out_.put_fixed(s.precursor_mz, 6);
    out_.put("\" unitCvRef=\"MS\" unitAccession=\"MS:1000040\" unitName=\"m/z\"/>");
    for (std::size_t i = 0; i < s.charges.size(); ++i) {
      // One charge: "charge state"; several: each a "possible charge state" (MS:1000633).
      out_.put(s.charges.size() == 1
                   ? "<cvParam cvRef=\"MS\" accession=\"MS:1000041\" name=\"charge state\" value=\""
                   : "<cvParam cvRef=\"MS\" accession=\"MS:1000633\" name=\"possible charge "
                     "state\" value=\"");
      out_.put_uint(static_cast<uint64_t>(s.charges[i]));
      out_.put("\"/>");
    }
    out_.put(
        "</selectedIon></selectedIonList><activation>"
        "<cvParam cvRef=\"MS\" accession=\"MS:1000133\" name=\"collision-induced dissociation\" "
        "value=\"\"/></activation></precursor></precursorList>\n"
        "<binaryDataArrayList count=\"2\">\n");
    floats_.resize(s.mz.size());
    for (std::size_t i = 0; i < s.mz.size(); ++i) floats_[i] = static_cast<float>(s.mz[i]);
    put_array(floats_,
              "<cvParam cvRef=\"MS\" accession=\"MS:1000514\" name=\"m/z array\" "
              "value=\"\" unitCvRef=\"MS\" unitAccession=\"MS:1000040\" unitName=\"m/z\"/>");
    put_array(s.intensity,
              "<cvParam cvRef=\"MS\" accession=\"MS:1000515\" name=\"intensity array\" value=\"\" "
              "unitCvRef=\"MS\" unitAccession=\"MS:1000131\" unitName=\"number of detector "
              "counts\"/>");
    out_.put("</binaryDataArrayList>\n</spectrum>\n");
  }

  // Writes the index and checksum and closes the file.
  void close() {
    out_.put("</spectrumList>\n</run>\n</mzML>\n");
    const uint64_t index_list_offset = out_.offset();
    out_.put("<indexList count=\"1\">\n<index name=\"spectrum\">\n");
    for (const auto& [scan, offset] : offsets_) {
      out_.put("<offset idRef=\"scan=");
      out_.put_uint(scan);
      out_.put("\">");
      out_.put_uint(offset);
      out_.put("</offset>\n");
    }
    out_.put("</index>\n</indexList>\n<indexListOffset>");
    out_.put_uint(index_list_offset);
    out_.put("</indexListOffset>\n<fileChecksum>");
    out_.hash_into(nullptr);
    out_.put(sha1_.hex());
    out_.put("</fileChecksum>\n</indexedmzML>\n");
    out_.close();
  }

 private:
  void put_array(const std::vector<float>& values, const char* kind_param) {
    encoded_.clear();
    base64(reinterpret_cast<const unsigned char*>(values.data()), values.size() * sizeof(float),
           encoded_);
    out_.put("<binaryDataArray encodedLength=\"");
    out_.put_uint(encoded_.size());
    out_.put(
        "\">\n<cvParam cvRef=\"MS\" accession=\"MS:1000521\" name=\"32-bit float\" value=\"\"/>\n"
        "<cvParam cvRef=\"MS\" accession=\"MS:1000576\" name=\"no compression\" value=\"\"/>\n");
    out_.put(kind_param);
    out_.put("\n<binary>");
    out_.put(encoded_);
    out_.put("</binary>\n</binaryDataArray>\n");
  }

  // RFC 4648 section 4 base64 with '=' padding. The floats are written in host byte order,
  // which mzML requires to be little-endian: this tool targets x86-64 / aarch64 Linux.
  static void base64(const unsigned char* p, std::size_t n, std::string& out) {
    static const char* a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    out.reserve((n + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 3 <= n; i += 3) {
      const uint32_t v = (uint32_t(p[i]) << 16) | (uint32_t(p[i + 1]) << 8) | p[i + 2];
      out.push_back(a[v >> 18]);
      out.push_back(a[(v >> 12) & 63]);
      out.push_back(a[(v >> 6) & 63]);
      out.push_back(a[v & 63]);
    }
    if (i + 1 == n) {
      const uint32_t v = uint32_t(p[i]) << 16;
      out.push_back(a[v >> 18]);
      out.push_back(a[(v >> 12) & 63]);
      out += "==";
    } else if (i + 2 == n) {
      const uint32_t v = (uint32_t(p[i]) << 16) | (uint32_t(p[i + 1]) << 8);
      out.push_back(a[v >> 18]);
      out.push_back(a[(v >> 12) & 63]);
      out.push_back(a[(v >> 6) & 63]);
      out.push_back('=');
    }
  }

  OutputFile out_;
  Sha1 sha1_;
  std::vector<std::pair<uint64_t, uint64_t>> offsets_;  // (scan, byte offset)
  uint64_t index_ = 0;
  std::vector<float> floats_;
  std::string encoded_;
};

}  // namespace ionflow::scale
