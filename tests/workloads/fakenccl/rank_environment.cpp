#include "rank_environment.hpp"

#include <cstdlib>
#include <cstring>

namespace fakenccl {
namespace {

std::optional<int> number(const char* name) {
    const char* text = std::getenv(name);
    char* end = nullptr;
    const long value = text != nullptr ? std::strtol(text, &end, 10) : -1;
    if (text == nullptr || end == text || *end != '\0' || value < 0 || value > 1'000'000) {
        return std::nullopt;
    }
    return static_cast<int>(value);
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

}  // namespace

std::string id_to_hex(const ncclUniqueId& id) {
    static const char kDigits[] = "0123456789abcdef";
    std::string hex;
    for (char c : id.internal) {
        const auto byte = static_cast<unsigned char>(c);
        hex += kDigits[byte >> 4];
        hex += kDigits[byte & 0xf];
    }
    return hex;
}

std::optional<RankEnvironment> rank_environment(std::string& error) {
    RankEnvironment env;
    auto rank = number("RANK");
    auto world = number("WORLD_SIZE");
    const char* hex = std::getenv(kIdVariable);
    if (!rank || !world || *rank >= *world) {
        error =
            "RANK and WORLD_SIZE must be set, 0 <= RANK < WORLD_SIZE (start ranks with "
            "cw_nccl_launch)";
        return std::nullopt;
    }
    if (hex == nullptr || std::strlen(hex) != 2 * sizeof(env.id.internal)) {
        error = std::string(kIdVariable) + " must hold the communicator's id as " +
                std::to_string(2 * sizeof(env.id.internal)) + " hex digits";
        return std::nullopt;
    }
    for (std::size_t i = 0; i < sizeof(env.id.internal); ++i) {
        const int high = hex_digit(hex[2 * i]);
        const int low = hex_digit(hex[2 * i + 1]);
        if (high < 0 || low < 0) {
            error = std::string(kIdVariable) + " is not hex";
            return std::nullopt;
        }
        env.id.internal[i] = static_cast<char>(high * 16 + low);
    }
    env.rank = *rank;
    env.world_size = *world;
    return env;
}

}  // namespace fakenccl
