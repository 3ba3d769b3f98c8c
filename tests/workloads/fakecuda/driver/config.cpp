#include "config.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

namespace fakecuda {
namespace {

constexpr unsigned long long kMebibyte = 1024ULL * 1024ULL;
// Counts are kept well inside unsigned 64 bits, so sums of times cannot wrap around.
constexpr unsigned long long kLargestCount = 1ULL << 62;

// Parses the whole of `text` as a finite number; false on anything else.
bool parse_number(const char* text, double& value) {
    char* end = nullptr;
    errno = 0;
    value = std::strtod(text, &end);
    return end != text && *end == '\0' && errno == 0 && std::isfinite(value);
}

class EnvironmentReader {
  public:
    // A bandwidth in GB/s: must be > 0.
    void read_gbps(const char* name, double& field) {
        double value = 0;
        if (const char* text = std::getenv(name)) {
            if (!parse_number(text, value) || value <= 0) {
                complain(name, text, "a bandwidth in GB/s greater than 0, e.g. 12.5");
                return;
            }
            field = value;
        }
    }

    // A count of `unit_scale` units (nanoseconds, or mebibytes with unit_scale = 1 MiB): >= 0.
    void read_count(const char* name, unsigned long long& field,
                    unsigned long long unit_scale = 1) {
        double value = 0;
        if (const char* text = std::getenv(name)) {
            const double largest = static_cast<double>(kLargestCount / unit_scale);
            if (!parse_number(text, value) || value < 0 || value != std::floor(value) ||
                value > largest) {
                complain(name, text,
                         "a whole number from 0 to " + std::to_string(kLargestCount / unit_scale));
                return;
            }
            field = static_cast<unsigned long long>(value) * unit_scale;
        }
    }

    // A switch: 0 or 1.
    void read_switch(const char* name, int& field) {
        if (const char* text = std::getenv(name)) {
            const std::string value(text);
            if (value != "0" && value != "1") {
                complain(name, text, "0 or 1");
                return;
            }
            field = value == "1" ? 1 : 0;
        }
    }

    std::string take_errors() { return std::move(errors_); }

  private:
    void complain(const char* name, const char* text, const std::string& expected) {
        errors_ += std::string("fakecuda: ") + name + "='" + text + "' is invalid: expected " +
                   expected + "; fix or unset it (see fakecuda.h)\n";
    }

    std::string errors_;
};

}  // namespace

fakecudaConfig default_config() {
    fakecudaConfig config{};
    config.pinned_gbps = 24;  // about what pinned copies reach over PCIe 4.0 x16
    config.pageable_gbps = 8;
    config.device_gbps = 1000;
    config.copy_latency_ns = 5'000;
    config.kernel_ns = 20'000;
    config.launch_ns = 4'000;
    config.malloc_ns = 10'000;
    config.host_alloc_ns = 50'000;
    config.sync_spin_ns = 20'000;
    config.device_memory_bytes = 16384 * kMebibyte;
    config.move_bytes = 0;
    return config;
}

LoadedConfig load_config_from_environment() {
    LoadedConfig loaded{default_config(), {}};
    fakecudaConfig& c = loaded.config;
    EnvironmentReader reader;
    reader.read_gbps("FAKECUDA_PINNED_GBPS", c.pinned_gbps);
    reader.read_gbps("FAKECUDA_PAGEABLE_GBPS", c.pageable_gbps);
    reader.read_gbps("FAKECUDA_DEVICE_GBPS", c.device_gbps);
    reader.read_count("FAKECUDA_COPY_LATENCY_NS", c.copy_latency_ns);
    reader.read_count("FAKECUDA_KERNEL_NS", c.kernel_ns);
    reader.read_count("FAKECUDA_LAUNCH_NS", c.launch_ns);
    reader.read_count("FAKECUDA_MALLOC_NS", c.malloc_ns);
    reader.read_count("FAKECUDA_HOST_ALLOC_NS", c.host_alloc_ns);
    reader.read_count("FAKECUDA_SYNC_SPIN_NS", c.sync_spin_ns);
    reader.read_count("FAKECUDA_DEVICE_MEMORY_MIB", c.device_memory_bytes, kMebibyte);
    reader.read_switch("FAKECUDA_MOVE_BYTES", c.move_bytes);
    loaded.error = reader.take_errors();
    return loaded;
}

}  // namespace fakecuda
