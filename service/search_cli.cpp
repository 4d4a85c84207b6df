#include "service/search_cli.hpp"

#include <spdlog/spdlog.h>

#include "service/cli_options.hpp"

namespace ionflow {

SearchCli::SearchCli(CLI::App& app)
    : command_(app.add_subcommand("search", "Search spectra against a FASTA database (one job)")) {
  add_input_options();
  add_output_options();
  add_resource_options();
  add_tolerance_options();
  add_digestion_options();
  add_run_options();
}

CLI::Option* SearchCli::add_override(const std::string& flags, const std::string& key,
                                     const std::string& help, const char* type_name) {
  std::string& text = flag_texts_.emplace_back();
  CLI::Option* option = command_->add_option(flags, text, help + " (" + key + ")");
  option->type_name(type_name);
  // An INT flag's number becomes a JSON number, anything else a string (as do the other
  // flags' values): the job reader checks the value
  // and names the key, as it would in the file ("expected unsigned integer, got string").
  const bool numeric = std::string_view(type_name) == "INT";
  overrides_.push_back(
      {option, key, [&text, numeric] { return numeric ? json_from_flag(text) : JsonValue(text); }});
  return option;
}

void SearchCli::add_input_options() {
  command_->add_option("job", search_.job_path, "JSON job message (a Sage config file is one)")
      ->required()
      ->check(CLI::ExistingFile);
  CLI::Option* spectra = command_->add_option(
      "spectra", spectra_,
      "Spectra files (mzML, mzXML, MGF, MS2; .gz/.zst/.bz2 ok); override mzml_paths/spectra in "
      "the job");
  overrides_.push_back({spectra, "mzml_paths", [this] { return string_array(spectra_); }});
  add_override("-f,--fasta", "database.fasta", "FASTA database", "FILE");
}

void SearchCli::add_output_options() {
  add_override("-o,--output-directory,--output_directory", "output_directory", "Where results go",
               "DIR");
  overrides_.push_back({command_->add_flag("--zstd", zstd_, "Compress result files with zstd"),
                        "zstd", [] { return JsonValue(true); }});
  overrides_.push_back({command_->add_flag("--write-pin", write_pin_,
                                           "Also write Percolator input (Sage's --write-pin)"),
                        "write_pin", [] { return JsonValue(true); }});
  CLI::Option* formats =
      command_->add_option("--output-formats", output_formats_,
                           "Comma-separated: tsv,mzid,mzid1.2,pepxml,pin (output_formats)");
  overrides_.push_back(
      {formats, "output_formats", [this] { return string_array(split_list(output_formats_)); }});
}

void SearchCli::add_resource_options() {
  add_override("--scorers", "scorers", "Scorer actors; 0 = usable cores", "INT");
  add_override("--parsers", "parsers", "Parser actors, 1-4", "INT");
  add_override("--licensed-cores", "licensed_cores", "Cap on scorers; 0 = cores available", "INT");
  // The job message's chunk_size range (service/job_message_values.cpp).
  add_override("--chunk-size", "chunk_size", "Queries per chunk", "INT")
      ->check(integer_in(1, 1000000, "queries per chunk (chunk_size)"));
  add_override("--index-cache", "index_cache_directory",
               "Directory caching the digested peptide index by FASTA checksum and digestion "
               "settings; a later job on the same database skips digestion",
               "DIR");
  add_override("--sorter-memory-mb", "sorter_memory_mb",
               "Sorter memory before spilling to disk, MiB", "INT");
}

void SearchCli::add_tolerance_options() {
  auto add_window = [this](const std::string& flags, double& half_width_field, const char* key,
                           const char* unit, const std::string& help) {
    CLI::Option* option = command_->add_option(flags, half_width_field, help)->check(half_width());
    overrides_.push_back({option, key, [unit, &half_width_field] {
                            return symmetric_tolerance(unit, half_width_field);
                          }});
    return option;
  };
  CLI::Option* pre_ppm =
      add_window("--precursor-tol-ppm", precursor_ppm_, "precursor_tol", "ppm",
                 "Symmetric precursor tolerance, ppm (precursor_tol {ppm: [-x, x]})");
  CLI::Option* pre_da =
      add_window("--precursor-tol-da", precursor_da_, "precursor_tol", "da",
                 "Symmetric precursor tolerance, Da (precursor_tol {da: [-x, x]})");
  CLI::Option* frag_ppm = add_window("--fragment-tol-ppm", fragment_ppm_, "fragment_tol", "ppm",
                                     "Symmetric fragment tolerance, ppm (fragment_tol)");
  CLI::Option* frag_da = add_window("--fragment-tol-da", fragment_da_, "fragment_tol", "da",
                                    "Symmetric fragment tolerance, Da (fragment_tol)");
  pre_ppm->excludes(pre_da);
  frag_ppm->excludes(frag_da);
}

void SearchCli::add_digestion_options() {
  add_override("--enzyme", "enzyme", "Enzyme name, e.g. trypsin, lys-c", "NAME");
  add_override("--missed-cleavages", "database.enzyme.missed_cleavages", "Missed cleavages", "INT");
  add_override("--decoy-tag", "database.decoy_tag", "Decoy accession tag", "TAG");
  add_override("--report-psms", "report_psms", "PSMs reported per spectrum", "INT");
}

void SearchCli::add_run_options() {
  command_->add_flag("--dry-run", search_.dry_run,
                     "Print the effective parameters (JSON) on stdout and exit without searching");
  command_->add_flag("-q,--quiet", search_.quiet, "No progress output and no [info] log lines");
  command_->add_option(
      "--max-memory", search_.max_memory,
      "Memory budget of the peptide index (8G, 512M, bytes); a job estimated above it fails at "
      "once naming the settings. Default: 3/4 of MemAvailable (or of the cgroup limit)");
  command_->add_option("--scorer-listen", search_.scorer_listen,
                       "Accept remote scorer nodes (ionflow scorer-node) on HOST:PORT during the "
                       "job; beyond loopback only with --scorer-token");
  command_
      ->add_option("--scorer-token", search_.scorer_token,
                   "Token remote scorer nodes must give (or IONFLOW_SCORER_TOKEN)")
      ->envname("IONFLOW_SCORER_TOKEN");
}

int SearchCli::run(bool log_level_given) {
  // -q: no progress and no [info] lines; warnings and errors still show.
  if (search_.quiet && !log_level_given) spdlog::set_level(spdlog::level::warn);
  for (const Override& o : overrides_) {
    if (o.option->count() > 0) search_.overrides.emplace_back(o.key, o.value());
  }
  return run_search_command(search_);
}

}  // namespace ionflow
