#pragma once
// Resources: the trace-DB schema with its column documentation, and one summary per trace.

#include "server/methods/catalog.hpp"

namespace causeway::server {

std::vector<ResourceSpec> make_resources();

}  // namespace causeway::server
