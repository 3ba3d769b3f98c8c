# Real MCP clients against `causeway mcp`: the official TypeScript SDK over stdio and HTTP, and
# the official conformance suite over HTTP. npm installs the pinned packages (package-lock.json)
# inside the test flow, into the build folder, so plain `ctest` works on a fresh machine that can
# reach the npm registry.
find_program(NPM_EXECUTABLE npm)
find_program(NODE_EXECUTABLE node)
if(NOT NPM_EXECUTABLE OR NOT NODE_EXECUTABLE)
  message(WARNING "tests/server: node and npm not found; the MCP client tests are not registered "
                  "(install nodejs and npm)")
  return()
endif()

set(MCP_JS_DIR ${CMAKE_CURRENT_BINARY_DIR}/js)
foreach(file package.json package-lock.json launch.mjs sdk_client_test.mjs conformance_test.mjs
             conformance-baseline.yml schema_2026_test.mjs)
  configure_file(${CMAKE_CURRENT_SOURCE_DIR}/js/${file} ${MCP_JS_DIR}/${file} COPYONLY)
endforeach()

add_test(NAME e2e:mcp_npm_install
         COMMAND ${NPM_EXECUTABLE} ci --no-audit --no-fund --loglevel=error
         WORKING_DIRECTORY ${MCP_JS_DIR})
set_tests_properties(e2e:mcp_npm_install PROPERTIES
  LABELS e2e FIXTURES_SETUP mcp_node TIMEOUT 600)

set(MCP_CLIENT_ARGS
  --causeway $<TARGET_FILE:causeway>
  --fixture $<TARGET_FILE:causeway-mcp-fixture>
  --schemas ${PROJECT_SOURCE_DIR}/schemas/tools)
foreach(transport stdio http)
  add_test(NAME e2e:mcp_sdk_client_${transport}
           COMMAND ${NODE_EXECUTABLE} sdk_client_test.mjs ${MCP_CLIENT_ARGS} --transport ${transport}
           WORKING_DIRECTORY ${MCP_JS_DIR})
  set_tests_properties(e2e:mcp_sdk_client_${transport} PROPERTIES
    LABELS e2e FIXTURES_REQUIRED mcp_node TIMEOUT 180)
endforeach()
# Every answer of the stateless revision against the schema published with it.
add_test(NAME e2e:mcp_schema_2026
         COMMAND ${NODE_EXECUTABLE} schema_2026_test.mjs ${MCP_CLIENT_ARGS}
                 --mcp-schema ${PROJECT_SOURCE_DIR}/tests/server/mcp-schema/2026-07-28/schema.json
         WORKING_DIRECTORY ${MCP_JS_DIR})
set_tests_properties(e2e:mcp_schema_2026 PROPERTIES
  LABELS e2e FIXTURES_REQUIRED mcp_node TIMEOUT 180)
add_test(NAME e2e:mcp_conformance
         COMMAND ${NODE_EXECUTABLE} conformance_test.mjs ${MCP_CLIENT_ARGS}
         WORKING_DIRECTORY ${MCP_JS_DIR})
set_tests_properties(e2e:mcp_conformance PROPERTIES
  LABELS e2e FIXTURES_REQUIRED mcp_node TIMEOUT 300)
