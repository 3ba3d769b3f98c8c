# The MCP fixture trace (realistic content written with TraceWriter) and the in-memory stdio
# driver as libraries: used by the server tests and by the JSON-RPC fuzz target (fuzz/), which
# is built without the tests.
if(NOT TARGET causeway_mcp_fixture)
  add_library(causeway_mcp_fixture STATIC ${CMAKE_CURRENT_LIST_DIR}/fixture/fixture_trace.cpp)
  target_include_directories(causeway_mcp_fixture PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(causeway_mcp_fixture PUBLIC causeway_tracedb)
  add_library(causeway_mcp_stdio_run STATIC ${CMAKE_CURRENT_LIST_DIR}/transport/stdio_run.cpp)
  target_link_libraries(causeway_mcp_stdio_run PUBLIC causeway_server)
endif()
