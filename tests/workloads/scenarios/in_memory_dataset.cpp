#include "tests/workloads/scenarios/in_memory_dataset.hpp"

#include <cstring>
#include <random>

namespace causeway::scenarios {

InMemoryDataset::InMemoryDataset(std::size_t rows, std::size_t features)
    : rows_(rows), features_(features), data_(new float[rows * features]) {
    const std::size_t count = rows * features;
    for (std::size_t i = 0; i < count; ++i) {
        data_[i] = static_cast<float>(i % 1000) * 0.001f;
    }
}

std::vector<std::size_t> InMemoryDataset::sample_rows(std::int64_t batch,
                                                      std::size_t batch_size) const {
    std::mt19937_64 random(static_cast<std::uint64_t>(batch) * 0x9E3779B97F4A7C15ull + 1);
    std::uniform_int_distribution<std::size_t> pick(0, rows_ - 1);
    std::vector<std::size_t> picked(batch_size);
    for (auto& index : picked) {
        index = pick(random);
    }
    return picked;
}

void InMemoryDataset::gather(const std::vector<std::size_t>& rows, float* out) const {
    for (std::size_t i = 0; i < rows.size(); ++i) {
        std::memcpy(out + i * features_, row(rows[i]), row_bytes());
    }
}

}  // namespace causeway::scenarios
