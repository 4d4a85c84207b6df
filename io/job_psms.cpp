#include "io/job_psms.hpp"

#include <malloc.h>

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <utility>

#include "io/job_files.hpp"
#include "scoring/search.hpp"

namespace ionflow {
namespace {

constexpr uint32_t kDropped = std::numeric_limits<uint32_t>::max();

}  // namespace

// Each pass: merge the spill by (file_index, spectrum_index, arrival), keep a spectrum's PSMs
// that finalizing kept, in the facts' order (= rank order), with the facts' rank/score/q.
class JobPsms::Source : public PsmSource {
 public:
  explicit Source(const JobPsms& owner) : owner_(owner) {}

  void for_each(const std::function<void(const Psm&)>& visit) const override {
    std::vector<std::pair<uint32_t, Psm>> group;  // (fact index, PSM) of one spectrum
    bool open = false;
    uint32_t file = 0;
    uint64_t spectrum = 0;
    auto flush = [&]() {
      std::sort(group.begin(), group.end(),
                [](const auto& a, const auto& b) { return a.first < b.first; });
      for (auto& [fact, psm] : group) {
        apply_psm_fact(owner_.facts_.facts[fact], psm);
        visit(psm);
      }
      group.clear();
    };
    owner_.spill_.merge([&](uint64_t arrival, Psm& psm) {
      if (open && (psm.file_index != file || psm.spectrum_index != spectrum)) flush();
      open = true;
      file = psm.file_index;
      spectrum = psm.spectrum_index;
      const uint32_t fact = owner_.fact_of_arrival_[arrival];
      if (fact != kDropped) group.emplace_back(fact, std::move(psm));
    });
    flush();
  }

 private:
  const JobPsms& owner_;
};

JobPsms::JobPsms(const std::string& temp_directory, uint64_t run_bytes)
    : spill_(temp_directory, run_bytes) {}

JobPsms::~JobPsms() = default;

std::string JobPsms::spill_directory(const JobSpec& spec) {
  return ionflow::spill_directory(spec.temp_directory, spec.output_directory);
}

void JobPsms::add(uint64_t seq, const std::vector<Psm>& psms) {
  if (source_) throw std::logic_error("JobPsms::add after finalize");
  spill_.add(seq, psms);
}

void JobPsms::finalize(const SearchParameters& params) {
  if (source_) throw std::logic_error("JobPsms::finalize called twice");
  spill_.finish();
  // The scoring phase's freed memory (its PSM runs, chunks, the released index) sits in the
  // heap; give it back before the facts are allocated, or the facts come on top of it.
  ::malloc_trim(0);
  // The facts in arrival order: the order finalize_psms saw the PSMs in when the writer kept
  // them in a vector (chunks by seq), so ties resolve the same way.
  const uint64_t n = spill_.size();
  if (n >= kDropped) throw std::runtime_error("too many PSMs in one job: " + std::to_string(n));
  facts_.facts.resize(n);
  spill_.scan(
      [&](uint64_t arrival, Psm& psm) { facts_.facts[arrival] = facts_.make(psm, arrival); });
  report_ = finalize_psm_facts(facts_, params);
  counts_ = count_at_1pct(facts_);
  fact_of_arrival_.assign(n, kDropped);
  for (size_t k = 0; k < facts_.facts.size(); ++k) {
    fact_of_arrival_[facts_.facts[k].arrival] = static_cast<uint32_t>(k);
  }
  source_ = std::make_unique<Source>(*this);
}

const PsmSource& JobPsms::source() const {
  if (!source_) throw std::logic_error("JobPsms::source before finalize");
  return *source_;
}

}  // namespace ionflow
