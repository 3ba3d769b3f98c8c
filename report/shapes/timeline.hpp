#pragma once
// The shape of get_timeline (TimelineAnswer).
// Each struct's describe() names its fields in order, with their descriptions: the JSON
// (write_json) and the tool output schemas (causeway-schemas) are both read from it
// (report/output_shape.hpp explains how).

#include "analysis/measure/timeline.hpp"
#include "analysis/model/trace_filter.hpp"
#include "report/shapes/shared.hpp"
#include "report/tool_answers.hpp"

namespace causeway::analysis {

template <class V>
void describe(V& v, const TimelineBucket& bucket) {
    v.field("start_ns", bucket.start_ns);
    v.field("cuda_calls", bucket.cuda_calls);
    v.field("cuda_ns", bucket.cuda_ns);
    v.field("cuda_p50_ns", bucket.cuda_p50_ns);
    v.field("cuda_p99_ns", bucket.cuda_p99_ns);
    v.field("cuda_max_ns", bucket.cuda_max_ns);
    v.field("preempted_ns", bucket.preempted_ns);
    v.field("blocked_ns", bucket.blocked_ns);
    v.field("runq_wait_ns", bucket.runq_wait_ns);
    v.field("switches", bucket.switches);
    v.field("cpu_busy_pct", bucket.cpu_busy_pct);
    v.field("page_allocs", bucket.page_allocs);
    v.field("page_alloc_bytes", bucket.page_alloc_bytes);
}

// No object description of its own: get_timeline's answer inlines these fields.
template <class V>
void describe(V& v, const Timeline& timeline) {
    v.field("range", timeline.range);
    v.field("bucket_ns", timeline.bucket_ns);
    v.field("buckets", timeline.buckets, {.description = "Equal buckets in time order."});
}

}  // namespace causeway::analysis

namespace causeway::report {

template <class V>
void describe(V& v, const TimelineAnswer& answer) {
    v.object_description("Timeline.");
    v.field("trace", answer.trace, {.description = kTraceNameDescription});
    describe(v, answer.timeline);
}

}  // namespace causeway::report
