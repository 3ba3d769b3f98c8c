#pragma once
// The size limit of a tool answer, checked where the answer is made (tool_runner.cpp, before an
// answer may be cached: a refused answer is never kept) and once more where it is sent
// (methods_tools.cpp, for the tools that do not go through the runner).

#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "base/result.hpp"

namespace causeway::server {

// Largest tool answer sent (bytes of JSON, ~4 bytes a token): keeps every answer well under the
// 25k-token limit clients put on tool results. Tools page and cut well before this; reaching it
// is reported to the model as an error it can work around.
inline constexpr std::size_t kMaxAnswerBytes = 80'000;

// Refuses an answer whose structured content and text rendering together pass kMaxAnswerBytes,
// naming the tool and the size and saying what to ask for instead.
Status check_answer_size(const std::string& tool, const nlohmann::json& structured,
                         const std::string& text);

}  // namespace causeway::server
