#include "service/job_message.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <system_error>

#include "io/job_files.hpp"
#include "scoring/edit_distance.hpp"
#include "scoring/enzyme.hpp"
#include "scoring/mass.hpp"
#include "scoring/modification_spec.hpp"
#include "service/job_message_detail.hpp"

namespace ionflow {

namespace fs = std::filesystem;

using namespace job_message_detail;

namespace {

// ---------------------------------------------------------------------------------------------
// Sage keys that ionflow accepts but does not implement: each produces a warning.

struct Unimplemented {
  std::string_view key;
  std::string_view note;
};

const std::vector<Unimplemented>& unimplemented_top_level() {
  static const std::vector<Unimplemented> k = {
      {"chimera", "chimeric (co-fragmenting) PSM search is not implemented"},
      {"wide_window", "wide-window/DIA search is not implemented; precursor_tol is used"},
      {"predict_rt", "retention-time prediction is not implemented"},
      {"quant", "TMT/LFQ quantification is not implemented"},
      {"min_matched_peaks", "not implemented; PSMs are reported whatever their matched peaks"},
      {"override_precursor_charge", "not implemented; charges in the file are used"},
      {"annotate_matches", "fragment annotation output is not implemented"},
      {"write_report", "Sage's HTML report is not implemented"},
      {"score_type", "only the X!Tandem hyperscore is implemented"},
      {"bruker_spectrum_processor", "Bruker .d input is not implemented"},
      {"parallel", "ionflow always runs in parallel (see scorers)"},
      {"version", "Sage results.json field, ignored"},
      {"output_paths", "Sage results.json field, ignored"},
  };
  return k;
}

const std::vector<Unimplemented>& unimplemented_database() {
  static const std::vector<Unimplemented> k = {
      {"bucket_size", "Sage fragment-index tuning, ionflow's index has no buckets"},
      {"fragment_min_mz", "not implemented; all fragments are indexed"},
      {"fragment_max_mz", "not implemented; all fragments are indexed"},
      {"min_ion_index", "not implemented; all b/y ions are scored"},
      {"prefilter", "not implemented"},
      {"prefilter_chunk_size", "not implemented"},
      {"prefilter_low_memory", "not implemented"},
  };
  return k;
}

// ---------------------------------------------------------------------------------------------
// The message.

class MessageReader {
 public:
  MessageReader(const Unimod& unimod, const JobMessageOptions& options)
      : unimod_(unimod), options_(options) {}

  ParsedJob read(const JsonValue& root) {
    if (!root.is_object()) fail("", "a job message is a JSON object, got " + got(root));
    walk_object(root, "", top_level_keys());
    resolve();
    ParsedJob out;
    out.spec = std::move(spec_);
    out.warnings = std::move(warnings_);
    out.spec.effective_parameters_json = effective_parameters_json(out.spec);
    return out;
  }

 private:
  std::vector<Key> with_unimplemented(std::vector<Key> keys,
                                      const std::vector<Unimplemented>& unimplemented) {
    for (const auto& u : unimplemented) {
      std::string note(u.note);
      keys.push_back({u.key, [this, note](const JsonValue&, const std::string& p) {
                        warnings_.push_back(p + ": Sage setting not implemented by ionflow (" +
                                            note + "); ignored");
                      }});
    }
    return keys;
  }

  // Every top-level key of a job message (Sage's names where Sage has the setting).
  std::vector<Key> top_level_keys() {
    std::vector<Key> keys;
    for (auto group : {&MessageReader::search_keys, &MessageReader::input_output_keys,
                       &MessageReader::digestion_keys, &MessageReader::pipeline_keys}) {
      std::vector<Key> more = (this->*group)();
      keys.insert(keys.end(), std::make_move_iterator(more.begin()),
                  std::make_move_iterator(more.end()));
    }
    return with_unimplemented(std::move(keys), unimplemented_top_level());
  }

  // Top-level keys: The search parameters: tolerances, charges, peaks, ion types.
  std::vector<Key> search_keys() {
    auto& s = spec_.search;
    return {
        {"database", [this](const JsonValue& v, const std::string& p) { read_database(v, p); }},
        {"precursor_tol",
         [this, &s](const JsonValue& v, const std::string& p) {
           s.precursor_tolerance = get_tolerance(v, p, kPrecursorToleranceLimits, warnings_);
         }},
        {"fragment_tol",
         [this, &s](const JsonValue& v, const std::string& p) {
           s.fragment_tolerance = get_tolerance(
               v, p, options_.stored_job ? kPrecursorToleranceLimits : kFragmentToleranceLimits,
               warnings_);
         }},
        {"isotope_errors",
         [&s](const JsonValue& v, const std::string& p) {
           auto [lo, hi] = get_int_range(v, p, -5, 5);
           s.isotope_errors.clear();
           for (int i = lo; i <= hi; ++i) s.isotope_errors.push_back(i);
         }},
        {"precursor_charge",
         [&s](const JsonValue& v, const std::string& p) {
           auto [lo, hi] = get_int_range(v, p, 1, kMaxPrecursorCharge);
           s.min_precursor_charge = lo;
           s.max_precursor_charge = hi;
         }},
        {"max_fragment_charge",
         [&s](const JsonValue& v, const std::string& p) {
           s.max_fragment_charge = get_int(v, p, 0, 10);
         }},
        {"min_peaks", [&s](const JsonValue& v,
                           const std::string& p) { s.min_peaks = get_int(v, p, 0, 100000); }},
        {"max_peaks", [&s](const JsonValue& v,
                           const std::string& p) { s.max_peaks = get_int(v, p, 1, 100000); }},
        {"report_psms",
         [&s](const JsonValue& v, const std::string& p) { s.report_psms = get_int(v, p, 1, 100); }},
        {"deisotope",
         [&s](const JsonValue& v, const std::string& p) { s.deisotope = get_bool(v, p); }},
        {"infer_precursor_charge",
         [&s](const JsonValue& v, const std::string& p) {
           s.infer_precursor_charge = get_bool(v, p);
         }},
        {"remove_precursor_peak",
         [&s](const JsonValue& v, const std::string& p) {
           s.remove_precursor_peak = get_bool(v, p);
         }},
        {"ion_types",
         [this](const JsonValue& v, const std::string& p) {
           ion_types_ = get_string(v, p);
           ion_types_key_ = p;
         }},
    };
  }

  // Top-level keys: Inputs and outputs: spectra files, output directory.
  std::vector<Key> input_output_keys() {
    return {
        {"mzml_paths",
         [this](const JsonValue& v, const std::string& p) { mzml_paths_ = get_string_list(v, p); }},
        {"spectra",
         [this](const JsonValue& v, const std::string& p) { spectra_ = get_string_list(v, p); }},
        {"output_directory",
         [this](const JsonValue& v, const std::string& p) {
           output_directory_ = get_string(v, p);
           output_directory_key_ = p;
         }},
        {"write_pin",
         [this](const JsonValue& v, const std::string& p) { write_pin_ = get_bool(v, p); }},
        // ionflow keys.
    };
  }

  // Top-level keys: Digestion and modifications by name, decoys.
  std::vector<Key> digestion_keys() {
    auto& s = spec_.search;
    return {
        {"enzyme",
         [this](const JsonValue& v, const std::string& p) {
           const auto& name = get_string(v, p);
           auto rule = find_enzyme_rule(name);
           if (!rule)
             fail(p, "unknown enzyme " + json_quote(name) + " (" + enzyme_rule_names() + ")");
           enzyme_rule_ = *rule;
         }},
        {"fixed_modifications",
         [this](const JsonValue& v, const std::string& p) {
           named_fixed_ = modification_list(v, p, unimod_, true, named_fixed_keys_);
         }},
        {"variable_modifications",
         [this](const JsonValue& v, const std::string& p) {
           named_variable_ = modification_list(v, p, unimod_, false, named_variable_keys_);
         }},
        {"decoy_tag_position",
         [this](const JsonValue& v, const std::string& p) {
           const auto& s = get_string(v, p);
           if (s == "prefix") {
             decoy_suffix_ = false;
           } else if (s == "suffix") {
             decoy_suffix_ = true;
           } else {
             fail(p, "expected \"prefix\" or \"suffix\", got " + got(v));
           }
         }},
        {"decoy_generation",
         [this](const JsonValue& v, const std::string& p) {
           const auto& s = get_string(v, p);
           if (s == "none") {
             decoy_generation_ = DecoyGeneration::kNone;
           } else if (s == "reverse_peptide") {
             decoy_generation_ = DecoyGeneration::kReversePeptide;
           } else if (s == "reverse_protein") {
             decoy_generation_ = DecoyGeneration::kReverseProtein;
           } else {
             fail(p,
                  "expected \"reverse_peptide\", \"reverse_protein\" or \"none\", got " + got(v));
           }
         }},
        {"clip_n_terminal_methionine",
         [&s](const JsonValue& v, const std::string& p) {
           s.database.clip_n_terminal_methionine = get_bool(v, p);
         }},
    };
  }

  // Top-level keys: Pipeline and service settings, output formats.
  std::vector<Key> pipeline_keys() {
    return {
        {"licensed_cores",
         [this](const JsonValue& v, const std::string& p) {
           spec_.licensed_cores = get_int(v, p, 0, 4096);
         }},
        {"scorers", [this](const JsonValue& v,
                           const std::string& p) { spec_.scorers = get_int(v, p, 0, 4096); }},
        {"parsers",
         [this](const JsonValue& v, const std::string& p) { spec_.parsers = get_int(v, p, 1, 4); }},
        {"chunk_size",
         [this](const JsonValue& v, const std::string& p) {
           spec_.chunk_size = static_cast<uint32_t>(get_integer(v, p, 1, 1000000));
         }},
        {"block_size_bytes",
         [this](const JsonValue& v, const std::string& p) {
           spec_.block_size_bytes = static_cast<uint32_t>(get_integer(v, p, 4096, 1u << 30));
         }},
        {"max_blocks_in_flight",
         [this](const JsonValue& v, const std::string& p) {
           spec_.max_blocks_in_flight = static_cast<uint32_t>(get_integer(v, p, 1, 1024));
         }},
        {"max_chunks_in_flight",
         [this](const JsonValue& v, const std::string& p) {
           spec_.max_chunks_in_flight = static_cast<uint32_t>(get_integer(v, p, 0, 65536));
         }},
        {"sorter_memory_mb",
         [this](const JsonValue& v, const std::string& p) {
           spec_.sorter_memory_budget_bytes = static_cast<uint64_t>(get_integer(v, p, 1, 1 << 20))
                                              << 20;
         }},
        {"fragment_index_memory_mb",
         [this](const JsonValue& v, const std::string& p) {
           spec_.fragment_index_budget_bytes = static_cast<uint64_t>(get_integer(v, p, 1, 1 << 24))
                                               << 20;
         }},
        {"temp_directory",
         [this](const JsonValue& v, const std::string& p) {
           temp_directory_ = get_string(v, p);
           temp_directory_key_ = p;
         }},
        {"index_cache_directory",
         [this](const JsonValue& v, const std::string& p) {
           index_cache_directory_ = get_string(v, p);
           index_cache_directory_key_ = p;
         }},
        {"output_formats",
         [this](const JsonValue& v, const std::string& p) {
           auto formats = get_string_list(v, p);
           const std::string known = "(" + output_format_keys() + ")";
           if (formats.empty()) fail(p, "give at least one format " + known);
           std::set<std::string> seen;
           for (size_t i = 0; i < formats.size(); ++i) {
             const bool format_known =
                 std::any_of(std::begin(kOutputFormatNames), std::end(kOutputFormatNames),
                             [&](const OutputFormatName& f) { return formats[i] == f.key; });
             if (!format_known) {
               fail(index_path(p, i), "unknown format " + json_quote(formats[i]) + " " + known);
             }
             if ((formats[i] == "mzid" && seen.count("mzid1.2")) ||
                 (formats[i] == "mzid1.2" && seen.count("mzid"))) {
               fail(index_path(p, i), "mzid and mzid1.2 both write results.mzid; give one");
             }
             if (!seen.insert(formats[i]).second) {
               fail(index_path(p, i), "format " + json_quote(formats[i]) + " listed twice");
             }
           }
           spec_.output_formats = formats;
         }},
        {"zstd", [this](const JsonValue& v, const std::string& p) { spec_.zstd = get_bool(v, p); }},
        {"priority",
         [this](const JsonValue& v, const std::string& p) {
           spec_.priority = get_int(v, p, -1000000, 1000000);
         }},
    };
  }

  void read_database(const JsonValue& v, const std::string& path) {
    auto& d = spec_.search.database;
    std::vector<Key> keys = {
        {"fasta", [this](const JsonValue& x, const std::string& p) { fasta_ = get_string(x, p); }},
        {"enzyme", [this](const JsonValue& x, const std::string& p) { read_enzyme(x, p); }},
        {"static_mods",
         [this](const JsonValue& x, const std::string& p) {
           sage_fixed_ = sage_modifications(x, p, true, sage_fixed_keys_);
           sage_fixed_key_ = p;
         }},
        {"variable_mods",
         [this](const JsonValue& x, const std::string& p) {
           sage_variable_ = sage_modifications(x, p, false, sage_variable_keys_);
         }},
        {"max_variable_mods",
         [&d](const JsonValue& x, const std::string& p) {
           d.max_variable_modifications = get_int(x, p, 0, 10);
         }},
        {"decoy_tag",
         [this](const JsonValue& x, const std::string& p) {
           decoy_tag_ = get_string(x, p);
           if (decoy_tag_->empty()) fail(p, "must not be empty");
         }},
        {"generate_decoys",
         [this](const JsonValue& x, const std::string& p) {
           generate_decoys_ = get_bool(x, p);
           generate_decoys_key_ = p;
         }},
        {"peptide_min_mass",
         [this](const JsonValue& x, const std::string& p) {
           peptide_min_mass_ = get_number(x, p);
         }},
        {"peptide_max_mass",
         [this](const JsonValue& x, const std::string& p) {
           peptide_max_mass_ = get_number(x, p);
         }},
        {"ion_kinds",
         [this](const JsonValue& x, const std::string& p) {
           std::string kinds;
           for (const auto& k : get_string_list(x, p)) kinds += k;
           ion_kinds_ = kinds;
           ion_kinds_key_ = p;
         }},
    };
    walk_object(v, path, with_unimplemented(std::move(keys), unimplemented_database()));
  }

  void read_enzyme(const JsonValue& v, const std::string& path) {
    auto& e = spec_.search.database.enzyme;
    enzyme_key_ = path;
    walk_object(
        v, path,
        {{"missed_cleavages",
          [&e](const JsonValue& x, const std::string& p) {
            e.missed_cleavages = get_int(x, p, 0, 255);
          }},
         {"min_len", [&e](const JsonValue& x,
                          const std::string& p) { e.min_length = get_int(x, p, 1, 1000); }},
         {"max_len", [&e](const JsonValue& x,
                          const std::string& p) { e.max_length = get_int(x, p, 1, 1000); }},
         {"cleave_at",
          [this](const JsonValue& x, const std::string& p) {
            const auto& s = get_string(x, p);
            if (s != "$") check_residues(s, p);
            sage_rule_.cleave_at = s;
          }},
         {"restrict",
          [this](const JsonValue& x, const std::string& p) {
            const auto& s = get_string(x, p);
            check_residues(s, p);
            sage_rule_.restrict = s;
          }},
         {"c_terminal", [this](const JsonValue& x,
                               const std::string& p) { sage_rule_.c_terminal = get_bool(x, p); }},
         {"semi_enzymatic",
          [&e](const JsonValue& x, const std::string& p) { e.semi_enzymatic = get_bool(x, p); }},
         {"name", [this](const JsonValue& x, const std::string& p) {
            // Accepted here too so that database.enzyme can be read on its own.
            const auto& name = get_string(x, p);
            auto rule = find_enzyme_rule(name);
            if (!rule)
              fail(p, "unknown enzyme " + json_quote(name) + " (" + enzyme_rule_names() + ")");
            if (enzyme_rule_ && enzyme_rule_->name != rule->name) {
              fail(p, "conflicts with enzyme " + json_quote(enzyme_rule_->name));
            }
            enzyme_rule_ = *rule;
          }}});
  }

  // The key the spectra files were given under.
  std::string spectra_key_name() const { return spectra_ ? "spectra" : "mzml_paths"; }

  // Fills spec_ from what was read, checking what only the whole message can tell.
  void resolve() {
    resolve_enzyme();
    resolve_masses();
    resolve_modifications();
    resolve_decoys();
    resolve_ion_types();
    resolve_limits();
    resolve_paths();
    check_inputs();
  }

  // The enzyme: a name fixes the cleavage rule and Sage's cleave_at/restrict/c_terminal must
  // agree with it (residues in any order: "trypsin" with cleave_at "RK" is trypsin). Without a
  // name, Sage's fields (default trypsin) name the rule if it is a known one, which is then stored
  // in its own spelling ("RK" -> trypsin's "KR") so that the effective parameters, which name it,
  // parse back without a conflict; else it is "custom".
  void resolve_enzyme() {
    auto& e = spec_.search.database.enzyme;
    const auto take = [&e](const EnzymeRule& r) {
      e.name = r.name;
      e.cleave_at = r.cleave_at;
      e.restrict = r.restrict;
      e.c_terminal = r.c_terminal;
    };
    if (enzyme_rule_) {
      const auto& r = *enzyme_rule_;
      auto check = [&](bool given, bool same, const char* field) {
        if (given && !same) {
          fail(join_path(enzyme_key_, field),
               "conflicts with enzyme " + json_quote(r.name) + " (omit it, or use a custom rule)");
        }
      };
      const auto same = [](const std::optional<std::string>& given, const std::string& rule) {
        return given && same_residues(*given, rule);
      };
      check(sage_rule_.cleave_at.has_value(), same(sage_rule_.cleave_at, r.cleave_at), "cleave_at");
      check(sage_rule_.restrict.has_value(), same(sage_rule_.restrict, r.restrict), "restrict");
      check(sage_rule_.c_terminal.has_value(), sage_rule_.c_terminal == r.c_terminal, "c_terminal");
      take(r);
    } else {
      e.cleave_at = sage_rule_.cleave_at.value_or("KR");
      e.restrict = sage_rule_.restrict.value_or("P");
      e.c_terminal = sage_rule_.c_terminal.value_or(true);
      if (auto known = find_enzyme_rule_by_rule(e.cleave_at, e.restrict, e.c_terminal)) {
        take(*known);
      } else {
        e.name = "custom";
      }
    }
    if (e.min_length > e.max_length) {
      fail(
          join_path(enzyme_key_.empty() ? "database.enzyme" : enzyme_key_, "min_len"),
          "min_len " + std::to_string(e.min_length) + " > max_len " + std::to_string(e.max_length));
    }
  }

  // The peptide mass range.
  void resolve_masses() {
    auto& d = spec_.search.database;
    if (peptide_min_mass_) d.peptide_min_mass_da = *peptide_min_mass_;
    if (peptide_max_mass_) d.peptide_max_mass_da = *peptide_max_mass_;
    if (d.peptide_min_mass_da < 0 || !std::isfinite(d.peptide_min_mass_da)) {
      fail("database.peptide_min_mass", "must be >= 0 Da");
    }
    if (d.peptide_min_mass_da > d.peptide_max_mass_da || !std::isfinite(d.peptide_max_mass_da)) {
      fail("database.peptide_min_mass",
           "peptide_min_mass " + to_json(JsonValue(d.peptide_min_mass_da)) +
               " > peptide_max_mass " + to_json(JsonValue(d.peptide_max_mass_da)) + " Da");
    }
  }

  // Fixed and variable modifications: Sage's mass maps first, then Unimod names.
  void resolve_modifications() {
    auto& d = spec_.search.database;
    d.fixed_modifications = sage_fixed_;
    d.fixed_modifications.insert(d.fixed_modifications.end(), named_fixed_.begin(),
                                 named_fixed_.end());
    d.variable_modifications = sage_variable_;
    d.variable_modifications.insert(d.variable_modifications.end(), named_variable_.begin(),
                                    named_variable_.end());
    check_fixed_conflicts(d.fixed_modifications,
                          named_fixed_.empty()
                              ? (sage_fixed_key_.empty() ? "database.static_mods" : sage_fixed_key_)
                              : "fixed_modifications");
    std::vector<std::string> fixed_keys = sage_fixed_keys_;
    fixed_keys.insert(fixed_keys.end(), named_fixed_keys_.begin(), named_fixed_keys_.end());
    std::vector<std::string> variable_keys = sage_variable_keys_;
    variable_keys.insert(variable_keys.end(), named_variable_keys_.begin(),
                         named_variable_keys_.end());
    if (!options_.stored_job) {
      check_variable_same_as_fixed(d.fixed_modifications, fixed_keys, d.variable_modifications,
                                   variable_keys);
    }
    // A modification given by mass gets the Unimod name and accession of the one entry at its
    // sites and mass (scoring/unimod.hpp), so that results say UNIMOD:4, not +57.021464.
    for (auto* list : {&d.fixed_modifications, &d.variable_modifications}) {
      for (Modification& m : *list) m = unimod_.named_by_mass(m);
    }
  }

  // The decoy tag, its position and how decoys are made.
  void resolve_decoys() {
    auto& d = spec_.search.database;
    if (decoy_tag_) d.decoy_tag = *decoy_tag_;
    d.decoy_tag_is_suffix = decoy_suffix_.value_or(infer_suffix(d.decoy_tag));
    if (decoy_generation_ && generate_decoys_) {
      bool generates = *decoy_generation_ != DecoyGeneration::kNone;
      if (generates != *generate_decoys_) {
        fail(generate_decoys_key_, std::string(*generate_decoys_ ? "true" : "false") +
                                       " conflicts with decoy_generation \"" +
                                       std::string(decoy_generation_name(*decoy_generation_)) +
                                       "\"");
      }
    }
    if (decoy_generation_) {
      d.decoy_generation = *decoy_generation_;
    } else if (generate_decoys_) {
      // Sage: true = reverse peptides (ignore FASTA decoys), false = use the FASTA's decoys.
      d.decoy_generation =
          *generate_decoys_ ? DecoyGeneration::kReversePeptide : DecoyGeneration::kNone;
    }
  }

  // The fragment ion types scored.
  void resolve_ion_types() {
    auto& s = spec_.search;
    if (ion_types_ && ion_kinds_)
      fail(ion_types_key_, "give either ion_types or database.ion_kinds");
    if (ion_kinds_) ion_types_ = ion_kinds_, ion_types_key_ = ion_kinds_key_;
    if (ion_types_) {
      std::string types;
      for (char c : *ion_types_) {
        char lc = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        if (std::string_view("abcyz").find(lc) == std::string_view::npos) {
          fail(ion_types_key_,
               std::string("unsupported ion type '") + c + "' (any of a, b, c, y, z)");
        }
        if (types.find(lc) != std::string::npos) {
          fail(ion_types_key_, std::string("ion type '") + c + "' listed twice");
        }
        types += lc;
      }
      if (types.empty()) fail(ion_types_key_, "give at least one ion type");
      std::sort(types.begin(), types.end());
      s.ion_types = types;
    }
  }

  // Limits that must agree with each other: peaks per spectrum, scorers, the pin format.
  void resolve_limits() {
    auto& s = spec_.search;
    if (s.min_peaks > s.max_peaks) {
      fail("min_peaks", "min_peaks " + std::to_string(s.min_peaks) + " > max_peaks " +
                            std::to_string(s.max_peaks) + " (no spectrum could be searched)");
    }

    if (spec_.licensed_cores > 0 && spec_.scorers > spec_.licensed_cores) {
      fail("scorers", std::to_string(spec_.scorers) + " exceeds licensed_cores " +
                          std::to_string(spec_.licensed_cores));
    }
    if (write_pin_ && *write_pin_ &&
        std::find(spec_.output_formats.begin(), spec_.output_formats.end(), "pin") ==
            spec_.output_formats.end()) {
      spec_.output_formats.push_back("pin");
    }
  }

  // Spectra, FASTA, output, temporary and index-cache paths.
  void resolve_paths() {
    if (spectra_ && mzml_paths_) fail("spectra", "give either spectra or mzml_paths, not both");
    const std::string spectra_key = spectra_key_name();
    std::vector<std::string> spectra =
        spectra_ ? *spectra_ : mzml_paths_.value_or(std::vector<std::string>{});
    for (size_t i = 0; i < spectra.size(); ++i) {
      spec_.spectra_paths.push_back(resolve_path(spectra[i], index_path(spectra_key, i), options_));
    }
    if (fasta_) spec_.fasta_path = resolve_path(*fasta_, "database.fasta", options_);
    if (!options_.forced_output_directory.empty()) {
      if (output_directory_) {
        warnings_.push_back(output_directory_key_ + ": ignored; the server writes results to " +
                            options_.forced_output_directory);
      }
      spec_.output_directory = options_.forced_output_directory;
    } else {
      JobMessageOptions unrestricted = options_;
      unrestricted.data_roots.clear();
      spec_.output_directory =
          resolve_path(output_directory_.value_or("."), "output_directory", unrestricted);
    }
    if (temp_directory_ && !options_.forced_output_directory.empty()) {
      // ionflow serve decides where files are written: spills stay in the job's directory.
      warnings_.push_back(temp_directory_key_ + ": ignored; the server spills into " +
                          options_.forced_output_directory);
    } else if (temp_directory_) {
      JobMessageOptions unrestricted = options_;
      unrestricted.data_roots.clear();
      spec_.temp_directory = resolve_path(*temp_directory_, temp_directory_key_, unrestricted);
    }
    if (!options_.forced_index_cache_directory.empty()) {
      if (index_cache_directory_) {
        warnings_.push_back(index_cache_directory_key_ +
                            ": ignored; the server keeps its index cache in " +
                            options_.forced_index_cache_directory);
      }
      spec_.index_cache_directory = options_.forced_index_cache_directory;
    } else if (index_cache_directory_ && !index_cache_directory_->empty()) {
      JobMessageOptions unrestricted = options_;
      unrestricted.data_roots.clear();
      spec_.index_cache_directory =
          resolve_path(*index_cache_directory_, index_cache_directory_key_, unrestricted);
    }
  }

  // With JobMessageOptions::check_inputs: the FASTA and every spectra file exist and are readable.
  void check_inputs() {
    if (!options_.check_inputs) return;
    const std::string spectra_key = spectra_key_name();
    if (spec_.fasta_path.empty()) fail("database.fasta", "required (the FASTA database to search)");
    check_readable_file(spec_.fasta_path, "database.fasta");
    if (spec_.spectra_paths.empty()) {
      fail(spectra_key, "no spectra files given (mzml_paths, spectra, or the command line)");
    }
    for (size_t i = 0; i < spec_.spectra_paths.size(); ++i) {
      check_readable_file(spec_.spectra_paths[i], index_path(spectra_key, i));
    }
  }

  const Unimod& unimod_;
  const JobMessageOptions& options_;
  JobSpec spec_;
  std::vector<std::string> warnings_;

  struct SageRule {
    std::optional<std::string> cleave_at;
    std::optional<std::string> restrict;
    std::optional<bool> c_terminal;
  } sage_rule_;
  std::optional<EnzymeRule> enzyme_rule_;
  std::string enzyme_key_;
  std::vector<Modification> sage_fixed_, sage_variable_, named_fixed_, named_variable_;
  // The key path of each modification above, index for index.
  std::vector<std::string> sage_fixed_keys_, sage_variable_keys_, named_fixed_keys_,
      named_variable_keys_;
  std::string sage_fixed_key_;
  std::optional<std::string> decoy_tag_;
  std::optional<bool> decoy_suffix_;
  std::optional<DecoyGeneration> decoy_generation_;
  std::optional<bool> generate_decoys_;
  std::string generate_decoys_key_;
  std::optional<double> peptide_min_mass_, peptide_max_mass_;
  std::optional<std::string> ion_types_, ion_kinds_;
  std::string ion_types_key_, ion_kinds_key_;
  std::optional<std::vector<std::string>> mzml_paths_, spectra_;
  std::optional<std::string> fasta_;
  std::optional<std::string> output_directory_;
  std::string output_directory_key_;
  std::optional<std::string> temp_directory_;
  std::string temp_directory_key_;
  std::optional<std::string> index_cache_directory_;
  std::string index_cache_directory_key_;
  std::optional<bool> write_pin_;
};

}  // namespace

ParsedJob read_job_message(const JsonValue& message, const Unimod& unimod,
                           const JobMessageOptions& options) {
  MessageReader reader(unimod, options);
  return reader.read(message);
}

ParsedJob parse_job_message(std::string_view json_text, const Unimod& unimod,
                            const JobMessageOptions& options) {
  JsonValue root;
  try {
    root = parse_json(json_text);
  } catch (const JsonSyntaxError& e) {
    throw JobMessageError("", std::string("not valid JSON: ") + e.what());
  }
  return read_job_message(root, unimod, options);
}

}  // namespace ionflow
