// Streamable HTTP sessions under a flood of initialize calls: the sessions the flood never uses
// are the ones forgotten, never one a client is using.
#include <catch2/catch.hpp>

#include "server/transport/http_sessions.hpp"

using causeway::server::HttpSessions;

TEST_CASE("a flood of new sessions evicts its own unused ones, not a session in use") {
    HttpSessions sessions;
    const auto [victim, victim_session] = sessions.create();
    REQUIRE(sessions.find(victim) == victim_session);     // the client uses it
    const auto [idle, idle_session] = sessions.create();  // initialized, never used
    std::vector<std::string> flood;
    for (std::size_t i = 0; i < HttpSessions::kMaxSessions + 100; ++i) {
        flood.push_back(sessions.create().first);
    }
    CHECK(sessions.find(victim) == victim_session);
    CHECK(sessions.find(idle) == nullptr);
    CHECK(sessions.find(flood.front()) == nullptr);
    CHECK(sessions.find(flood.back()) != nullptr);
}

TEST_CASE("when every session is in use, the one idle longest goes") {
    HttpSessions sessions;
    std::vector<std::string> ids;
    for (std::size_t i = 0; i < HttpSessions::kMaxSessions; ++i) {
        ids.push_back(sessions.create().first);
    }
    for (const auto& id : ids) {
        REQUIRE(sessions.find(id));
    }
    REQUIRE(sessions.find(ids.front()));  // used again: the second is now the idlest
    sessions.create();
    CHECK(sessions.find(ids[1]) == nullptr);
    CHECK(sessions.find(ids.front()) != nullptr);
}
