#!/usr/bin/env python3
# Writes the output JSON Schemas of schemas/tools/ from shared fragments (distribution, session,
# chain, process row, ...) so the files cannot drift apart. They follow report/analysis_json.cpp
# field for field. Run: python3 schemas/tools/generate_output_schemas.py (then commit the .json files).
# Only get_causal_chains is left here; every other output schema is written by causeway-schemas from report/output_shapes.hpp.
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
