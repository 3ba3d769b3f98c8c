// A cause whose removal may gain little at the low end of its prediction is not proven to
// matter: where every synchronisation found the device done, its work per step is bounded only
// above, and the chain of the host's own work may cost anything from nothing up. It stays, but
// MEDIUM, and says how many synchronisations measured the device. Where they waited for it, the
// same host work is measured and HIGH.
#include <catch2/catch.hpp>

#include <algorithm>

#include "analysis/diagnose/declared_facts.hpp"
#include "analysis/diagnose/diagnosis.hpp"
#include "report/evidence_text.hpp"
#include "tests/analysis/fixture_builder.hpp"

using namespace causeway::analysis;
using namespace causeway::testing;

namespace {

constexpr int kSteps = 200;
constexpr std::int64_t kStepNs = 4 * kMs;

// A training thread that launches its step's work, computes on its own between calls, and
// synchronises: `launch_at` and `sync_at` into each step, the synchronisation lasting `sync_ns`.
Diagnosis host_loop(std::int64_t launch_at, std::int64_t sync_at, std::int64_t sync_ns) {
    FixtureBuilder fixture;
    const std::int64_t process = fixture.process(100, "python");
    const std::int64_t thread = fixture.thread(process, 100, "python");
    for (int i = 0; i < kSteps; ++i) {
        fixture.call(thread, op::kLaunchKernel, i * kStepNs + launch_at, 20 * kUs);
        fixture.call(thread, op::kStreamSynchronize, i * kStepNs + sync_at, sync_ns);
    }
    fixture.blocked(thread, kSteps * kStepNs, 1 * kMs);  // scheduling was recorded
    return diagnose(fixture.load(kSteps * kStepNs + 2 * kMs), DiagnosisOptions{});
}

const CausalChain& host_bound_chain(const Diagnosis& d) {
    const auto found = std::find_if(d.chains.begin(), d.chains.end(), [](const CausalChain& c) {
        return c.root_cause_class == VerdictClass::kHostBound;
    });
    REQUIRE(found != d.chains.end());
    return *found;
}

const Evidence* gain_may_be_small(const CausalChain& chain) {
    const auto found =
        std::find_if(chain.evidence.begin(), chain.evidence.end(),
                     [](const Evidence& e) { return e.kind == EvidenceKind::kGainMayBeSmall; });
    return found == chain.evidence.end() ? nullptr : &*found;
}

}  // namespace

TEST_CASE("host work overlapping an unmeasured device is a cause of MEDIUM confidence",
          "[analysis][diagnose]") {
    // Launched at once, 3.9 ms of host work, a synchronisation that returns in 5 us: the device
    // may have worked 3.9 ms of each 4 ms step, or nothing.
    const Diagnosis d = host_loop(0, 3900 * kUs, 5 * kUs);
    const CausalChain& chain = host_bound_chain(d);
    REQUIRE(chain.critical_path);
    CHECK(chain.critical_path->speedup_low < 1.05);
    CHECK(chain.confidence == Confidence::kMedium);
    const Evidence* evidence = gain_may_be_small(chain);
    REQUIRE(evidence != nullptr);
    CHECK(evidence->value == Approx(chain.critical_path->speedup_low));
    CHECK(fact<Fact::kDrainsWaited>(*evidence) == 0);
    // A period ends at each drain but the first.
    CHECK(fact<Fact::kDrains>(*evidence) == kSteps - 1);
    CHECK(causeway::report::evidence_text(*evidence).find("0 of 199 synchronisations waited") !=
          std::string::npos);
}

TEST_CASE("host work before a measured device step is a cause of HIGH confidence",
          "[analysis][diagnose]") {
    // 2 ms of host work, then the launch, then a synchronisation that waits 1.9 ms for the device.
    const Diagnosis d = host_loop(2 * kMs, 2050 * kUs, 1900 * kUs);
    const CausalChain& chain = host_bound_chain(d);
    REQUIRE(chain.critical_path);
    CHECK(chain.critical_path->speedup_low > 1.5);
    CHECK(chain.confidence == Confidence::kHigh);
    CHECK(gain_may_be_small(chain) == nullptr);
}
