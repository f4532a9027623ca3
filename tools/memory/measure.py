#!/usr/bin/env python3
"""Measures per-GPU training memory of LLM fine-tuning configurations on one CUDA GPU.

Each configuration builds a decoder-only model from a config dict (random weights, no hub access), applies
LoRA (PEFT) or full fine-tuning, wraps it the way accelerate / the HF Trainer do (DDP, FSDP1 with a sharding
strategy and wrap policy, FSDP2 `fully_shard` with `reshard_after_forward`, DeepSpeed ZeRO 1-3 through
`deepspeed.initialize`), and runs three training steps (forward with labels, backward, AdamW step,
`zero_grad(set_to_none=True)`). World sizes above one use PyTorch's
`fake` process group: every allocation of rank 0 is real, collectives are skipped, so per-rank tensor memory is
what a real run of that world size allocates (checked against NCCL on two GPUs to the MiB).

Recorded per configuration (third step, optimizer state present): peak allocated (`max_memory_allocated`), peak
reserved (`max_memory_reserved`), the allocation at rest between steps, and per-phase peaks. Results are one JSON
object per line, with the library versions, written as they are measured.

Usage: measure.py OUT.jsonl [--only NAME,...] [--list]
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
import traceback

import torch
import torch.distributed as dist

GiB = 1024**3

# Model geometries (the published config.json values of each model).
MODELS = {
    "qwen2.5-0.5b": dict(arch="qwen2", hidden_size=896, num_hidden_layers=24, num_attention_heads=14,
                         num_key_value_heads=2, intermediate_size=4864, vocab_size=151936,
                         tie_word_embeddings=True),
    "qwen2.5-1.5b": dict(arch="qwen2", hidden_size=1536, num_hidden_layers=28, num_attention_heads=12,
                         num_key_value_heads=2, intermediate_size=8960, vocab_size=151936,
                         tie_word_embeddings=True),
    "llama-3.2-3b": dict(arch="llama", hidden_size=3072, num_hidden_layers=28, num_attention_heads=24,
                         num_key_value_heads=8, intermediate_size=8192, vocab_size=128256,
                         tie_word_embeddings=True),
    "llama-2-7b": dict(arch="llama", hidden_size=4096, num_hidden_layers=32, num_attention_heads=32,
                       num_key_value_heads=32, intermediate_size=11008, vocab_size=32000,
                       tie_word_embeddings=False),
    "llama-3.1-8b": dict(arch="llama", hidden_size=4096, num_hidden_layers=32, num_attention_heads=32,
                         num_key_value_heads=8, intermediate_size=14336, vocab_size=128256,
                         tie_word_embeddings=False),
    # Run 7: architectures unlike the first five (published config.json values of each model).
    "llama-3.2-1b": dict(arch="llama", hidden_size=2048, num_hidden_layers=16, num_attention_heads=32,
                         num_key_value_heads=8, head_dim=64, intermediate_size=8192, vocab_size=128256,
                         tie_word_embeddings=True),
    "gemma-2-2b": dict(arch="gemma2", hidden_size=2304, num_hidden_layers=26, num_attention_heads=8,
                       num_key_value_heads=4, head_dim=256, intermediate_size=9216, vocab_size=256000,
                       tie_word_embeddings=True),
    "gemma-3-1b": dict(arch="gemma3_text", hidden_size=1152, num_hidden_layers=26, num_attention_heads=4,
                       num_key_value_heads=1, head_dim=256, intermediate_size=6912, vocab_size=262144,
                       tie_word_embeddings=True),
    "phi-3-mini": dict(arch="phi3", hidden_size=3072, num_hidden_layers=32, num_attention_heads=32,
                       num_key_value_heads=32, intermediate_size=8192, vocab_size=32064, tie_word_embeddings=False),
    "mistral-7b-v0.3": dict(arch="mistral", hidden_size=4096, num_hidden_layers=32, num_attention_heads=32,
                            num_key_value_heads=8, intermediate_size=14336, vocab_size=32768,
                            tie_word_embeddings=False),
    "qwen3-1.7b": dict(arch="qwen3", hidden_size=2048, num_hidden_layers=28, num_attention_heads=16,
                       num_key_value_heads=8, head_dim=128, intermediate_size=6144, vocab_size=151936,
                       tie_word_embeddings=True),
    "olmo-2-7b": dict(arch="olmo2", hidden_size=4096, num_hidden_layers=32, num_attention_heads=32,
                      num_key_value_heads=32, intermediate_size=11008, vocab_size=100352, tie_word_embeddings=False),
    "gpt2-large": dict(arch="gpt2", n_embd=1280, n_layer=36, n_head=20, vocab_size=50257, n_positions=1024,
                       tie_word_embeddings=True),
}


def versions():
    out = {"torch": torch.__version__, "python": sys.version.split()[0]}
    for name in ("transformers", "peft", "accelerate", "bitsandbytes"):
        try:
            out[name] = __import__(name).__version__
        except Exception:  # noqa: BLE001 - a missing package is recorded, not fatal
            out[name] = None
    out["gpu"] = torch.cuda.get_device_name(0)
    return out


def build_config(model: str, untied: bool = False):
    import transformers

    g = dict(MODELS[model])
    if untied:
        g["tie_word_embeddings"] = False
    arch = g.pop("arch")
    cls = getattr(transformers, {"qwen2": "Qwen2Config", "llama": "LlamaConfig", "gemma2": "Gemma2Config",
                                 "gemma3_text": "Gemma3TextConfig", "phi3": "Phi3Config", "mistral": "MistralConfig",
                                 "qwen3": "Qwen3Config", "olmo2": "Olmo2Config", "gpt2": "GPT2Config"}[arch])
    if arch == "gpt2":
        return cls(**g)  # dropout 0.1 (resid, embd, attn) as published
    return cls(**g, max_position_embeddings=8192)


def tied(model: str) -> bool:
    return bool(MODELS[model].get("tie_word_embeddings"))


def decoder_layer_class(model) -> type:
    for m in model.modules():
        if type(m).__name__.endswith("DecoderLayer") or type(m).__name__ == "GPT2Block":
            return type(m)
    raise ValueError("no decoder layer")


def make_model(c: dict, dtype: torch.dtype, device: str):
    from transformers import AutoModelForCausalLM

    # FSDP2 keeps a shared parameter shared through `to_empty`: an untied FSDP2 head is untied in the config (the
    # embedding and the head then are units of their own, as for a model published untied).
    cfg = build_config(c["model"], untied=bool(c.get("untied")) and c.get("mode") == "fsdp2")
    with torch.device("meta"):
        model = AutoModelForCausalLM.from_config(cfg, attn_implementation="sdpa")
    model.to(dtype)
    if c.get("ac"):
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": bool(c.get("reentrant"))})
    if c["train"] == "lora":
        from peft import LoraConfig, get_peft_model

        lcfg = LoraConfig(r=c.get("r", 16), lora_alpha=32, lora_dropout=0.0,
                          target_modules=c.get("targets", ["q_proj", "k_proj", "v_proj", "o_proj"]))
        model = get_peft_model(model, lcfg)  # adapters fp32 when the base is bf16 (PEFT's default autocast)
    model.train()
    if device != "meta":
        model.to_empty(device=device)
        if not c.get("untied"):
            retie(model)
        init_(model)
    return model


def make_qmodel(c: dict):
    """QLoRA: a bf16 model whose decoder linear layers are bitsandbytes 4-bit NF4 (double quantization, compute dtype
    bf16, `quant_storage` from the configuration), as transformers' bitsandbytes integration loads it (the LM head stays
    unquantized). With `kbit_prep`, peft's `prepare_model_for_kbit_training` runs first (what TRL does for QLoRA
    without sharding: the non-quantized parameters are upcast to fp32); LoRA adapters on top."""
    import bitsandbytes as bnb
    from transformers import AutoModelForCausalLM
    from peft import LoraConfig, get_peft_model

    cfg = build_config(c["model"])
    with torch.device("meta"):
        model = AutoModelForCausalLM.from_config(cfg, attn_implementation="sdpa")
    model.to(torch.bfloat16)
    model.to_empty(device="cuda")
    retie(model)
    init_(model)
    qs = {"bf16": torch.bfloat16, "fp32": torch.float32, "uint8": torch.uint8}[c.get("quant_storage", "bf16")]
    mods = list(model.modules())
    for mod in mods:
        for cname, child in list(mod.named_children()):
            if type(child) is not torch.nn.Linear or cname == "lm_head":
                continue
            q = bnb.nn.Linear4bit(child.in_features, child.out_features, bias=child.bias is not None,
                                  compute_dtype=torch.bfloat16, compress_statistics=True, quant_type="nf4",
                                  quant_storage=qs, device="meta")
            w = bnb.nn.Params4bit(child.weight.data, requires_grad=False, compress_statistics=True, quant_type="nf4",
                                  quant_storage=qs)
            w = w.to("cuda")  # quantizes (Params4bit._quantize)
            q.weight = w
            q.quant_state = w.quant_state
            if child.bias is not None:
                q.bias = torch.nn.Parameter(child.bias.data, requires_grad=False)
            setattr(mod, cname, q)
    del mods, child
    gc.collect()
    torch.cuda.empty_cache()
    model.is_loaded_in_4bit = True
    for p in model.parameters():
        p.requires_grad_(False)
    if c.get("kbit_prep"):
        from peft import prepare_model_for_kbit_training

        model = prepare_model_for_kbit_training(model, use_gradient_checkpointing=bool(c.get("ac")),
                                                gradient_checkpointing_kwargs={"use_reentrant": False})
    elif c.get("ac"):
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    lcfg = LoraConfig(r=c.get("r", 16), lora_alpha=32, lora_dropout=0.0,
                      target_modules=c.get("targets", ["q_proj", "k_proj", "v_proj", "o_proj"]))
    model = get_peft_model(model, lcfg)
    model.train()
    return model


def retie(model):
    """`to_empty` re-creates a shared parameter once per module that uses it: tie the head to the embedding again.

    The measurements of runs 1 and 3 in docs/memory/measurements.jsonl predate this step: their tied models
    (Qwen2.5-0.5B/1.5B, Llama-3.2-3B) ran with an untied head under DDP, FSDP1 and without wrapping, and tied under
    FSDP2 (`to_empty` of a `fully_shard`ed model swaps each parameter in place, so the shared one stays shared: their
    recorded parameter counts are the tied totals). `cfg.untied` (see `--run1-geometry`) skips it.
    """
    base = model.get_base_model() if hasattr(model, "get_base_model") else model
    if getattr(base.config, "tie_word_embeddings", False):
        base.tie_weights()


@torch.no_grad()
def init_(module):
    for p in module.parameters():
        t = p.to_local() if hasattr(p, "to_local") else p
        if t.is_floating_point() and t.numel():
            t.normal_(0.0, 0.02)
    for name, b in module.named_buffers():
        if "inv_freq" in name and b.numel():
            d = b.numel()
            b.copy_(1.0 / (10000.0 ** (torch.arange(0, d, device=b.device, dtype=torch.float32) / d)))


def count(model):
    total = trainable = 0
    seen = set()
    for p in model.parameters():
        if id(p) in seen:
            continue
        seen.add(id(p))
        total += p.numel()
        if p.requires_grad:
            trainable += p.numel()
    return total, trainable


def head_tied(model):
    """Whether the LM head's weight is the input embedding's (None when FSDP1 flattened them out of sight)."""
    head = emb = None
    for name, p in model.named_parameters(remove_duplicate=False):
        if name.endswith("lm_head.weight"):
            head = p
        elif name.endswith("embed_tokens.weight") or name.endswith("wte.weight"):
            emb = p
    if head is None or emb is None:
        return None
    return head is emb


def setup_pg(ws: int):
    if dist.is_initialized():
        dist.destroy_process_group()
    from torch.testing._internal.distributed.fake_pg import FakeStore

    dist.init_process_group("fake", store=FakeStore(), rank=0, world_size=ws)


def wrap(c: dict):
    """Builds and wraps the model; returns (model, optimizer, info)."""
    mode, train = c["mode"], c["train"]
    info = {}
    ws = c.get("ws", 1)
    cuda = torch.device("cuda", 0)
    quant = bool(c.get("quant"))
    if mode in ("plain", "ddp"):
        model = make_qmodel(c) if quant else make_model(c, torch.bfloat16, "cuda")
        if mode == "ddp":
            setup_pg(ws)
            from torch.nn.parallel import DistributedDataParallel as DDP

            model = DDP(model, device_ids=[0])
            # The fake process group completes collectives with no result; DDP's C++ reducer needs the bucket
            # back. This hook returns it unchanged (the default hook's averaging is in place: no memory).
            def hook(state, bucket):
                fut = torch.futures.Future()
                fut.set_result(bucket.buffer())
                return fut

            model.register_comm_hook(None, hook)
    elif mode == "fsdp1":
        setup_pg(ws)
        from torch.distributed.fsdp import (BackwardPrefetch, CPUOffload, FullyShardedDataParallel as FSDP,
                                            MixedPrecision, ShardingStrategy)
        from torch.distributed.fsdp.wrap import transformer_auto_wrap_policy
        import functools

        # accelerate upcasts trainable FlatParameters to fp32 under mixed precision: a full fine-tune keeps fp32
        # master weights; LoRA keeps the bf16 base and PEFT's fp32 adapters.
        dtype = torch.float32 if train == "full" else torch.bfloat16
        # A tied model is materialised on the CPU first (FSDP moves each unit to the GPU as it wraps it): per-module
        # materialisation on the meta device would untie the head.
        # `cfg.untied`: materialised per module on the meta device as runs 1 and 3 did (the head a parameter of its own).
        tied = bool(MODELS[c["model"]].get("tie_word_embeddings")) and not c.get("untied")
        model = make_qmodel(c) if quant else make_model(c, dtype, "cpu" if tied else "meta")
        layer_cls = decoder_layer_class(model)
        if train == "lora" and c.get("wrap", "peft") == "peft":
            from peft.utils.other import fsdp_auto_wrap_policy

            policy = fsdp_auto_wrap_policy(model)
        else:
            policy = functools.partial(transformer_auto_wrap_policy, transformer_layer_cls={layer_cls})
        bp = {"pre": BackwardPrefetch.BACKWARD_PRE, "post": BackwardPrefetch.BACKWARD_POST, "none": None}[
            c.get("prefetch", "pre")]
        pg = None
        if c.get("sg"):  # HYBRID_SHARD: shard inside groups of `sg` ranks, replicate across them
            sg = c["sg"]
            pg = (dist.new_group(list(range(sg))), dist.new_group(list(range(0, ws, sg))))
        model = FSDP(model, auto_wrap_policy=policy, process_group=pg, sharding_strategy=ShardingStrategy[c.get("strat", "FULL_SHARD")],
                     mixed_precision=MixedPrecision(torch.bfloat16, torch.bfloat16, torch.bfloat16),
                     cpu_offload=CPUOffload(offload_params=bool(c.get("offload"))), backward_prefetch=bp,
                     device_id=cuda, use_orig_params=bool(c.get("uop", train == "full")),
                     param_init_fn=None if (tied or quant) else (lambda m: m.to_empty(device=cuda, recurse=False)))
        if not (tied or quant):
            init_(model)
        info["num_fsdp_units"] = len(list(FSDP.fsdp_modules(model)))
    elif mode == "fsdp2":
        setup_pg(ws)
        from torch.distributed.fsdp import CPUOffloadPolicy, MixedPrecisionPolicy, OffloadPolicy, fully_shard

        dtype = torch.float32 if train == "full" else torch.bfloat16
        model = make_qmodel(c) if quant else make_model(c, dtype, "meta")
        raf = c.get("raf", True)
        mp = MixedPrecisionPolicy(param_dtype=torch.bfloat16, reduce_dtype=torch.float32)
        off = CPUOffloadPolicy() if c.get("offload") else OffloadPolicy()
        inner = model.base_model.model if train == "lora" else model
        units = 0
        if isinstance(raf, int) and not isinstance(raf, bool):
            pass  # reshard_after_forward=k: after forward each unit keeps a 1/k shard
        # Each decoder layer is a unit; an untied embedding and LM head are units of their own (a tied pair stays in
        # the root, where both uses see it gathered).
        if not inner.config.tie_word_embeddings:
            fully_shard(inner.model.embed_tokens, reshard_after_forward=raf, mp_policy=mp, offload_policy=off)
            units += 1
        for layer in inner.model.layers:
            fully_shard(layer, reshard_after_forward=raf, mp_policy=mp, offload_policy=off)
            units += 1
        if not inner.config.tie_word_embeddings:
            fully_shard(inner.lm_head, reshard_after_forward=raf, mp_policy=mp, offload_policy=off)
            units += 1
        fully_shard(model, reshard_after_forward=raf, mp_policy=mp, offload_policy=off)
        units += 1
        if not quant:
            model.to_empty(device="cpu" if c.get("offload") else "cuda")
            if not c.get("untied"):
                retie(model)
            init_(model)
        info["num_fsdp_units"] = units
    elif mode == "zero":
        return wrap_zero(c, ws)
    else:
        raise ValueError(mode)
    params = [p for p in model.parameters() if p.requires_grad]
    opt_name = c.get("opt", "adamw")
    if opt_name == "adamw":
        opt = torch.optim.AdamW(params, lr=1e-5)
    elif opt_name == "sgd":
        opt = torch.optim.SGD(params, lr=1e-5, momentum=0.9)
    else:
        raise ValueError(opt_name)
    return model, opt, info


def zero_config(c: dict, h: int) -> dict:
    """The DeepSpeed JSON of a `zero` configuration. `ds="hf"` (default): the HF Trainer's published ZeRO-2 / ZeRO-3
    examples with their "auto" values as the Trainer fills them (reduce_bucket_size h*h, stage3_prefetch_bucket_size
    0.9*h*h, stage3_param_persistence_threshold 10*h); `ds="defaults"`: only the stage (DeepSpeed's own defaults,
    as accelerate's `deepspeed_config: {zero_stage: N}` section gives them)."""
    stage = c["stage"]
    zo = {"stage": stage}
    if c.get("ds", "hf") == "hf":
        zo.update({"overlap_comm": True, "contiguous_gradients": True, "reduce_bucket_size": h * h})
        if stage == 3:
            zo.update({"sub_group_size": 1e9, "stage3_prefetch_bucket_size": int(0.9 * h * h),
                       "stage3_param_persistence_threshold": 10 * h, "stage3_max_live_parameters": 1e9,
                       "stage3_max_reuse_distance": 1e9, "stage3_gather_16bit_weights_on_model_save": True})
        else:
            zo.update({"allgather_partitions": True, "allgather_bucket_size": 2e8, "reduce_scatter": True})
    if c.get("offload"):  # "opt": the optimizer on the CPU; "all": the parameters too (ZeRO-3)
        zo["offload_optimizer"] = {"device": "cpu", "pin_memory": True}
        if c["offload"] == "all":
            zo["offload_param"] = {"device": "cpu", "pin_memory": True}
    return {"train_micro_batch_size_per_gpu": c.get("mb", 1), "gradient_accumulation_steps": c.get("ga", 1),
            "bf16": {"enabled": True}, "zero_optimization": zo, "zero_allow_untested_optimizer": True,
            # torch's AdamW steps the offloaded fp32 partition on the CPU (DeepSpeedCPUAdam needs a compiled op).
            "zero_force_ds_cpu_optimizer": False,
            "gradient_clipping": 1.0, "steps_per_print": 10**9, "wall_clock_breakdown": False}


def wrap_zero(c: dict, ws: int):
    """DeepSpeed ZeRO as the HF Trainer and accelerate run it: a bf16 model (LoRA adapters as PEFT makes them),
    torch AdamW as the client optimizer (no DeepSpeed op is compiled), `deepspeed.initialize` on the fake process
    group of `ws` ranks (DeepSpeed uses an initialized torch.distributed as it is)."""
    setup_pg(ws)
    for k, v in (("RANK", "0"), ("LOCAL_RANK", "0"), ("WORLD_SIZE", str(ws)), ("MASTER_ADDR", "127.0.0.1"),
                 ("MASTER_PORT", "29511")):
        os.environ[k] = v
    import deepspeed

    cfg = build_config(c["model"])
    h = getattr(cfg, "hidden_size", None) or cfg.n_embd
    if c.get("zinit"):
        # ZeRO-3 as the HF Trainer builds it (HfDeepSpeedConfig): the model constructed inside
        # `deepspeed.zero.Init`, each parameter partitioned as it is created; never whole on the GPU.
        from transformers import AutoModelForCausalLM

        with deepspeed.zero.Init(config_dict_or_path=zero_config(c, h), dtype=torch.bfloat16):
            model = AutoModelForCausalLM.from_config(cfg, attn_implementation="sdpa")
        if c.get("ac"):
            model.gradient_checkpointing_enable(
                gradient_checkpointing_kwargs={"use_reentrant": bool(c.get("reentrant"))})
        if c["train"] == "lora":
            from peft import LoraConfig, get_peft_model

            model = get_peft_model(model, LoraConfig(r=c.get("r", 16), lora_alpha=32, lora_dropout=0.0,
                                                     target_modules=c.get("targets", ["q_proj", "k_proj", "v_proj",
                                                                                      "o_proj"])))
        model.train()
    else:
        model = make_model(c, torch.bfloat16, "cuda")
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=1e-5)
    engine, _, _, _ = deepspeed.initialize(model=model, optimizer=opt, config=zero_config(c, h))
    return engine, None, {"ds_config": zero_config(c, h), "deepspeed": deepspeed.__version__}


def step_zero(engine, c, ids, phases):
    """One optimizer step through the DeepSpeed engine (bf16 model, no autocast), with the same phase peaks as
    `step`."""
    for k in ("peak_fwd", "reserved_fwd", "peak_bwd", "reserved_bwd"):
        phases[k] = 0
    for micro in range(c.get("ga", 1)):
        torch.cuda.reset_peak_memory_stats()
        loss = engine(input_ids=ids, labels=ids).loss
        torch.cuda.synchronize()
        phases["peak_fwd"] = max(phases["peak_fwd"], torch.cuda.max_memory_allocated())
        phases["after_fwd"] = torch.cuda.memory_allocated()
        phases["reserved_fwd"] = max(phases["reserved_fwd"], torch.cuda.max_memory_reserved())
        torch.cuda.reset_peak_memory_stats()
        engine.backward(loss)
        del loss
        torch.cuda.synchronize()
        phases["peak_bwd"] = max(phases["peak_bwd"], torch.cuda.max_memory_allocated())
        phases["after_bwd"] = torch.cuda.memory_allocated()
        phases["reserved_bwd"] = max(phases["reserved_bwd"], torch.cuda.max_memory_reserved())
        torch.cuda.reset_peak_memory_stats()
        engine.step()  # DeepSpeed steps the optimizer at the accumulation boundary only
        torch.cuda.synchronize()
    phases["peak_step"] = torch.cuda.max_memory_allocated()
    phases["reserved_step"] = torch.cuda.max_memory_reserved()


def step(model, opt, c, ids, phases):
    if c["mode"] == "zero":
        return step_zero(model, c, ids, phases)
    # accelerate runs the forward under autocast when mixed precision is on (every mode here).
    use_autocast = c.get("autocast", True)
    ga = c.get("ga", 1)
    import contextlib

    for k in ("peak_fwd", "reserved_fwd", "peak_bwd", "reserved_bwd"):
        phases[k] = 0
    for micro in range(ga):
        # Gradient accumulation as accelerate runs it: DDP skips the all-reduce (no_sync) but on the last
        # micro-step; FSDP reduce-scatters every micro-step (sharded gradients accumulate).
        sync = contextlib.nullcontext()
        if micro < ga - 1 and c["mode"] == "ddp":
            sync = model.no_sync()
        with sync:
            torch.cuda.reset_peak_memory_stats()
            with torch.autocast("cuda", dtype=torch.bfloat16, enabled=use_autocast):
                loss = model(input_ids=ids, labels=ids).loss
            torch.cuda.synchronize()
            phases["peak_fwd"] = max(phases["peak_fwd"], torch.cuda.max_memory_allocated())
            phases["after_fwd"] = torch.cuda.memory_allocated()
            phases["reserved_fwd"] = max(phases["reserved_fwd"], torch.cuda.max_memory_reserved())
            torch.cuda.reset_peak_memory_stats()
            loss.backward()
            del loss
            torch.cuda.synchronize()
            phases["peak_bwd"] = max(phases["peak_bwd"], torch.cuda.max_memory_allocated())
            phases["after_bwd"] = torch.cuda.memory_allocated()
            phases["reserved_bwd"] = max(phases["reserved_bwd"], torch.cuda.max_memory_reserved())
    torch.cuda.reset_peak_memory_stats()
    opt.step()
    torch.cuda.synchronize()
    phases["peak_step"] = torch.cuda.max_memory_allocated()
    phases["reserved_step"] = torch.cuda.max_memory_reserved()
    opt.zero_grad(set_to_none=True)


def segments_by_stream() -> dict:
    """The caching allocator's segments grouped by CUDA stream: count, bytes, and the ten largest sizes."""
    out = {}
    for seg in torch.cuda.memory_snapshot():
        s = out.setdefault(str(seg.get("stream", 0)), {"count": 0, "bytes": 0, "largest": []})
        s["count"] += 1
        s["bytes"] += seg["total_size"]
        s["largest"].append(seg["total_size"])
    for s in out.values():
        s["largest"] = sorted(s["largest"], reverse=True)[:10]
    return out


def run_one(c: dict) -> dict:
    rec = {"name": c["name"], "cfg": c}
    t0 = time.time()
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    base = torch.cuda.memory_allocated()
    rec["base_allocated_bytes"] = base
    rec["base_reserved_bytes"] = torch.cuda.memory_reserved()
    model, opt, info = wrap(c)
    rec.update(info)
    rec["init_peak_bytes"] = torch.cuda.max_memory_allocated() - base
    # Where the reserved memory grows: after wrapping, after each step, and the cached segments per stream at the end
    # (docs/memory.md, caveats: the tied FSDP1 full fine-tunes reserve more than the allocator model holds).
    rec["init_reserved_bytes"] = torch.cuda.memory_reserved() - rec["base_reserved_bytes"]
    rec["reserved_after_step"] = []
    cfg = build_config(c["model"])
    ids = torch.randint(0, cfg.vocab_size, (c.get("mb", 1), c.get("seq", 2048)), device="cuda")
    phases = {}
    for i in range(3):
        if i == 2:
            gc.collect()
            rec["steady_bytes"] = torch.cuda.memory_allocated() - base
        step(model, opt, c, ids, phases)
        rec["reserved_after_step"].append(torch.cuda.memory_reserved() - rec["base_reserved_bytes"])
    rec["peak_bytes"] = max(phases["peak_fwd"], phases["peak_bwd"], phases["peak_step"]) - base
    rec["reserved_bytes"] = max(phases["reserved_fwd"], phases["reserved_bwd"], phases["reserved_step"])
    rec["phases"] = {k: v - base if not k.startswith("reserved") else v for k, v in phases.items()}
    rec["peak_GiB"] = round(rec["peak_bytes"] / GiB, 3)
    rec["reserved_GiB"] = round(rec["reserved_bytes"] / GiB, 3)
    rec["steady_GiB"] = round(rec["steady_bytes"] / GiB, 3)
    rec["segments"] = segments_by_stream()
    total, trainable = count(model)
    rec["tied_head"] = head_tied(model)
    rec["params_local"] = total
    rec["trainable_local"] = trainable
    rec["seconds"] = round(time.time() - t0, 1)
    del model, opt, ids
    gc.collect()
    torch.cuda.empty_cache()
    return rec


def configs():
    out = []

    def add(name, **c):
        c.setdefault("ws", 8)
        c.setdefault("seq", 2048)
        c.setdefault("mb", 1)
        c["name"] = name
        out.append(c)

    # The 7B LoRA table (Llama-2-7B, r=16 q/k/v/o, 8 ranks, seq 2048, micro-batch 1).
    for ac in (0, 1):
        add(f"l2-7b_lora_ddp_ac{ac}", model="llama-2-7b", train="lora", mode="ddp", ac=ac)
        add(f"l2-7b_lora_fs_ac{ac}", model="llama-2-7b", train="lora", mode="fsdp1", strat="FULL_SHARD", ac=ac)
        add(f"l2-7b_lora_sgo_ac{ac}", model="llama-2-7b", train="lora", mode="fsdp1", strat="SHARD_GRAD_OP", ac=ac)
        add(f"l2-7b_lora_f2t_ac{ac}", model="llama-2-7b", train="lora", mode="fsdp2", raf=True, ac=ac)
        add(f"l2-7b_lora_fsoff_ac{ac}", model="llama-2-7b", train="lora", mode="fsdp1", strat="FULL_SHARD", ac=ac,
            offload=1)
    add("l2-7b_lora_f2f_ac0", model="llama-2-7b", train="lora", mode="fsdp2", raf=False, ac=0)
    add("l2-7b_lora_fs_post_ac0", model="llama-2-7b", train="lora", mode="fsdp1", strat="FULL_SHARD", prefetch="post")
    add("l2-7b_lora_fs_nopf_ac0", model="llama-2-7b", train="lora", mode="fsdp1", strat="FULL_SHARD", prefetch="none")
    add("l2-7b_lora_plain_ac1", model="llama-2-7b", train="lora", mode="plain", ac=1, ws=1)
    add("l2-7b_lora_fs_uop_ac0", model="llama-2-7b", train="lora", mode="fsdp1", strat="FULL_SHARD", uop=1)
    # A fourth size and other shapes: micro-batch 2, other world sizes, SGD, all-linear LoRA.
    q15 = dict(model="qwen2.5-1.5b", seq=2048, mb=2)
    add("q15_lora_fs_ac0", train="lora", mode="fsdp1", strat="FULL_SHARD", ac=0, **q15)
    add("q15_lora_fs_ac1", train="lora", mode="fsdp1", strat="FULL_SHARD", ac=1, **q15)
    add("q15_lora_ddp_ac0", train="lora", mode="ddp", ac=0, **q15)
    add("q15_full_fs_ac1", train="full", mode="fsdp1", strat="FULL_SHARD", ac=1, **q15)
    add("q15_full_f2t_ac0", train="full", mode="fsdp2", raf=True, ac=0, **q15)
    add("q15_full_f2f_ac1", train="full", mode="fsdp2", raf=False, ac=1, **q15)
    add("q15_lora_all_fs_ac1", train="lora", mode="fsdp1", strat="FULL_SHARD", ac=1, r=64,
        targets=["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"], **q15)
    add("l3b_full_fs_sgd_ac1", model="llama-3.2-3b", train="full", mode="fsdp1", strat="FULL_SHARD", ac=1, opt="sgd")
    add("l3b_lora_fs_ws4_ac0", model="llama-3.2-3b", train="lora", mode="fsdp1", strat="FULL_SHARD", ac=0, ws=4)
    add("l8b_full_fs_ws64_ac1", model="llama-3.1-8b", train="full", mode="fsdp1", strat="FULL_SHARD", ac=1, ws=64)
    add("l8b_lora_sgo_ac0", model="llama-3.1-8b", train="lora", mode="fsdp1", strat="SHARD_GRAD_OP", ac=0)
    add("l8b_full_ddp_s512_ac0", model="llama-3.1-8b", train="full", mode="ddp", ac=0, seq=512)
    # Three sizes x LoRA / full x strategies x checkpointing x two (seq, micro-batch) shapes.
    for m, tag in (("qwen2.5-0.5b", "q05"), ("llama-3.2-3b", "l3b"), ("llama-3.1-8b", "l8b")):
        for seq, mb in ((1024, 4), (4096, 1)):
            s = f"s{seq}b{mb}"
            for ac in (0, 1):
                add(f"{tag}_lora_ddp_{s}_ac{ac}", model=m, train="lora", mode="ddp", ac=ac, seq=seq, mb=mb)
                add(f"{tag}_lora_fs_{s}_ac{ac}", model=m, train="lora", mode="fsdp1", strat="FULL_SHARD", ac=ac,
                    seq=seq, mb=mb)
                add(f"{tag}_lora_f2t_{s}_ac{ac}", model=m, train="lora", mode="fsdp2", raf=True, ac=ac, seq=seq, mb=mb)
                add(f"{tag}_full_fs_{s}_ac{ac}", model=m, train="full", mode="fsdp1", strat="FULL_SHARD", ac=ac,
                    seq=seq, mb=mb)
            add(f"{tag}_lora_sgo_{s}_ac1", model=m, train="lora", mode="fsdp1", strat="SHARD_GRAD_OP", ac=1,
                seq=seq, mb=mb)
            add(f"{tag}_lora_f2f_{s}_ac1", model=m, train="lora", mode="fsdp2", raf=False, ac=1, seq=seq, mb=mb)
            add(f"{tag}_full_f2t_{s}_ac1", model=m, train="full", mode="fsdp2", raf=True, ac=1, seq=seq, mb=mb)
        add(f"{tag}_full_sgo_ac1", model=m, train="full", mode="fsdp1", strat="SHARD_GRAD_OP", ac=1)
        add(f"{tag}_full_ddp_ac1", model=m, train="full", mode="ddp", ac=1)
        add(f"{tag}_lora_fsoff_ac1", model=m, train="lora", mode="fsdp1", strat="FULL_SHARD", ac=1, offload=1)
        add(f"{tag}_full_fs_ws2_ac1", model=m, train="full", mode="fsdp1", strat="FULL_SHARD", ac=1, ws=2)
        add(f"{tag}_full_fs_ws32_ac1", model=m, train="full", mode="fsdp1", strat="FULL_SHARD", ac=1, ws=32)
        add(f"{tag}_lora_plain_ac0", model=m, train="lora", mode="plain", ac=0, ws=1)
    # QLoRA (bitsandbytes NF4, quant_storage bf16 as FSDP needs; kbit_prep where TRL runs
    # prepare_model_for_kbit_training: no sharding).
    q = dict(train="lora", quant="nf4", quant_storage="bf16")
    for m, tag in (("llama-2-7b", "l2-7b"), ("llama-3.1-8b", "l8b"), ("llama-3.2-3b", "l3b"), ("qwen2.5-0.5b", "q05")):
        for ac in (0, 1):
            add(f"qlora_{tag}_fs_ac{ac}", model=m, mode="fsdp1", strat="FULL_SHARD", ac=ac, **q)
        add(f"qlora_{tag}_plain_ac1", model=m, mode="plain", ac=1, ws=1, kbit_prep=1, **q)
    for m, tag in (("llama-2-7b", "l2-7b"), ("llama-3.1-8b", "l8b")):
        for ac in (0, 1):
            add(f"qlora_{tag}_ddp_ac{ac}", model=m, mode="ddp", ac=ac, kbit_prep=1, **q)
        add(f"qlora_{tag}_sgo_ac1", model=m, mode="fsdp1", strat="SHARD_GRAD_OP", ac=1, **q)
        add(f"qlora_{tag}_f2t_ac1", model=m, mode="fsdp2", raf=True, ac=1, **q)
        add(f"qlora_{tag}_f2f_ac1", model=m, mode="fsdp2", raf=False, ac=1, **q)
    add("qlora_l8b_fs_s4096b1_ac1", model="llama-3.1-8b", mode="fsdp1", strat="FULL_SHARD", ac=1, seq=4096, **q)
    add("qlora_l8b_fs_s1024b4_ac1", model="llama-3.1-8b", mode="fsdp1", strat="FULL_SHARD", ac=1, seq=1024, mb=4, **q)
    allt = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
    add("qlora_l8b_all_fs_ac1", model="llama-3.1-8b", mode="fsdp1", strat="FULL_SHARD", ac=1, r=64, targets=allt, **q)
    add("qlora_l8b_all_plain_ac1", model="llama-3.1-8b", mode="plain", ac=1, ws=1, r=64, targets=allt, kbit_prep=1,
        **q)
    add("qlora_l2-7b_fs_ws2_ac1", model="llama-2-7b", mode="fsdp1", strat="FULL_SHARD", ac=1, ws=2, **q)
    add("qlora_l2-7b_fs_ws32_ac1", model="llama-2-7b", mode="fsdp1", strat="FULL_SHARD", ac=1, ws=32, **q)
    # Run 7: configurations unlike the ones above (other architectures, sequence 512/8192, micro-batch 8, world
    # sizes 4/16/64, HYBRID_SHARD, FSDP2 reshard_after_forward=int, offload without checkpointing, other LoRA
    # ranks and targets, gradient accumulation).
    lo, fs, f2 = dict(train="lora"), dict(mode="fsdp1", strat="FULL_SHARD"), dict(mode="fsdp2")
    add("v7_g2_lora_fs_ac1", model="gemma-2-2b", ac=1, **lo, **fs)
    add("v7_g2_lora_ddp_ac0", model="gemma-2-2b", ac=0, mode="ddp", **lo)
    add("v7_g2_full_fs_ac1", model="gemma-2-2b", ac=1, train="full", **fs)
    add("v7_g2_lora_f2t_s4096_ac1", model="gemma-2-2b", ac=1, seq=4096, raf=True, **lo, **f2)
    add("v7_g3_full_f2t_s8192_ac1", model="gemma-3-1b", ac=1, seq=8192, raf=True, train="full", **f2)
    add("v7_g3_lora_ddp_s512b8_ac0", model="gemma-3-1b", ac=0, seq=512, mb=8, mode="ddp", **lo)
    add("v7_g3_lora_fs_ac0", model="gemma-3-1b", ac=0, **lo, **fs)
    add("v7_phi3_lora_qkvo_fs_ac1", model="phi-3-mini", ac=1, targets=["qkv_proj", "o_proj"], **lo, **fs)
    add("v7_phi3_lora_all_ddp_ac0", model="phi-3-mini", ac=0, r=32, mode="ddp",
        targets=["qkv_proj", "o_proj", "gate_up_proj", "down_proj"], **lo)
    add("v7_phi3_full_f2f_ac1", model="phi-3-mini", ac=1, raf=False, train="full", **f2)
    add("v7_m7_lora_fs_ws16_ac1", model="mistral-7b-v0.3", ac=1, ws=16, **lo, **fs)
    add("v7_m7_lora_sgo_s4096_ac1", model="mistral-7b-v0.3", ac=1, seq=4096, mode="fsdp1", strat="SHARD_GRAD_OP",
        **lo)
    add("v7_m7_full_fs_ws64_ac1", model="mistral-7b-v0.3", ac=1, ws=64, train="full", **fs)
    add("v7_m7_lora_fsoff_ac0", model="mistral-7b-v0.3", ac=0, offload=1, **lo, **fs)
    add("v7_q3_lora_ddp_ac0", model="qwen3-1.7b", ac=0, mode="ddp", **lo)
    add("v7_q3_full_fs_b2_ac0", model="qwen3-1.7b", ac=0, mb=2, train="full", **fs)
    add("v7_q3_lora_qv_r8_f2t_ac1", model="qwen3-1.7b", ac=1, r=8, targets=["q_proj", "v_proj"], raf=True, **lo,
        **f2)
    add("v7_o2_lora_fs_ac1", model="olmo-2-7b", ac=1, **lo, **fs)
    add("v7_o2_lora_f2t_s4096_ac1", model="olmo-2-7b", ac=1, seq=4096, raf=True, **lo, **f2)
    add("v7_gpt2l_full_ddp_s1024b8_ac0", model="gpt2-large", ac=0, seq=1024, mb=8, mode="ddp", train="full")
    add("v7_gpt2l_lora_fs_s1024b4_ac0", model="gpt2-large", ac=0, seq=1024, mb=4, targets=["c_attn"], **lo, **fs)
    add("v7_gpt2l_full_fs_s1024b2_ac1", model="gpt2-large", ac=1, seq=1024, mb=2, train="full", **fs)
    add("v7_l1b_full_fs_s8192_ac1", model="llama-3.2-1b", ac=1, seq=8192, train="full", **fs)
    add("v7_l1b_lora_ddp_s8192_ac1", model="llama-3.2-1b", ac=1, seq=8192, mode="ddp", **lo)
    add("v7_l1b_full_f2r2_ac1", model="llama-3.2-1b", ac=1, raf=2, train="full", **f2)
    add("v7_l1b_lora_hsdp_ws16_ac0", model="llama-3.2-1b", ac=0, ws=16, sg=8, mode="fsdp1", strat="HYBRID_SHARD",
        **lo)
    add("v7_l1b_full_ddp_ga2_ac1", model="llama-3.2-1b", ac=1, ga=2, mode="ddp", train="full")
    add("v7_l8b_lora_fs_ws16_s8192_ac1", model="llama-3.1-8b", ac=1, ws=16, seq=8192, **lo, **fs)
    add("v7_q05_full_fs_s512b8_ac0", model="qwen2.5-0.5b", ac=0, seq=512, mb=8, train="full", **fs)
    add("v7_l3b_lora_all_r64_ddp_s512b8_ac1", model="llama-3.2-3b", ac=1, seq=512, mb=8, r=64, mode="ddp",
        targets=["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"], **lo)
    add("v7_q15_full_f2t_ws4_ga2_ac1", model="qwen2.5-1.5b", ac=1, ws=4, ga=2, raf=True, train="full", **f2)
    add("v7_l2-7b_lora_mlp_r128_fs_ac0", model="llama-2-7b", ac=0, r=128,
        targets=["gate_proj", "up_proj", "down_proj"], **lo, **fs)
    add("v7_l8b_lora_f2f_ws4_s1024b2_ac0", model="llama-3.1-8b", ac=0, ws=4, seq=1024, mb=2, raf=False, **lo, **f2)
    add("v7_q3_full_sgo_ws2_ac1", model="qwen3-1.7b", ac=1, ws=2, mode="fsdp1", strat="SHARD_GRAD_OP", train="full")
    # Run 14: DeepSpeed ZeRO (the HF Trainer's example JSONs with their "auto" values; `ds="defaults"` the stage
    # alone), 8 ranks on the fake process group.
    zr = dict(mode="zero")
    for st in (2, 3):
        add(f"z{st}_q05_full_ac1", model="qwen2.5-0.5b", train="full", stage=st, ac=1, **zr)
        add(f"z{st}_l3b_full_ac1", model="llama-3.2-3b", train="full", stage=st, ac=1, **zr)
        add(f"z{st}_l2-7b_lora_ac0", model="llama-2-7b", train="lora", stage=st, ac=0, **zr)
        add(f"z{st}_l2-7b_lora_ac1", model="llama-2-7b", train="lora", stage=st, ac=1, **zr)
        add(f"z{st}_l1b_full_s4096_ac0", model="llama-3.2-1b", train="full", stage=st, ac=0, seq=4096, **zr)
        add(f"z{st}_l3b_full_dsdef_ac1", model="llama-3.2-3b", train="full", stage=st, ac=1, ds="defaults", **zr)
    add("z3_l8b_full_ac1", model="llama-3.1-8b", train="full", stage=3, ac=1, **zr)
    add("z3_l8b_lora_s4096_ac1", model="llama-3.1-8b", train="lora", stage=3, ac=1, seq=4096, **zr)
    add("z1_q15_full_ac1", model="qwen2.5-1.5b", train="full", stage=1, ac=1, **zr)
    add("z2_q15_full_ws2_ac1", model="qwen2.5-1.5b", train="full", stage=2, ac=1, ws=2, **zr)
    add("z3_q15_full_ws32_ac1", model="qwen2.5-1.5b", train="full", stage=3, ac=1, ws=32, **zr)
    add("z2_m7_lora_s4096_ac1", model="mistral-7b-v0.3", train="lora", stage=2, ac=1, seq=4096, **zr)
    # Run 15: ZeRO-3 built inside `deepspeed.zero.Init` (the Trainer's path), LoRA with reentrant checkpointing (what
    # DS014 advises), and CPU offload.
    zi = dict(mode="zero", stage=3, zinit=1)
    add("z3i_q05_full_ac1", model="qwen2.5-0.5b", train="full", ac=1, **zi)
    add("z3i_l3b_full_ac1", model="llama-3.2-3b", train="full", ac=1, **zi)
    add("z3i_l8b_full_ac1", model="llama-3.1-8b", train="full", ac=1, **zi)
    add("z3i_l2-7b_lora_ac0", model="llama-2-7b", train="lora", ac=0, **zi)
    add("z3i_l2-7b_lora_re_ac1", model="llama-2-7b", train="lora", ac=1, reentrant=1, **zi)
    add("z3i_l8b_lora_re_s4096_ac1", model="llama-3.1-8b", train="lora", ac=1, reentrant=1, seq=4096, **zi)
    add("z3_l2-7b_lora_re_ac1", model="llama-2-7b", train="lora", stage=3, ac=1, reentrant=1, **zr)
    add("z2_q15_full_offopt_ac1", model="qwen2.5-1.5b", train="full", stage=2, ac=1, offload="opt", **zr)
    add("z3i_l3b_full_offall_ac1", model="llama-3.2-3b", train="full", ac=1, offload="all", **zi)
    add("z3i_l3b_full_offopt_ac1", model="llama-3.2-3b", train="full", ac=1, offload="opt", **zi)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--only", default="")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--budget", type=float, default=0, help="stop starting configurations after this many seconds")
    ap.add_argument("--names", default="", help="exactly these configurations (comma list)")
    ap.add_argument("--prefix", default="", help="keep configurations whose name starts with one of these (comma list)")
    ap.add_argument("--exclude", default="", help="drop configurations whose name contains one of these (comma list)")
    ap.add_argument("--suffix", default="", help="appended to every recorded name (a re-measurement of a configuration)")
    ap.add_argument("--run", default="", help="a tag recorded as `run` in every record")
    ap.add_argument("--run1-geometry", action="store_true",
                    help="the geometry runs 1 and 3 had: a tied model's head untied (`cfg.untied`) under DDP, FSDP1 "
                         "and without wrapping, tied under FSDP2")
    a = ap.parse_args()
    cs = configs()
    if a.only:
        keep = set(a.only.split(","))
        cs = [c for c in cs if any(k in c["name"] for k in keep)]
    if a.names:
        want = a.names.split(",")
        cs = [c for c in cs if c["name"] in want]
    if a.prefix:
        cs = [c for c in cs if c["name"].startswith(tuple(a.prefix.split(",")))]
    if a.exclude:
        cs = [c for c in cs if not any(k in c["name"] for k in a.exclude.split(","))]
    for c in cs:
        c["name"] += a.suffix
        if a.run1_geometry and tied(c["model"]) and c["mode"] != "fsdp2":
            c["untied"] = 1
    if a.list:
        for c in cs:
            print(c["name"])
        print(len(cs), "configurations")
        return
    ver = versions()
    print(json.dumps(ver), flush=True)
    start = time.time()
    with open(a.out, "a") as f:
        for c in cs:
            if a.budget and time.time() - start > a.budget:
                print("budget reached; not run:", c["name"], flush=True)
                continue
            err = None
            try:
                rec = run_one(c)
            except Exception as e:  # noqa: BLE001 - one failing configuration is recorded, the rest still run
                err = {"name": c["name"], "cfg": c, "error": f"{type(e).__name__}: {e}",
                       "trace": traceback.format_exc()[-2000:]}
            if err:  # outside the handler, so the traceback's frames (and the model) are released
                rec = err
                gc.collect()
                torch.cuda.empty_cache()
            rec["versions"] = ver
            if a.run:
                rec["run"] = a.run
            f.write(json.dumps(rec) + "\n")
            f.flush()
            print(rec["name"], rec.get("peak_GiB"), rec.get("reserved_GiB"), rec.get("steady_GiB"),
                  rec.get("seconds"), rec.get("error", ""), flush=True)


if __name__ == "__main__":
    main()
