// Every value of every analysis enum that report/ words has words of its own: a new verdict
// class, cause kind, effect, evidence or recommendation kind without its case in the words'
// switch falls to a shared default, or to nothing, and fails here by name.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "analysis/diagnose/causal_chain.hpp"
#include "analysis/diagnose/cause_kind.hpp"
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
    const auto chain = chain_of(analysis::VerdictClass::kCpuContended);
    for_each_value<analysis::RecommendationKind::kLast>([&](analysis::RecommendationKind kind) {
        check_own_words(seen, analysis::recommendation_kind_name(kind),
                        report::recommendation_text(chain, {.kind = kind, .params = {}}));
    });
}
