// Per-chunk network cost of scoring on a remote node (issue 17 part 2), on loopback: two CAF
// actor systems in one process (two node ids, so every message crosses TCP and the middleman's
// serialization, as between machines). The "node" system publishes a scorer actor that scores
// QueryChunks with the real SpectrumScorer over the job's PeptideIndex; the "coordinator" sends
// each chunk with request(...).then (30 s timeout) one at a time and times the round trip. An
// echo actor (answers an empty PsmBatch) isolates the transport. Prints per chunk: the bytes of
// the QueryChunk and of its PsmBatch (binary_serializer, what the middleman sends), the mean round
// trip, the mean scoring time inside the node, and the overhead = round trip - scoring.
// Usage: ionflow_net_chunk_cost SPECTRA FASTA [CHUNK_QUERIES=1000] (decoys "rev_" prefix from the
// FASTA, Carbamidomethyl C fixed, Oxidation M variable, isotope errors 0 and 1).
#include <caf/all.hpp>
#include <caf/binary_serializer.hpp>
#include <caf/io/all.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "io/fasta_reader.hpp"
#include "io/spectrum_reader.hpp"
#include "messages/registration.hpp"
#include "scoring/search.hpp"

namespace {

using namespace ionflow;
using Clock = std::chrono::steady_clock;

struct Config : caf::actor_system_config {
  Config() {
    register_message_types(*this);
    load<caf::io::middleman>();
    set("scheduler.max-threads", 2);
  }
};

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

template <class T>
size_t wire_bytes(caf::actor_system& sys, T x) {
  std::vector<char> buf;
  caf::binary_serializer sink{sys, buf};
  auto err = sink(x);
  return err ? 0 : buf.size();
}

// Sends every chunk in turn to `remote`; returns the mean round trip in seconds.
double mean_round_trip(caf::actor_system& sys, const caf::actor& remote,
                       const std::vector<QueryChunk>& chunks, std::vector<PsmBatch>* replies) {
  caf::scoped_actor self{sys};
  double total = 0;
  for (const QueryChunk& c : chunks) {
    const auto t0 = Clock::now();
    self->request(remote, std::chrono::seconds(30), c)
        .receive(
            [&](PsmBatch& b) {
              if (replies) replies->push_back(std::move(b));
            },
            [&](caf::error& e) { std::fprintf(stderr, "chunk: %s\n", sys.render(e).c_str()); });
    total += std::chrono::duration<double>(Clock::now() - t0).count();
  }
  return total / static_cast<double>(chunks.size());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s SPECTRA FASTA [CHUNK_QUERIES]\n", argv[0]);
    return 2;
  }
  const size_t chunk_queries = argc > 3 ? std::stoul(argv[3]) : 1000;
  SearchParameters params;
  params.database.decoy_generation = DecoyGeneration::kNone;
  params.database.decoy_tag = "rev_";
  params.isotope_errors = {0, 1};
  // Unimod: Carbamidomethyl = UNIMOD:4, +57.021464 Da; Oxidation = UNIMOD:35, +15.994915 Da.
  params.database.fixed_modifications.push_back(
      {"Carbamidomethyl", 4, 57.021464, ModificationPosition::kAnywhere, "C", true});
  params.database.variable_modifications.push_back(
      {"Oxidation", 35, 15.994915, ModificationPosition::kAnywhere, "M", false});

  const std::string fasta = read_file(argv[2]);
  FastaOptions fasta_options{params.database.decoy_tag, params.database.decoy_tag_is_suffix};
  auto index = build_peptide_index(parse_fasta(fasta, argv[2], fasta_options), params);
  const std::string content = read_file(argv[1]);
  auto reader = make_spectrum_reader(detect_peak_list_format(content.substr(0, 4096)), argv[1], 0);
  std::vector<RawSpectrum> spectra;
  reader->feed(content, spectra);
  reader->finish(spectra);
  std::vector<Query> queries;
  for (const RawSpectrum& s : spectra) {
    for (Query& q : prepare_spectrum(s, params).queries) queries.push_back(std::move(q));
  }
  std::sort(queries.begin(), queries.end(),
            [](const Query& a, const Query& b) { return a.neutral_mass < b.neutral_mass; });
  std::vector<QueryChunk> chunks;
  for (size_t i = 0; i < queries.size(); i += chunk_queries) {
    QueryChunk c;
    c.job = 1;
    c.seq = chunks.size();
    c.queries.assign(queries.begin() + i,
                     queries.begin() + std::min(queries.size(), i + chunk_queries));
    chunks.push_back(std::move(c));
  }

  Config node_cfg;
  Config coordinator_cfg;
  caf::actor_system node{node_cfg};
  caf::actor_system coordinator{coordinator_cfg};
  auto score_seconds = std::make_shared<double>(0.0);
  caf::actor scorer =
      node.spawn<caf::detached>([&index, &params, score_seconds]() -> caf::behavior {
        auto spectrum_scorer = std::make_shared<SpectrumScorer>(index, params);
        return {[spectrum_scorer, score_seconds](QueryChunk& c) {
          const auto t0 = Clock::now();
          PsmBatch b;
          b.job = c.job;
          b.seq = c.seq;
          for (const Query& q : c.queries) {
            for (Psm& p : spectrum_scorer->score(q)) b.psms.push_back(std::move(p));
            ++b.queries_scored;
          }
          b.scorer_busy_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
          *score_seconds += b.scorer_busy_seconds;
          return b;
        }};
      });
  caf::actor echo = node.spawn([]() -> caf::behavior {
    return {[](QueryChunk& c) {
      PsmBatch b;
      b.job = c.job;
      b.seq = c.seq;
      return b;
    }};
  });
  auto scorer_port = caf::io::publish(scorer, 0, "127.0.0.1", true);
  auto echo_port = caf::io::publish(echo, 0, "127.0.0.1", true);
  if (!scorer_port || !echo_port) {
    std::fprintf(stderr, "publish failed\n");
    return 1;
  }
  auto remote_scorer = coordinator.middleman().remote_actor("127.0.0.1", *scorer_port);
  auto remote_echo = coordinator.middleman().remote_actor("127.0.0.1", *echo_port);
  if (!remote_scorer || !remote_echo) {
    std::fprintf(stderr, "connect failed\n");
    return 1;
  }
  std::vector<PsmBatch> replies;
  mean_round_trip(coordinator, *remote_echo, chunks, nullptr);  // warm-up
  const double echo_rtt = mean_round_trip(coordinator, *remote_echo, chunks, nullptr);
  const double scorer_rtt = mean_round_trip(coordinator, *remote_scorer, chunks, &replies);
  const double score = *score_seconds / static_cast<double>(chunks.size());
  size_t chunk_bytes = 0, batch_bytes = 0, psms = 0;
  for (const auto& c : chunks) chunk_bytes += wire_bytes(coordinator, c);
  for (const auto& b : replies) batch_bytes += wire_bytes(coordinator, b), psms += b.psms.size();
  const double n = static_cast<double>(chunks.size());
  std::printf("%zu queries in %zu chunks of <= %zu; %zu PSMs back\n", queries.size(), chunks.size(),
              chunk_queries, psms);
  std::printf("bytes per chunk: QueryChunk %.0f (%.0f per query), PsmBatch %.0f\n", chunk_bytes / n,
              chunk_bytes / static_cast<double>(queries.size()), batch_bytes / n);
  std::printf("round trip per chunk: echo %.2f ms, scoring node %.2f ms (scoring inside %.2f ms)\n",
              echo_rtt * 1e3, scorer_rtt * 1e3, score * 1e3);
  std::printf("remote overhead per chunk: %.2f ms = %.1f%% of its scoring time\n",
              (scorer_rtt - score) * 1e3, 100.0 * (scorer_rtt - score) / score);
  caf::anon_send_exit(scorer, caf::exit_reason::user_shutdown);
  caf::anon_send_exit(echo, caf::exit_reason::user_shutdown);
  return 0;
}
