// A recommendation in words (report/recommendation_text.hpp): the competitors it names.
#include <catch2/catch.hpp>

#include "report/recommendation_text.hpp"

using namespace causeway;
using analysis::Role;

namespace {

analysis::Competitor thread_of(const std::string& comm, std::int64_t pid, std::int64_t tid,
                               Role role) {
    analysis::Competitor thread;
    thread.comm = comm;
    thread.pid = pid;
    thread.tid = tid;
    thread.role = role;
    return thread;
}

}  // namespace

TEST_CASE("a competing process is named once however many of its threads took the CPU") {
    analysis::CausalChain chain;
    chain.competitors = {thread_of("noisy_hog", 441, 442, Role::kCompetitor),
                         thread_of("noisy_hog", 441, 443, Role::kCompetitor),
                         thread_of("pt_data_worker", 9, 9, Role::kDataLoaderWorker),
                         thread_of("noisy_hog", 441, 441, Role::kCompetitor),
                         thread_of("stress", 7, 7, Role::kCompetitor),
                         thread_of("stress-io", 7, 8, Role::kCompetitor)};
    analysis::Recommendation stop;
    stop.kind = analysis::RecommendationKind::kStopCompetitors;
    CHECK(report::recommendation_text(chain, stop) ==
          "Stop noisy_hog (pid 441), stress (pid 7), stress-io (pid 7) or keep them off the "
          "training cores (taskset, cgroup cpusets).");
}
