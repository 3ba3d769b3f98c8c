// Streamable HTTP sessions under a flood of initialize calls: creation is rate-bounded, and the
// sessions a flood never uses are the ones forgotten, never one a client is using.
#include <catch2/catch.hpp>

#include "server/transport/http_sessions.hpp"

using causeway::server::HttpSessions;
using causeway::server::SessionCreationRate;

namespace {

// No rate bound to speak of: these tests are about the table.
constexpr SessionCreationRate kUnbounded{.per_second = 1e9, .burst = 1e9};

}  // namespace

TEST_CASE("a flood of new sessions evicts its own unused ones, not a session in use") {
    HttpSessions sessions(kUnbounded);
    const auto [victim, victim_session] = *sessions.create();
    REQUIRE(sessions.find(victim) == victim_session);      // the client uses it
    const auto [idle, idle_session] = *sessions.create();  // initialized, never used
    std::vector<std::string> flood;
    for (std::size_t i = 0; i < HttpSessions::kMaxSessions + 100; ++i) {
        flood.push_back(sessions.create()->first);
    }
    CHECK(sessions.find(victim) == victim_session);
    CHECK(sessions.find(idle) == nullptr);
    CHECK(sessions.find(flood.front()) == nullptr);
    CHECK(sessions.find(flood.back()) != nullptr);
}

TEST_CASE("when every session is in use, the one idle longest goes") {
    HttpSessions sessions(kUnbounded);
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < HttpSessions::kMaxSessions; ++i) {
        ids.push_back(sessions.create()->first);
    }
    for (const auto& id : ids) {
        REQUIRE(sessions.find(id));
    }
    REQUIRE(sessions.find(ids.front()));  // used again: the second is now the idlest
    REQUIRE(sessions.create());
    CHECK(sessions.find(ids[1]) == nullptr);
    CHECK(sessions.find(ids.front()) != nullptr);
}

TEST_CASE("sessions are created at most at the rate: a burst, then so many a second") {
    HttpSessions sessions({.per_second = 100, .burst = 200});
    const auto start = HttpSessions::Clock::now();
    const auto [victim, victim_session] = *sessions.create(start);
    REQUIRE(sessions.find(victim) == victim_session);
    int created = 1;
    for (int i = 0; i < 1100; ++i) {  // 1,100 initialize calls at once
        created += sessions.create(start) ? 1 : 0;
    }
    CHECK(created == 200);
    CHECK(sessions.find(victim) == victim_session);
    // Half a second later, 50 more.
    created = 0;
    for (int i = 0; i < 100; ++i) {
        created += sessions.create(start + std::chrono::milliseconds(500)) ? 1 : 0;
    }
    CHECK(created == 50);
}
