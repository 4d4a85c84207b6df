// The `ionflow search` subcommand's command line: the job file, the spectra files, and flags
// that override the job message's keys (each flag's help names its key). Parsing only fills
// this object; run() turns the given flags into SearchCommand::overrides, in the order the
// flags are declared, and runs the search (service/search_command.hpp).
#pragma once

#include <CLI/CLI.hpp>

#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "service/json_value.hpp"
#include "service/search_command.hpp"

namespace ionflow {

class SearchCli {
 public:
  // Adds the `search` subcommand to `app`. CLI11 binds options to this object's members, so
  // it must stay where it is until run(): it is neither copied nor moved.
  explicit SearchCli(CLI::App& app);
  SearchCli(const SearchCli&) = delete;
  SearchCli& operator=(const SearchCli&) = delete;

  // True when the parsed command line chose `search`.
  bool chosen() const { return command_->parsed(); }

  // Runs the search; returns the process exit code (search_command.hpp). `log_level_given`:
  // --log-level was on the command line, so -q does not lower the log level.
  int run(bool log_level_given);

 private:
  // A flag that, when given, sets the job message's `key` to value().
  struct Override {
    CLI::Option* option;
    std::string key;
    std::function<JsonValue()> value;
  };
  // Adds option `flags` (its text kept in flag_texts_), overriding `key` with its value.
  CLI::Option* add_override(const std::string& flags, const std::string& key,
                            const std::string& help, const char* type_name);
  void add_input_options();
  void add_output_options();
  void add_resource_options();
  void add_tolerance_options();
  void add_digestion_options();
  void add_run_options();

  CLI::App* command_ = nullptr;
  SearchCommand search_;
  std::vector<Override> overrides_;
  std::deque<std::string> flag_texts_;  // the override flags' values (stable addresses)
  std::vector<std::string> spectra_;
  std::string output_formats_;
  double precursor_ppm_ = 0, precursor_da_ = 0, fragment_ppm_ = 0, fragment_da_ = 0;
  bool zstd_ = false, write_pin_ = false;
};

}  // namespace ionflow
