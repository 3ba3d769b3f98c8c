#include "analysis/model/freed_heap.hpp"

#include <malloc.h>

namespace causeway::analysis {

void give_back_freed_heap() {
    malloc_trim(0);
}

}  // namespace causeway::analysis
