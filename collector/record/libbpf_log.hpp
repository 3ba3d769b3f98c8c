#pragma once
// Where libbpf's own messages go: to stderr with --verbose, nowhere otherwise (the collector
// reports every failure itself, with what to do).

namespace causeway::collector {

void route_libbpf_messages(bool verbose);

}  // namespace causeway::collector
