#include "report/comparison_json.hpp"

#include <string>
#include <vector>

#include "report/comparison_words.hpp"
#include "report/shapes/comparison.hpp"

namespace causeway::report {

std::vector<std::string> gpu_thread_texts(const analysis::ComparedRecording& recording) {
    std::vector<std::string> texts;
    texts.reserve(recording.gpu_threads.size());
    for (const auto& thread : recording.gpu_threads) {
        texts.push_back(gpu_thread_text(thread));
    }
    return texts;
}

nlohmann::json to_json(const analysis::TraceComparison& c) {
    return write_json(c);
}

}  // namespace causeway::report
