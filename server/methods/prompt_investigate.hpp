#pragma once
// The `investigate` prompt: a guided investigation from verdict to chains, per-process breakdown,
// timeline and recommendations, with the rules that keep the model honest.

#include "server/methods/catalog.hpp"

namespace causeway::server {

PromptSpec make_investigate_prompt();

}  // namespace causeway::server
