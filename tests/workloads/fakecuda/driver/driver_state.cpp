#include "driver_state.hpp"

#include <pthread.h>

#include <atomic>
#include <cstdio>
#include <mutex>

namespace fakecuda {
namespace {

std::atomic<Device*> g_device{nullptr};
std::atomic<bool> g_forked_after_init{false};

void mark_child_unusable() {
    if (g_device.load() != nullptr) {
        g_forked_after_init.store(true);
    }
}

LoadedConfig load_at_library_load() {
    LoadedConfig loaded = load_config_from_environment();
    if (!loaded.error.empty()) {
        std::fputs(loaded.error.c_str(), stderr);
        std::fputs("fakecuda: CUDA initialisation will fail until the configuration is fixed\n",
                   stderr);
    }
    pthread_atfork(nullptr, nullptr, mark_child_unusable);
    return loaded;
}

// Read when the library is loaded ("FAKECUDA_* variables read at load").
const LoadedConfig g_loaded_config = load_at_library_load();

}  // namespace

const LoadedConfig& loaded_config() {
    return g_loaded_config;
}

CUresult initialize_driver() {
    if (!g_loaded_config.error.empty()) {
        return CUDA_ERROR_INVALID_VALUE;
    }
    if (g_forked_after_init.load()) {
        return CUDA_ERROR_NOT_INITIALIZED;
    }
    static std::once_flag created;
    // Never deleted: host threads may still call into the device while the process exits, and the
    // device threads must not outlive its state; the kernel reclaims everything at exit.
    std::call_once(created, [] { g_device.store(new Device(g_loaded_config.config)); });
    return CUDA_SUCCESS;
}

Device* initialized_device() {
    return g_forked_after_init.load() ? nullptr : g_device.load();
}

}  // namespace fakecuda
