#pragma once
// Which facts each kind of evidence, recommendation, chain (by its class), verdict (by its reason)
// and evidence limit carries: the ones every holder of the kind has, and the ones it has only
// where the trace holds them. The one list of them: a diagnosis is checked against it where it is
// made (check_declared_facts), and report/ reads facts only through fact<F>(holder), which refuses
// a fact the holder's kind does not declare, so a fact that is read is one that is set.

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>

#include "analysis/diagnose/evidence_limits.hpp"
#include "analysis/diagnose/fact_param.hpp"
#include "analysis/diagnose/verdict.hpp"

namespace causeway::analysis {

struct Diagnosis;

class FactSet {
  public:
    constexpr FactSet(std::initializer_list<Fact> facts) {
        for (Fact f : facts) {
            const auto k = static_cast<std::size_t>(f);
            words_[k / 64] |= std::uint64_t{1} << (k % 64);
        }
    }
    constexpr bool contains(Fact f) const {
        const auto k = static_cast<std::size_t>(f);
        return ((words_[k / 64] >> (k % 64)) & 1) != 0;
    }
    friend constexpr FactSet operator|(FactSet a, const FactSet& b) {
        a.words_[0] |= b.words_[0];
        a.words_[1] |= b.words_[1];
        return a;
    }

  private:
    static_assert(static_cast<std::size_t>(Fact::kLast) < 128);
    std::array<std::uint64_t, 2> words_{};
};

struct DeclaredFacts {
    FactSet always{};       // every holder of the kind has them
    FactSet where_known{};  // a holder has them where the trace holds what they are made from

    bool declares(Fact f) const { return always.contains(f) || where_known.contains(f); }
};

DeclaredFacts declared_facts(EvidenceKind kind);
DeclaredFacts declared_facts(RecommendationKind kind);
DeclaredFacts declared_facts(VerdictClass chain_class);  // a causal chain's own facts
DeclaredFacts declared_facts(VerdictReason reason);
DeclaredFacts declared_facts(EvidenceLimitKind kind);

// The fact `f` of `holder`, or nullptr where its kind may lack it and does. Throws
// std::logic_error when the holder's kind does not declare `f`: it is never set.
const FactParam* declared_fact(const Evidence& holder, Fact f);
const FactParam* declared_fact(const Recommendation& holder, Fact f);
const FactParam* declared_fact(const CausalChain& holder, Fact f);
const FactParam* declared_fact(const Verdict& holder, Fact f);
const FactParam* declared_fact(const EvidenceLimit& holder, Fact f);

// Its value, of the key's own type: 0 (or empty) where the holder may lack it and does.
template <Fact F, typename Holder>
FactValue<F> fact(const Holder& holder) {
    const FactParam* found = declared_fact(holder, F);
    return found ? std::get<FactValue<F>>(found->value) : FactValue<F>{};
}

template <Fact F, typename Holder>
bool has_fact(const Holder& holder) {
    return declared_fact(holder, F) != nullptr;
}

// Throws std::logic_error naming the holder when one of the diagnosis' facts is not declared for
// its kind, or a fact its kind always has is missing: a programming error of a chain builder.
void check_declared_facts(const Diagnosis& diagnosis);

}  // namespace causeway::analysis
