#pragma once
// An in-memory dataset of `rows` samples of `features` floats, like the tensor behind a PyTorch
// TensorDataset. It is allocated and filled before a DataLoader forks its workers, so the workers
// read it copy-on-write, as forked PyTorch workers do.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace causeway::scenarios {

class InMemoryDataset {
  public:
    InMemoryDataset(std::size_t rows, std::size_t features);

    std::size_t rows() const { return rows_; }
    std::size_t features() const { return features_; }
    std::size_t row_bytes() const { return features_ * sizeof(float); }
    const float* row(std::size_t index) const { return data_.get() + index * features_; }

    // The shuffled sampler's row indices for one batch: uniform random rows, reproducible per
    // batch number so that every variant of a scenario reads the same rows.
    std::vector<std::size_t> sample_rows(std::int64_t batch, std::size_t batch_size) const;

    // Direct indexing (`x[idx]`): copies the rows, in order, to `out` (rows.size() * features).
    void gather(const std::vector<std::size_t>& rows, float* out) const;

  private:
    std::size_t rows_;
    std::size_t features_;
    std::unique_ptr<float[]> data_;
};

}  // namespace causeway::scenarios
