#include "service/spectrum_view.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include "io/parse_error.hpp"
#include "io/sha256.hpp"
#include "io/spectrum_lookup.hpp"
#include "scoring/fragment_annotation.hpp"
#include "scoring/hyperscore.hpp"
#include "scoring/ion_series.hpp"
#include "scoring/proforma.hpp"
#include "scoring/search.hpp"

namespace ionflow {

namespace {

std::string input_path(const JobSpec& spec, const std::string& filename) {
  for (const auto& path : spec.spectra_paths) {
    if (path == filename || std::filesystem::path(path).filename().string() == filename) {
      return path;
    }
  }
  throw SpectrumViewError(404, "filename " + filename + " is not an input of this job");
}

// The job's modification whose ProForma tag is `tag` (and that may sit at `residue`, '\0' for
// a terminus), or one made from a mass tag.
Modification modification_for(const SearchParameters& params, const std::string& tag,
                              char residue) {
  const Modification* any = nullptr;
  for (const auto* list :
       {&params.database.fixed_modifications, &params.database.variable_modifications}) {
    for (const Modification& m : *list) {
      if (proforma_tag(m.unimod_accession, m.mass_delta_da) != tag) continue;
      if (residue == '\0' || m.residues.empty() || m.residues.find(residue) != std::string::npos) {
        return m;
      }
      any = any ? any : &m;
    }
  }
  if (any) return *any;
  char* end = nullptr;
  const double mass = std::strtod(tag.c_str(), &end);
  if (!tag.empty() && (tag[0] == '+' || tag[0] == '-') && end == tag.c_str() + tag.size()) {
    Modification m;
    m.mass_delta_da = mass;
    return m;
  }
  throw SpectrumViewError(422, "ProForma tag [" + tag + "] is none of the job's modifications");
}

JsonValue peaks_json(const std::vector<double>& mz, const std::vector<double>& intensity) {
  JsonValue o = JsonValue::object();
  JsonValue a = JsonValue::array(), b = JsonValue::array();
  for (double x : mz) a.push_back(x);
  for (double y : intensity) b.push_back(y);
  o.set("mz", std::move(a));
  o.set("intensity", std::move(b));
  return o;
}

// The SHA-256 of the file at `path` as it is now, "" when it cannot be read. Kept per path,
// size and modification time, so that a job's views hash each input once (a 1 GB file ~0.5 s).
std::string current_sha256(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) return "";
  const auto mtime = fs::last_write_time(path, ec).time_since_epoch().count();
  if (ec) return "";
  using Key = std::tuple<std::string, uintmax_t, int64_t>;
  static std::mutex mutex;
  static std::map<Key, std::string> known;
  const Key key{path, size, static_cast<int64_t>(mtime)};
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = known.find(key); it != known.end()) return it->second;
  }
  std::string digest;
  try {
    digest = file_sha256_hex(path);
  } catch (const std::runtime_error&) {
    return "";  // find_spectrum then says what is wrong with the file
  }
  std::lock_guard<std::mutex> lock(mutex);
  if (known.size() >= 256) known.clear();  // a bound; views of one job reuse a few entries
  known[key] = digest;
  return digest;
}

// The PSM's spectrum read again from its input file, refused (409) when the file is no longer
// the one the job read (results.json's SHA-256 of it, when known).
RawSpectrum read_psm_spectrum(const JobSpec& spec, const PsmIdentity& psm) {
  const std::string path = input_path(spec, psm.filename);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    throw SpectrumViewError(410, "input file is gone: " + path);
  }
  if (auto it = psm.input_sha256.find(path); it != psm.input_sha256.end()) {
    const std::string now = current_sha256(path);
    if (!now.empty() && now != it->second) {
      throw SpectrumViewError(409, path +
                                       " changed after the job (its SHA-256 is not the one "
                                       "results.json records): its spectra are not the ones "
                                       "searched");
    }
  }
  std::optional<RawSpectrum> raw;
  try {
    raw = find_spectrum(path, psm.scannr);
  } catch (const std::exception& e) {
    throw SpectrumViewError(422, e.what());
  }
  if (!raw) throw SpectrumViewError(404, psm.filename + " has no MS2 spectrum " + psm.scannr);
  return std::move(*raw);
}

// The query the search made of the spectrum at the PSM's charge.
const Query& searched_query(const PreparedSpectrum& prepared, const PsmIdentity& psm) {
  const Query* query = nullptr;
  for (const Query& q : prepared.queries) {
    if (q.charge == psm.charge) query = &q;
  }
  if (query) return *query;
  throw SpectrumViewError(
      422, "spectrum " + psm.scannr + " was not searched at charge " + std::to_string(psm.charge) +
               (prepared.skip_reason.empty() ? "" : " (" + prepared.skip_reason + ")"));
}

// The PSM's peptide with its modifications resolved against the job's, and them as JSON.
struct PeptideView {
  ParsedProforma proforma;
  std::vector<Modification> modifications;
  std::vector<PlacedModification> placed;  // into `modifications`
  JsonValue modifications_json = JsonValue::array();
};

PeptideView peptide_view(const SearchParameters& params, const std::string& proforma) {
  PeptideView v;
  try {
    v.proforma = parse_proforma(proforma);
  } catch (const std::invalid_argument& e) {
    throw SpectrumViewError(422, e.what());
  }
  const std::string& sequence = v.proforma.sequence;
  const int length = static_cast<int>(sequence.size());
  for (const ProformaTag& t : v.proforma.tags) {
    const char residue = t.position >= 0 && t.position < length ? sequence[t.position] : '\0';
    v.modifications.push_back(modification_for(params, t.tag, residue));
    v.placed.push_back(
        {static_cast<int16_t>(t.position), static_cast<uint16_t>(v.modifications.size() - 1)});
    JsonValue m = JsonValue::object();
    m.set("position", t.position);
    m.set("residue", residue ? std::string(1, residue) : std::string());
    m.set("tag", t.tag);
    m.set("name", v.modifications.back().name);
    m.set("mass_delta_da", v.modifications.back().mass_delta_da);
    v.modifications_json.push_back(std::move(m));
  }
  return v;
}

JsonValue tolerance_json(const Tolerance& t) {
  JsonValue tol = JsonValue::object();
  tol.set("unit", t.unit == Tolerance::Unit::kDa ? "da" : "ppm");
  tol.set("lower", t.lower);
  tol.set("upper", t.upper);
  return tol;
}

// The measured peaks in m/z order, intensities in % of the base peak, zero-intensity peaks left
// out.
JsonValue measured_peaks_json(const RawSpectrum& raw) {
  double base = 0;
  for (float y : raw.intensity) base = std::max(base, static_cast<double>(y));
  std::vector<size_t> order(raw.mz.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return raw.mz[a] < raw.mz[b]; });
  std::vector<double> mz, intensity;
  for (size_t i : order) {
    if (!(raw.intensity[i] > 0)) continue;
    mz.push_back(raw.mz[i]);
    intensity.push_back(base > 0 ? 100.0 * raw.intensity[i] / base : 0.0);
  }
  return peaks_json(mz, intensity);
}

JsonValue peaks_json(const std::vector<Peak>& peaks) {
  std::vector<double> mz, intensity;
  for (const Peak& p : peaks) mz.push_back(p.mz), intensity.push_back(p.intensity);
  return peaks_json(mz, intensity);
}

// Every theoretical fragment ion; those matched (annotate_fragments, in fragment order) with the
// peak they match and the error.
JsonValue ions_json(const std::vector<Fragment>& fragments,
                    const std::vector<FragmentMatch>& matches, const std::vector<Peak>& scored) {
  JsonValue ions = JsonValue::array();
  size_t next = 0;
  for (const Fragment& f : fragments) {
    JsonValue ion = JsonValue::object();
    const std::string name = std::string(ion_type_letter(f.type)) + std::to_string(f.ordinal) +
                             (f.charge > 1 ? std::string(f.charge, '+') : "");
    ion.set("ion", name);
    ion.set("type", ion_type_letter(f.type));
    ion.set("ordinal", static_cast<int>(f.ordinal));
    ion.set("charge", static_cast<int>(f.charge));
    ion.set("mz", f.mz);
    const bool matched = next < matches.size() && matches[next].fragment.mz == f.mz &&
                         matches[next].fragment.type == f.type &&
                         matches[next].fragment.ordinal == f.ordinal &&
                         matches[next].fragment.charge == f.charge;
    ion.set("matched", matched);
    if (matched) {
      const FragmentMatch& m = matches[next++];
      const Peak& p = scored[m.peak];
      ion.set("observed_mz", static_cast<double>(p.mz));
      ion.set("intensity", static_cast<double>(p.intensity));
      ion.set("error_da", m.error_da);
      ion.set("error_ppm", m.error_ppm);
    }
    ions.push_back(std::move(ion));
  }
  return ions;
}

}  // namespace

JsonValue spectrum_view_json(const JobSpec& spec, const PsmIdentity& psm) {
  const RawSpectrum raw = read_psm_spectrum(spec, psm);
  const SearchParameters& params = spec.search;
  const PreparedSpectrum prepared = prepare_spectrum(raw, params);
  const Query& query = searched_query(prepared, psm);
  PeptideView view = peptide_view(params, psm.peptide);
  Peptide peptide;  // views into `view`, which stays in place from here on
  peptide.sequence = view.proforma.sequence;
  peptide.modifications = view.placed;
  ModifiedResidues residues;
  modified_residue_masses(peptide, view.modifications, residues);
  const IonTypes types = IonTypes::parse(params.ion_types);
  const int fragment_charge = fragment_charge_limit(query.charge, params.max_fragment_charge);
  std::vector<Fragment> fragments;
  fragment_ions(residues, types, fragment_charge, fragments);
  // The hyperscore matches the most intense prepared peaks (50, or 100 for high-resolution
  // fragment windows: hyperscore_peak_count); so does this.
  std::vector<Peak> scored;
  select_hyperscore_peaks(query.peaks, hyperscore_peak_count(params.fragment_tolerance), scored);
  const std::vector<FragmentMatch> matches =
      annotate_fragments(scored, fragments, params.fragment_tolerance);
  // The same spectrum and rule give results.tsv's count; another count means the spectrum
  // found is not the one the job scored: its id names more than one spectrum (an MGF with
  // repeated TITLEs; the first is found), or the file changed and no SHA-256 of it was recorded
  // (read_psm_spectrum checks that first: a new user's replaced file showed 3 matched peaks of
  // another spectrum under a PSM of 13).
  if (psm.matched_peaks >= 0 && matches.size() != static_cast<size_t>(psm.matched_peaks)) {
    throw SpectrumViewError(
        409, psm.filename + " spectrum " + psm.scannr + " now matches " +
                 std::to_string(matches.size()) + " peaks of " + psm.peptide + ", results.tsv " +
                 std::to_string(psm.matched_peaks) +
                 ": it is not the spectrum the job scored (the input file changed after the job, "
                 "or more than one spectrum has this id)");
  }

  JsonValue o = JsonValue::object();
  o.set("psm_id", psm.psm_id);
  o.set("filename", psm.filename);
  o.set("scannr", psm.scannr);
  o.set("scan", raw.scan);
  o.set("rt_seconds", raw.rt_seconds);
  o.set("precursor_mz", raw.precursor_mz);
  o.set("charge", psm.charge);
  o.set("peptide", psm.peptide);
  o.set("sequence", view.proforma.sequence);
  o.set("modifications", std::move(view.modifications_json));
  o.set("ion_types", params.ion_types);
  o.set("fragment_charge", fragment_charge);
  o.set("fragment_tolerance", tolerance_json(params.fragment_tolerance));
  o.set("peaks", measured_peaks_json(raw));
  o.set("prepared_peaks", peaks_json(query.peaks));
  o.set("scored_peaks", peaks_json(scored));
  o.set("ions", ions_json(fragments, matches, scored));
  o.set("matched_peaks", static_cast<uint64_t>(matches.size()));
  return o;
}

}  // namespace ionflow
