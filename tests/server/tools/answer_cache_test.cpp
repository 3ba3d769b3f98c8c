// The answer cache holds at most its byte budget, drops the least recently used first and never
// keeps an answer larger than the budget.
#include <catch2/catch.hpp>

#include <string>

#include "server/tools/answer_cache.hpp"

using causeway::server::AnswerCache;
using nlohmann::json;

TEST_CASE("the answer cache is bounded by bytes and drops the least recently used") {
    AnswerCache cache(8 * 1024);
    const json answer{{"text", std::string(1000, 'a')}};
    for (int i = 0; i < 100; ++i) {
        cache.keep("key" + std::to_string(i), answer);
        CHECK(cache.bytes() <= 8 * 1024);
    }
    CHECK(cache.entries() < 10);
    CHECK(cache.find("key99") == answer);
    CHECK_FALSE(cache.find("key0"));
    // A hit makes an answer recent: it outlives answers kept before it.
    const std::size_t kept = cache.entries();
    const std::string oldest = "key" + std::to_string(100 - kept);
    REQUIRE(cache.find(oldest));
    cache.keep("newer", answer);
    CHECK(cache.find(oldest));
    CHECK_FALSE(cache.find("key" + std::to_string(101 - kept)));
}

TEST_CASE("an answer larger than the budget is not kept, keeping a key again replaces it") {
    AnswerCache cache(4 * 1024);
    cache.keep("big", json{{"text", std::string(10'000, 'b')}});
    CHECK(cache.entries() == 0);
    CHECK(cache.bytes() == 0);
    cache.keep("k", json{{"n", 1}});
    const std::size_t bytes = cache.bytes();
    cache.keep("k", json{{"n", 2}});
    CHECK(cache.entries() == 1);
    CHECK(cache.bytes() == bytes);
    CHECK(cache.find("k") == json{{"n", 2}});
}
