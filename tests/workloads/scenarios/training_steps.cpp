#include "tests/workloads/scenarios/training_steps.hpp"

#include "tests/workloads/scenarios/fresh_pages.hpp"

namespace causeway::scenarios {

void train_on_direct_batch(const InMemoryDataset& dataset, DeviceModel& model, std::int64_t batch,
                           std::size_t batch_size) {
    FreshPages inputs(batch_size * dataset.row_bytes());
    dataset.gather(dataset.sample_rows(batch, batch_size), inputs.floats());
    model.train_step(inputs.floats(), inputs.bytes());
}

void train_on_sliced_batch(const InMemoryDataset& dataset, DeviceModel& model, std::int64_t batch,
                           std::size_t batch_size) {
    const std::size_t batches = dataset.rows() / batch_size;
    const std::size_t first_row = static_cast<std::size_t>(batch) % batches * batch_size;
    model.train_step(dataset.row(first_row), batch_size * dataset.row_bytes());
}

void train_on_loader_batch(DataLoader& loader, DeviceModel& model, std::int64_t batch,
                           std::size_t batch_bytes) {
    model.train_step(loader.acquire(batch), batch_bytes);
    loader.release(batch);
}

}  // namespace causeway::scenarios
