#include "scoring/fragment_annotation.hpp"

#include "scoring/peak_table.hpp"

namespace ionflow {

std::vector<FragmentMatch> annotate_fragments(const std::vector<Peak>& peaks,
                                              const std::vector<Fragment>& fragments,
                                              const Tolerance& fragment_tolerance) {
  PeakTable table;  // the scorer's own look-up: the same peak for every fragment
  table.prepare(peaks, fragment_tolerance);
  std::vector<FragmentMatch> out;
  for (const Fragment& f : fragments) {
    const Peak* best = table.best(f.mz);
    if (best == nullptr) continue;
    FragmentMatch m;
    m.fragment = f;
    m.peak = static_cast<uint32_t>(best - peaks.data());
    m.error_da = static_cast<double>(best->mz) - f.mz;
    m.error_ppm = m.error_da / f.mz * 1e6;
    out.push_back(m);
  }
  return out;
}

const char* ion_type_letter(IonType type) {
  switch (type) {
    case IonType::kA:
      return "a";
    case IonType::kB:
      return "b";
    case IonType::kC:
      return "c";
    case IonType::kY:
      return "y";
    case IonType::kZ:
      return "z";
  }
  return "?";
}

}  // namespace ionflow
