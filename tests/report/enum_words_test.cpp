// Every value of every analysis enum that report/ words has words of its own: a new verdict
// class, cause kind, effect, evidence or recommendation kind without its case in the words'
// switch falls to a shared default, or to nothing, and fails here by name. And every kind is
// worded from the facts its kind declares (analysis/diagnose/declared_facts.hpp) alone: a word
// that reads a fact its kind never has throws, and fails here by name.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "analysis/diagnose/causal_chain.hpp"
#include "analysis/diagnose/cause_kind.hpp"
#include "analysis/diagnose/declared_facts.hpp"
#include "analysis/diagnose/diagnosis.hpp"
#include "analysis/diagnose/evidence.hpp"
#include "analysis/diagnose/recommendation.hpp"
#include "analysis/diagnose/verdict.hpp"
#include "report/chain_text.hpp"
#include "report/evidence_text.hpp"
#include "report/recommendation_text.hpp"
#include "report/verdict_text.hpp"

using namespace causeway;

namespace {

// Calls `each(value)` for every value of the enum from its first to kLast.
template <auto kLast, class Each>
void for_each_value(Each each) {
    using Enum = decltype(kLast);
    for (int i = 0; i <= static_cast<int>(kLast); ++i) {
        each(static_cast<Enum>(i));
    }
}

// Records `text` as the words of `name`; fails when it is empty or another value's words.
void check_own_words(std::map<std::string, std::string>& seen, const std::string& name,
                     const std::string& text) {
    INFO(name << ": \"" << text << "\"");
    CHECK_FALSE(text.empty());
    const auto [other, inserted] = seen.emplace(text, name);
    INFO("the same words as " << other->second);
    CHECK(inserted);
}

analysis::CausalChain chain_of(analysis::VerdictClass cause) {
    analysis::CausalChain chain;
    chain.root_cause_class = cause;
    chain.actor = {.kind = analysis::CauseKind::kProcessesOutside,
                   .name = "hogd",
                   .pid = 7,
                   .tid = 0,
                   .pids = {7},
                   .in_tree = false,
                   .container = std::nullopt};
    chain.time_lost_ns = 1'000'000'000;
    chain.time_lost_share = 0.5;
    // The lines the Python-line evidence quotes.
    chain.gpu_thread_line = analysis::CodeLine{.file = "train.py",
                                               .function = "train_step",
                                               .line = 57,
                                               .stacks = 10,
                                               .stacks_total = 10,
                                               .share = 1.0};
    chain.actor_line = analysis::CodeLine{.file = "dataset.py",
                                          .function = "__getitem__",
                                          .line = 31,
                                          .stacks = 8,
                                          .stacks_total = 10,
                                          .share = 0.8};
    return chain;
}

// The class of the chains whose effects are `kind`: the device's and the thread's own time are
// worded by their chain's symptom; the others, by the actor that took the time.
analysis::VerdictClass class_of(analysis::EffectKind kind) {
    using analysis::EffectKind;
    using analysis::VerdictClass;
    switch (kind) {
        case EffectKind::kInDevice:
            return VerdictClass::kGpuBound;
        case EffectKind::kInCopies:
            return VerdictClass::kTransferBound;
        case EffectKind::kInAllocation:
            return VerdictClass::kAllocationChurn;
        case EffectKind::kFirstCallExcess:
            return VerdictClass::kColdStart;
        case EffectKind::kOnCpu:
            return VerdictClass::kHostBound;
        default:
            return VerdictClass::kCpuContended;
    }
}

// The chain class that makes recommendations of `kind`: the late rank's come from the chain that
// names it, the rest are worded alike from any.
analysis::VerdictClass class_recommending(analysis::RecommendationKind kind) {
    using analysis::RecommendationKind;
    return kind == RecommendationKind::kLateRankFirst || kind == RecommendationKind::kBalanceRanks
               ? analysis::VerdictClass::kCollectiveWait
               : analysis::VerdictClass::kCpuContended;
}

// A value of `f`'s type that no word mistakes for "none".
analysis::FactParam sample_of(analysis::Fact f) {
    switch (analysis::fact_info(f).type) {
        case analysis::FactType::kCount:
            return {f, 3};
        case analysis::FactType::kRatio:
            return {f, 0.25};
        case analysis::FactType::kText:
            break;
    }
    return {f, std::string("timer")};
}

analysis::FactParams facts_in(const analysis::FactSet& set) {
    analysis::FactParams facts;
    for (const analysis::FactInfo& info : analysis::kFacts) {
        if (set.contains(info.fact)) {
            facts.push_back(sample_of(info.fact));
        }
    }
    return facts;
}

// Calls `each(facts, label)` with every fact `declared` lists, then with only those it always has.
template <class Each>
void for_each_declared_choice(const analysis::DeclaredFacts& declared, Each each) {
    each(facts_in(declared.always | declared.where_known), "every declared fact");
    each(facts_in(declared.always), "the facts it always has");
}

// Words `text()` and checks it read only declared facts (a read of another throws) and said
// something.
template <class Text>
void check_worded_from_declared(const std::string& what, Text text) {
    INFO(what);
    std::string words;
    CHECK_NOTHROW(words = text());
    CHECK_FALSE(words.empty());
}

}  // namespace

TEST_CASE("every verdict class has words of its own") {
    std::map<std::string, std::string> seen;
    for_each_value<analysis::VerdictClass::kLast>([&](analysis::VerdictClass cause) {
        if (cause == analysis::VerdictClass::kHealthy ||
            cause == analysis::VerdictClass::kInsufficientData) {
            // No chain has these classes: they are the verdict's alone.
            analysis::Diagnosis diagnosis;
            diagnosis.verdict.verdict_class = cause;
            diagnosis.verdict.reason = cause == analysis::VerdictClass::kHealthy
                                           ? analysis::VerdictReason::kNoCause
                                           : analysis::VerdictReason::kNoCudaCalls;
            check_own_words(seen, analysis::verdict_class_name(cause),
                            report::verdict_summary(diagnosis));
        } else {
            check_own_words(seen, analysis::verdict_class_name(cause),
                            report::root_cause_text(chain_of(cause)));
        }
    });
}

TEST_CASE("every cause kind says what a late rank did while late") {
    std::map<std::string, std::string> seen;
    for (const char* other : {"cuda_calls", "unattributed"}) {
        check_own_words(seen, other, report::late_cause_text(other));
    }
    for_each_value<analysis::CauseKind::kLast>([&](analysis::CauseKind kind) {
        check_own_words(seen, analysis::cause_kind_name(kind),
                        report::late_cause_text(analysis::cause_kind_name(kind)));
    });
}

TEST_CASE("every effect kind has words of its own") {
    std::map<std::string, std::string> seen;
    for_each_value<analysis::EffectKind::kLast>([&](analysis::EffectKind kind) {
        const analysis::Effect effect{
            .kind = kind, .wait = std::nullopt, .ns = 1'000'000, .share = 0.1, .count = 3};
        check_own_words(seen, analysis::effect_kind_name(kind),
                        report::effect_text(chain_of(class_of(kind)), effect));
    });
}

TEST_CASE("every evidence kind has words of its own") {
    std::map<std::string, std::string> seen;
    const auto chain = chain_of(analysis::VerdictClass::kCpuContended);
    for_each_value<analysis::EvidenceKind::kLast>([&](analysis::EvidenceKind kind) {
        const analysis::Evidence evidence = analysis::make_evidence(kind, 0.25);
        check_own_words(seen,
                        evidence.key + " (kind " + std::to_string(static_cast<int>(kind)) + ")",
                        report::evidence_text(chain, evidence));
    });
}

TEST_CASE("every recommendation kind has words of its own") {
    std::map<std::string, std::string> seen;
    for_each_value<analysis::RecommendationKind::kLast>([&](analysis::RecommendationKind kind) {
        check_own_words(seen, analysis::recommendation_kind_name(kind),
                        report::recommendation_text(chain_of(class_recommending(kind)),
                                                    {.kind = kind, .params = {}}));
    });
}

TEST_CASE("every chain class is worded from its declared facts alone") {
    for_each_value<analysis::VerdictClass::kLast>([&](analysis::VerdictClass cause) {
        if (cause == analysis::VerdictClass::kHealthy ||
            cause == analysis::VerdictClass::kInsufficientData) {
            return;  // the verdict's alone: no chain has them
        }
        for_each_declared_choice(
            analysis::declared_facts(cause), [&](const analysis::FactParams& facts, auto label) {
                for (const std::optional<std::string>& op :
                     {std::optional<std::string>{}, std::optional<std::string>{"cudaMemcpy"}}) {
                    auto chain = chain_of(cause);
                    chain.facts = facts;
                    chain.op = op;
                    const std::string what = std::string(analysis::verdict_class_name(cause)) +
                                             ", " + label + (op ? ", with an op" : "");
                    check_worded_from_declared(what, [&] { return report::symptom_text(chain); });
                    check_worded_from_declared(what,
                                               [&] { return report::root_cause_text(chain); });
                    for_each_value<analysis::EffectKind::kLast>([&](analysis::EffectKind kind) {
                        const analysis::Effect effect{.kind = kind, .ns = 1'000'000};
                        check_worded_from_declared(
                            what + ", effect " + analysis::effect_kind_name(kind),
                            [&] { return report::effect_text(chain, effect); });
                    });
                }
            });
    });
}

TEST_CASE("every evidence kind is worded from its declared facts alone") {
    const auto chain = chain_of(analysis::VerdictClass::kCpuContended);
    for_each_value<analysis::EvidenceKind::kLast>([&](analysis::EvidenceKind kind) {
        for_each_declared_choice(
            analysis::declared_facts(kind), [&](const analysis::FactParams& facts, auto label) {
                const analysis::Evidence evidence = analysis::make_evidence(kind, 0.25, facts);
                check_worded_from_declared(evidence.key + " (kind " +
                                               std::to_string(static_cast<int>(kind)) + "), " +
                                               label,
                                           [&] { return report::evidence_text(chain, evidence); });
            });
    });
}

TEST_CASE("every recommendation kind is worded from its declared facts alone") {
    for_each_value<analysis::RecommendationKind::kLast>([&](analysis::RecommendationKind kind) {
        auto chain = chain_of(class_recommending(kind));
        const analysis::DeclaredFacts of_chain = analysis::declared_facts(chain.root_cause_class);
        chain.facts = facts_in(of_chain.always);
        for_each_declared_choice(
            analysis::declared_facts(kind), [&](const analysis::FactParams& facts, auto label) {
                const analysis::Recommendation recommendation{.kind = kind, .params = facts};
                check_worded_from_declared(
                    std::string(analysis::recommendation_kind_name(kind)) + ", " + label,
                    [&] { return report::recommendation_text(chain, recommendation); });
            });
    });
}

TEST_CASE("every verdict reason and evidence limit is worded from its declared facts alone") {
    for_each_value<analysis::VerdictReason::kLast>([&](analysis::VerdictReason reason) {
        for_each_declared_choice(
            analysis::declared_facts(reason), [&](const analysis::FactParams& facts, auto label) {
                analysis::Diagnosis diagnosis;
                diagnosis.verdict.reason = reason;
                diagnosis.verdict.facts = facts;
                diagnosis.chains = {chain_of(analysis::VerdictClass::kCpuContended)};
                check_worded_from_declared(
                    "reason " + std::to_string(static_cast<int>(reason)) + ", " + label,
                    [&] { return report::verdict_summary(diagnosis); });
            });
    });
    for_each_value<analysis::EvidenceLimitKind::kLast>([&](analysis::EvidenceLimitKind kind) {
        for_each_declared_choice(
            analysis::declared_facts(kind), [&](const analysis::FactParams& facts, auto label) {
                const analysis::EvidenceLimit limit{.kind = kind, .facts = facts};
                check_worded_from_declared(
                    "limit " + std::to_string(static_cast<int>(kind)) + ", " + label,
                    [&] { return report::evidence_limit_text(limit); });
            });
    });
}
