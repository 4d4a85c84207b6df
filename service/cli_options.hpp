// Shared pieces of the `ionflow` command line (CLI11): validators whose messages name the
// option's meaning and range, and the JSON values that command-line overrides become.
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "service/json_value.hpp"

namespace ionflow {

// "tsv,,mzid" -> {"tsv", "", "mzid"}: empty items are kept so that the job reader names them.
std::vector<std::string> split_list(const std::string& text);

// ["a", "b"] as a JSON array of strings.
JsonValue string_array(const std::vector<std::string>& items);

// {unit: [-width, width]}, the job file's form of a symmetric tolerance window; `unit` is
// "ppm" or "da".
JsonValue symmetric_tolerance(const char* unit, double width);

// A flag's text as the job message value it overrides: an integer ("2", "-1") as a JSON integer,
// another finite number ("1.5", "1e3") as a real, anything else ("two") as a string, which the
// job reader then refuses naming the key, exactly as it would in the file.
JsonValue json_from_flag(const std::string& text);

// Accepts a number x >= 0, the half-width of a symmetric window [-x, x] (the --*-tol-* flags);
// the message for a negative value points to the job file for asymmetric windows.
CLI::Validator half_width();

// Accepts an integer in [lo, hi]. CLI11's own conversion error for "--chunk-size -5" named
// neither the range nor what the option counts; this says both. `what` is e.g. "queries per
// chunk"; CLI11 prints the message after "--option: ".
CLI::Validator integer_in(long long lo, long long hi, const std::string& what);

}  // namespace ionflow
