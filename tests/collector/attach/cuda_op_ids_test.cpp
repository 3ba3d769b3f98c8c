// The op ids of the BPF ABI (and the attach table) must equal cuda_op.id in schemas/trace.sql:
// compared through a freshly created trace DB.
#include <catch2/catch.hpp>
#include <set>
#include <string>

#include "bpf/causeway_abi.h"
#include "collector/attach/attach_table.hpp"
#include "tests/support/temp_dir.hpp"
#include "tracedb/reader.hpp"
#include "tracedb/writer.hpp"

using namespace causeway;

TEST_CASE("every attached CUDA symbol's op id is its cuda_op.id in the schema") {
    testing::TempDir dir;
    std::string path = dir.file("ops.db");
    auto writer = tracedb::TraceWriter::create(path, {});
    REQUIRE(writer);
    REQUIRE(writer->finish(0));
    auto reader = tracedb::TraceReader::open(path);
    REQUIRE(reader);

    auto query = reader->db().prepare("SELECT id, api FROM cuda_op WHERE name = ?");
    REQUIRE(query);
    std::set<std::int64_t> attached_ops;
    for (const auto& symbol : collector::cuda_symbols()) {
        INFO(symbol.name);
        query->bind(1, symbol.name);
        REQUIRE(query->step() == SQLITE_ROW);
        CHECK(query->column_int64(0) == symbol.op);
        CHECK(query->column_text(1) == collector::cuda_library_kind_name(symbol.library));
        query->reset();
        attached_ops.insert(symbol.op);
    }
    // And the other way round: every op the schema knows is attached.
    auto all = reader->db().prepare("SELECT id, name FROM cuda_op");
    REQUIRE(all);
    while (all->step() == SQLITE_ROW) {
        INFO(all->column_text(1));
        CHECK(attached_ops.count(all->column_int64(0)) == 1);
    }
}

TEST_CASE("spot checks of the ABI op enum against the schema's numbers") {
    CHECK(CW_OP_cudaMemcpyAsync == 7);
    CHECK(CW_OP_cudaEventSynchronize == 11);
    CHECK(CW_OP_cudaFreeAsync == 15);
    CHECK(CW_OP_cuLaunchKernel == 101);
    CHECK(CW_OP_cuStreamSynchronize == 109);
    CHECK(CW_OP_ncclAllReduce == 201);
    CHECK(CW_OP_ncclGetVersion == 216);
}

TEST_CASE("the attach table requires the ops of the collector and NCCL issues and nothing else") {
    std::set<std::string> required;
    for (const auto& symbol : collector::cuda_symbols()) {
        if (symbol.required) {
            required.insert(symbol.name);
        }
    }
    // 20 CUDA ops, and the 12 NCCL calls every NCCL 2.x exports.
    CHECK(required.size() == 32);
    CHECK(required.count("cudaEventSynchronize") == 1);
    CHECK(required.count("cuMemcpyDtoHAsync_v2") == 1);
    CHECK(required.count("cudaMallocAsync") == 0);
    CHECK(required.count("ncclAllReduce") == 1);
    CHECK(required.count("ncclCommSplit") == 0);
}
