#pragma once
// The ways a training loop gets its batch, as one function each so that every scenario that
// uses them does exactly the same work per batch.

#include <cstddef>
#include <cstdint>

#include "tests/workloads/scenarios/data_loader.hpp"
#include "tests/workloads/scenarios/device_model.hpp"
#include "tests/workloads/scenarios/in_memory_dataset.hpp"

namespace causeway::scenarios {

// Direct indexing (`x[idx]`) in the training process: the sampled rows are gathered into a new
// tensor (fresh pages) and trained on.
void train_on_direct_batch(const InMemoryDataset& dataset, DeviceModel& model, std::int64_t batch,
                           std::size_t batch_size);

// Direct slicing (`x[i:i+batch_size]`, a view of the in-memory tensor): the batch's rows are
// copied to the device straight from the dataset, with no copy on the host.
void train_on_sliced_batch(const InMemoryDataset& dataset, DeviceModel& model, std::int64_t batch,
                           std::size_t batch_size);

// Takes batch `batch` from the DataLoader, trains on it and hands its slot back.
void train_on_loader_batch(DataLoader& loader, DeviceModel& model, std::int64_t batch,
                           std::size_t batch_bytes);

}  // namespace causeway::scenarios
