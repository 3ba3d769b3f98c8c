#include "collector/symbols/stack_symbolizer.hpp"

#include <elf.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "collector/symbols/elf_file.hpp"

namespace causeway::collector {

const FunctionSymbol* ModuleSymbols::function_at_offset(std::uint64_t file_offset,
                                                        std::uint64_t* offset_in_function) const {
    for (const auto& segment : segments) {
        if (file_offset < segment.offset || file_offset >= segment.offset + segment.size) {
            continue;
        }
        std::uint64_t vaddr = file_offset - segment.offset + segment.vaddr;
        auto next = std::upper_bound(
            functions.begin(), functions.end(), vaddr,
            [](std::uint64_t address, const FunctionSymbol& f) { return address < f.start; });
        if (next == functions.begin()) {
            return nullptr;
        }
        const FunctionSymbol& function = *std::prev(next);
        if (vaddr >= function.start + std::max<std::uint64_t>(function.size, 1)) {
            return nullptr;
        }
        *offset_in_function = vaddr - function.start;
        return &function;
    }
    return nullptr;
}

ModuleSymbols ModuleSymbols::load(const std::string& path) {
    ModuleSymbols module;
    auto file = ElfFile::open(path);
    if (!file) {
        return module;
    }
    for (const auto& segment : file->load_segments()) {
        if (segment.executable) {
            module.segments.push_back({segment.offset, segment.vaddr, segment.file_size});
        }
    }
    file->for_each_defined_symbol(STT_FUNC, [&](const ElfSymbol& symbol) {
        if (!symbol.name.empty()) {
            module.functions.push_back({symbol.vaddr, symbol.size_bytes, std::string(symbol.name)});
        }
    });
    std::sort(module.functions.begin(), module.functions.end(),
              [](const FunctionSymbol& a, const FunctionSymbol& b) { return a.start < b.start; });
    return module;
}

std::vector<Mapping> parse_mappings(const std::string& maps_text) {
    std::vector<Mapping> mappings;
    std::istringstream lines(maps_text);
    std::string line;
    while (std::getline(lines, line)) {
        auto slash = line.find('/');
        if (slash == std::string::npos) {
            continue;
        }
        Mapping m;
        char dash = 0;
        std::string perms;
        std::istringstream fields(line.substr(0, slash));
        fields >> std::hex >> m.start >> dash >> m.end >> perms >> m.file_offset;
        if (!fields.fail()) {
            m.path = line.substr(slash);
            mappings.push_back(std::move(m));
        }
    }
    return mappings;
}

StackSymbolizer::StackSymbolizer(std::string proc_root) : proc_root_(std::move(proc_root)) {}

const Mapping* StackSymbolizer::mapping_for(std::uint32_t tgid, std::uint64_t address) {
    auto find = [&](const std::vector<Mapping>& mappings) -> const Mapping* {
        for (const auto& m : mappings) {
            if (address >= m.start && address < m.end) {
                return &m;
            }
        }
        return nullptr;
    };
    auto cached = mappings_.find(tgid);
    if (cached != mappings_.end()) {
        if (const Mapping* m = find(cached->second)) {
            return m;
        }
    }
    std::ifstream in(proc_root_ + "/" + std::to_string(tgid) + "/maps");
    std::stringstream text;
    text << in.rdbuf();
    auto& mappings = mappings_[tgid];
    mappings = parse_mappings(text.str());
    return find(mappings);
}

const ModuleSymbols& StackSymbolizer::module(const std::string& path) {
    auto& slot = modules_[path];
    if (!slot) {
        slot = std::make_unique<ModuleSymbols>(ModuleSymbols::load(path));
    }
    return *slot;
}

std::vector<tracedb::StackFrameRecord> StackSymbolizer::frames(
    std::uint32_t tgid, const std::vector<std::uint64_t>& addresses) {
    std::vector<tracedb::StackFrameRecord> frames;
    for (std::size_t depth = 0; depth < addresses.size(); ++depth) {
        tracedb::StackFrameRecord frame;
        frame.depth = static_cast<std::int64_t>(depth);
        frame.address = static_cast<std::int64_t>(addresses[depth]);
        if (const Mapping* m = mapping_for(tgid, addresses[depth])) {
            frame.module = m->path;
            std::uint64_t file_offset = addresses[depth] - m->start + m->file_offset;
            std::uint64_t offset = 0;
            if (const FunctionSymbol* f =
                    module(m->path).function_at_offset(file_offset, &offset)) {
                frame.symbol = f->name;
                frame.offset = static_cast<std::int64_t>(offset);
            }
        }
        frames.push_back(std::move(frame));
    }
    return frames;
}

}  // namespace causeway::collector
