// The facts each kind of holder declares (analysis/diagnose/declared_facts.hpp): a read of a fact
// its kind never has is refused by name, a diagnosis is checked against them where it is made,
// and every diagnosis the analysis makes in these tests passes that check (diagnose() runs it).
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

#include "analysis/diagnose/declared_facts.hpp"
#include "analysis/diagnose/diagnosis.hpp"

using namespace causeway::analysis;

TEST_CASE("a fact is read through its holder, with its key's type", "[facts]") {
    const Evidence evidence = make_evidence(
        EvidenceKind::kAllocOpTime, 5e6,
        {{Fact::kOp, std::string("cudaMalloc")}, {Fact::kCalls, 40}, {Fact::kP50Ns, 120'000}});
    CHECK(fact<Fact::kOp>(evidence) == "cudaMalloc");
    CHECK(fact<Fact::kCalls>(evidence) == 40);
    CHECK(evidence.key == "alloc_ns:cudaMalloc");
}

TEST_CASE("a fact its holder's kind never has is refused on reading, by name", "[facts]") {
    const Evidence evidence =
        make_evidence(EvidenceKind::kCopyShare, 0.4, {{Fact::kLostNs, 4}, {Fact::kSpanNs, 10}});
    CHECK_THROWS_WITH(fact<Fact::kCpus>(evidence),
                      Catch::Contains("fact cpus read from evidence copy_share"));
    const Recommendation pinned{.kind = RecommendationKind::kPinnedCopies, .params = {}};
    CHECK_THROWS_AS(fact<Fact::kRank>(pinned), std::logic_error);
    CausalChain chain;
    chain.root_cause_class = VerdictClass::kHostBound;
    CHECK_THROWS_WITH(fact<Fact::kSleptNs>(chain),
                      Catch::Contains("the facts of a HOST-BOUND chain"));
}

TEST_CASE("a fact its kind has only where known reads as zero where it is not", "[facts]") {
    const Recommendation pinned{.kind = RecommendationKind::kPinnedCopies, .params = {}};
    CHECK_FALSE(has_fact<Fact::kLinkWidth>(pinned));
    CHECK(fact<Fact::kLinkWidth>(pinned) == 0);
    const Recommendation raise{.kind = RecommendationKind::kRaiseCpuLimit,
                               .params = {{Fact::kQuotaCpus, 0.5}}};
    CHECK(has_fact<Fact::kQuotaCpus>(raise));
    CHECK(fact<Fact::kCpusUsedUnthrottled>(raise) == 0.0);
}

TEST_CASE("a diagnosis whose facts are not those its kinds declare is refused", "[facts]") {
    Diagnosis d;
    d.verdict.reason = VerdictReason::kTooFewCalls;
    d.verdict.facts = {{Fact::kCalls, 3}, {Fact::kMinCalls, kMinCallsForVerdict}};
    CHECK_NOTHROW(check_declared_facts(d));

    SECTION("a fact the kind always has is missing") {
        d.verdict.facts = {{Fact::kCalls, 3}};
        CHECK_THROWS_WITH(check_declared_facts(d), Catch::Contains("lacks fact min_calls"));
    }
    SECTION("a fact the kind does not declare is given") {
        CausalChain chain;
        chain.root_cause_class = VerdictClass::kAllocationChurn;
        chain.facts = {{Fact::kCalls, 10}};
        chain.recommendations = {{RecommendationKind::kReusePinnedBuffers, {{Fact::kCpus, 2}}}};
        d.chains.push_back(chain);
        CHECK_THROWS_WITH(check_declared_facts(d),
                          Catch::Contains("recommendation reuse_pinned_buffers holds fact cpus"));
    }
    SECTION("a chain's evidence is checked too") {
        CausalChain chain;
        chain.root_cause_class = VerdictClass::kHostBound;
        chain.evidence.push_back(make_evidence(EvidenceKind::kLongWaits, 3, {{Fact::kMinNs, 5}}));
        d.chains.push_back(chain);
        CHECK_THROWS_WITH(check_declared_facts(d),
                          Catch::Contains("evidence long_waits lacks fact average_ns"));
    }
}
