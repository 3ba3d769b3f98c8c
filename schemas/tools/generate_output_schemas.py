#!/usr/bin/env python3
# Writes the output JSON Schemas of schemas/tools/ from shared fragments (distribution, session,
# chain, process row, ...) so the files cannot drift apart. They follow report/analysis_json.cpp
# field for field. Run: python3 schemas/tools/generate_output_schemas.py (then commit the .json files).
# get_trace_stats, get_timeline, get_per_process_breakdown, run_sql and get_fleet_overview are written by causeway-schemas from report/output_shapes.hpp.
import json, os
OUT=os.path.dirname(os.path.abspath(__file__))
I={"type":"integer"}; N={"type":"number"}; S={"type":"string"}; B={"type":"boolean"}
def nul(t): return {"type":[t["type"],"null"]} if isinstance(t["type"],str) else t
def obj(props, desc=None, required=None):
    o={"type":"object","properties":props,"required":list(props.keys()) if required is None else required}
    if desc: o["description"]=desc
    return o
def arr(items, desc=None):
    a={"type":"array","items":items}
    if desc: a["description"]=desc
    return a
U="Untrusted: from the traced system, sanitised."
dist=obj({k:I for k in ["count","total_ns","mean_ns","min_ns","p50_ns","p90_ns","p95_ns","p99_ns","max_ns"]},"Exact latency distribution (ns).")
window=obj({"start_ns":I,"end_ns":I,"dur_ns":I},"Time range covered (ns since the start of recording).")
session=obj({"host":S,"kernel":S,"cpu_count":I,"gpu":nul(S),"command_line":{"type":["string","null"],"description":U},"source":S,"start_wall_ns":I,"offcpu_floor_ns":I})
dq=obj({"data_loss":B,"events_lost":I,"items":arr(obj({"source":S,"counter":S,"value":I,"severity":{"type":"string","enum":["info","error","data_loss"]},"description":S}))},"What the trace lost or cannot show.")
evidence=obj({"key":S,"value":N,"unit":S,"text":S},"One measured fact.")
competitor=obj({"comm":{"type":"string","description":U},"pid":I,"tid":I,"in_tree":B,"role":S,"preempted_ns":I,"share":N})
confidence={"type":"string","enum":["HIGH","MEDIUM","LOW"]}
verdict_names=["INPUT-BOUND","CPU-CONTENDED","LOCK-CONTENDED","GPU-BOUND","TRANSFER-BOUND","ALLOCATION-CHURN","COLD-START","HEALTHY","INSUFFICIENT-DATA"]
actor_kinds=["dataloader_workers","processes_outside","tree_threads","lock_holder","producer_thread","waker_thread","disk_io","network","timer","interrupt","unrecorded_waker","unknown_competitor","run_queue","several","device","transfers","allocator","start_up"]
actor=obj({"kind":{"type":"string","enum":actor_kinds},"name":{"type":"string","description":U},"pid":I,"tid":I,"pids":arr(I),"in_tree":B},"Who or what the chain blames: one cause (pid: the process it belongs to or, for DataLoader workers, the process they feed; tid: when one thread).")
effect=obj({"kind":S,"wait":S,"ns":I,"share":N,"count":I,"text":S},"One way the actor cost the GPU-driving threads; a chain's time lost is the sum of its effects.")
def described(t, desc): return dict(t, description=desc)
code_line_props={"file":described(S,"co_filename as the interpreter names it. "+U),"function":described(S,"co_qualname; empty when unknown. "+U),"line":described(I,"1-based; 0 when unknown."),"library":described(B,"true when no frame of the user's own code was recorded: the innermost library frame."),"stacks":described(I,"Recorded stacks at this line."),"stacks_total":described(I,"Recorded stacks with Python frames weighed."),"share":described(N,"Share of the weighed time (ns) of those stacks."),"text":described(S,"'train.py:57 in train_step'. "+U)}
def code_line(desc): return obj(code_line_props,desc)
recommendation_kinds=["index_in_memory","fewer_workers","workers_yield_cpu","persistent_workers","stop_competitors","limit_intra_op_threads","own_core","more_workers","background_loading","cheaper_loading","data_in_memory","remove_sleep","prefetch_network_input","faster_producer","faster_outside_process","shorter_critical_section","avoid_gil","faster_device_work","reuse_device_buffers","reuse_pinned_buffers","pinned_copies","batch_small_copies","fewer_bytes","steady_state_window","lazy_module_loading"]
recommendation=obj({"kind":{"type":"string","enum":recommendation_kinds},"text":described(S,"The recommendation for a person. "+U),"params":{"type":"object","additionalProperties":N,"description":"The numbers it rests on, by name (counts are integers, shares ratios 0..1), e.g. fewer_workers: {workers, cpus, num_workers}."}},"What to change: the kind (stable, for programs), its text and parameters.")
chain_required=["root_cause_class","actor","effects","symptom","op","evidence","competitors","root_cause","recommendations","confidence","time_lost_ns","time_lost_share"]
chain=obj({"root_cause_class":{"type":"string","enum":verdict_names},"actor":actor,"effects":arr(effect),"symptom":S,"op":nul(S),"evidence":arr(evidence),"competitors":arr(competitor),"root_cause":S,"recommendations":arr(recommendation),"confidence":confidence,"time_lost_ns":I,"time_lost_share":N,
  "gpu_thread_line":code_line("Present where Python frames were recorded: the GPU-driving threads' own Python line during this chain's time (its calls, or their switch-outs blamed on its actor)."),
  "actor_line":code_line("Present where Python frames were recorded: the actor's own Python line when it gave up a CPU it had taken from a GPU-driving thread."),
  "code":described(S,"Present with gpu_thread_line or actor_line: one line for a person ('waits at train.py:57 in train_step; workers spend CPU at dataset.py:31 in __getitem__'). "+U)},required=chain_required)
verdict=obj({"name":{"type":"string","enum":verdict_names},"summary":S,"numbers":arr(evidence)})
trace={"type":"string","description":"Name of the trace answered about."}
note={"type":"string","description":"Empty, or what was cut from the answer and how to see more."}
def top(props, desc):
    s=obj(props, desc); return s
schemas={}
schemas["get_causal_chains"]=top({"trace":trace,"verdict":verdict,"chains":arr(chain,"One per root cause, largest time lost first; at most `limit`."),"chains_total":I,"gpu_threads":arr(obj({"pid":I,"tid":I,"comm":{"type":"string","description":U}})),"data_quality":dq,"evidence_limits":arr(S,"What this trace cannot prove."),"session":session,"range":window,"note":note},"Verdict and causal chains.")
for name,s in schemas.items():
    open(os.path.join(OUT,name+".output.json"),"w").write(json.dumps(s,indent=2)+"\n")
frame=obj({"address":I,"module":{"type":["string","null"],"description":U},"symbol":{"type":["string","null"],"description":U},"offset":nul(I)})
pyframe_props={"file":{"type":["string","null"],"description":U},"function":{"type":["string","null"],"description":U},"line":nul(I),"library":described(B,"A frame of installed packages or the standard library (folded in the text)."),"package":described(S,"What a library frame is folded under ('torch', 'stdlib'); empty for the user's own code.")}
merged_frame=obj(dict(frame["properties"],**pyframe_props,kind={"type":"string","enum":["native","python"]}),"A native frame (address, module, symbol, offset) or a Python frame (file, function, line, library, package).",required=["kind"])
stack=obj({"stack_id":I,"pid":I,"calls":I,"total_ns":I,"ops":arr(obj({"op":S,"calls":I,"total_ns":I,"max_ns":I})),"frames":arr(frame,"Innermost first, at most `depth`."),"frames_total":I,
  "python_frames":arr(obj(pyframe_props),"Present where Python frames were recorded: innermost first."),
  "python_truncated":{"type":["boolean","null"],"description":"true: the thread had more Python frames than the collector keeps; the outermost are missing."},
  "merged_frames":arr(merged_frame,"Present where Python frames were recorded: native frames above the interpreter loop, then the Python frames, innermost first, at most `depth`."),
  "merged_frames_total":I,
  "interpreter_frames_hidden":described(I,"Native frames of the interpreter loop and below it, not shown."),
  "user_line":dict(code_line("The user's own innermost Python line of this stack; null when no frame had a file."),type=["object","null"])},
  required=["stack_id","pid","calls","total_ns","ops","frames","frames_total"])
more={}
more["get_stacks"]=top({"trace":trace,"stacks_in_trace":I,"calls_with_stack":I,"stacks":arr(stack,"By total CUDA time, at most `limit`."),"note":note},"Call stacks behind CUDA time.")
rank=obj({"tested":B,"before_values":I,"after_values":I,"z":N,"p_value":N,"after_larger_probability":N},"Mann-Whitney U over the calls (normal approximation, tie-corrected); tested false with fewer than 8 calls a side.")
shift=obj({"rank_test":rank,"adjusted_p_value":{"type":"number","description":"Holm-adjusted across the ops of this comparison."},"significant":{"type":"boolean","description":"Adjusted p below alpha, whatever the size of the change."},"beyond_noise":{"type":"boolean","description":"Adjusted p below alpha AND the median moved by the effect floor (see significance_method)."}})
loop=obj({"unit":{"type":"string","enum":["steps","calls"]},"marker_op":nul(S),"calls_per_step":I,"count":I,"span_ns":I,"per_s":N},"The GPU loop's throughput: steps (marked by marker_op) or CUDA calls of the GPU-driving threads, per second.")
recording=obj({"path":S,"program":{"type":"string","description":U},"verdict":{"type":"string","enum":verdict_names},"range":window,"gpu_threads":arr({"type":"string","description":U}),"loop":loop})
cause=obj({"key":{"type":"string","description":"class/actor kind/actor name: how a cause is matched across recordings."},"root_cause_class":{"type":"string","enum":verdict_names},"actor_kind":{"type":"string","enum":actor_kinds},"actor_name":{"type":"string","description":U},"status":{"type":"string","enum":["gone","new","persists"]},"before_ns":nul(I),"after_ns":nul(I),"before_share":nul(N),"after_share":nul(N)},"A cause's loop time lost before and after; null where it was no chain (below 10% of the loop).")
opchange=obj({"op":S,"api":S,"category":S,"before":dist,"after":dist,"shift":shift})
bootstrap=obj({"tested":B,"before_values":I,"after_values":I,"rate_ratio":N,"ci_low":N,"ci_high":N,"p_value":N},"Bootstrap of the ratio of mean step intervals (before / after: above 1 is faster after).")
more["compare_traces"]=top({"headline":S,"before":recording,"after":recording,"throughput_method":S,"throughput_ratio":N,"throughput_test":bootstrap,"throughput_beyond_noise":B,"causes":arr(cause,"Causes before first, then new ones."),"ops":arr(opchange,"CUDA ops called in both, by total time before; at most `limit`."),"ops_total":I,"ops_only_before":arr(S),"ops_only_after":arr(S),"significance_method":S,"warnings":arr(S,"What differs besides the change (program, CPUs, host, lost events)."),"note":note},"Comparison of two recordings.")
for name,s in more.items():
    open(os.path.join(OUT,name+".output.json"),"w").write(json.dumps(s,indent=2)+"\n")
