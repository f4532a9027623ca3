# FSDP1 with a PEFT (LoRA) model and a wrap policy by decoder-layer class (frozen base and trainable adapters in one
# unit), versus PEFT's fsdp_auto_wrap_policy: what wrapping raises, with use_orig_params False/True and adapters in
# fp32 (PEFT's default autocast) or in the base dtype. World size 2 through the `fake` process group.
import functools, json, os, traceback
import torch
import torch.distributed as dist
from torch.testing._internal.distributed.fake_pg import FakeStore

dist.init_process_group("fake", store=FakeStore(), rank=0, world_size=2)
import peft, transformers
from peft import LoraConfig, get_peft_model
from peft.utils.other import fsdp_auto_wrap_policy
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP, MixedPrecision
from torch.distributed.fsdp.wrap import transformer_auto_wrap_policy
from transformers import LlamaConfig, LlamaForCausalLM
from transformers.models.llama.modeling_llama import LlamaDecoderLayer

out = {"torch": torch.__version__, "peft": peft.__version__, "transformers": transformers.__version__, "cases": []}
for policy in ("layer_class", "peft"):
    for uop in (False, True):
        for adapters in ("fp32", "bf16"):
            r = {"policy": policy, "use_orig_params": uop, "adapters": adapters}
            try:
                cfg = LlamaConfig(hidden_size=64, intermediate_size=128, num_hidden_layers=2, num_attention_heads=4,
                                  num_key_value_heads=4, vocab_size=128)
                model = LlamaForCausalLM(cfg).to(torch.bfloat16)
                model = get_peft_model(model, LoraConfig(r=4, target_modules=["q_proj", "v_proj"]),
                                       autocast_adapter_dtype=(adapters == "fp32"))
                pol = fsdp_auto_wrap_policy(model) if policy == "peft" else functools.partial(
                    transformer_auto_wrap_policy, transformer_layer_cls={LlamaDecoderLayer})
                m = FSDP(model, auto_wrap_policy=pol, use_orig_params=uop, device_id=torch.device("cuda", 0),
                         mixed_precision=MixedPrecision(torch.bfloat16, torch.bfloat16, torch.bfloat16))
                r["wrapped"] = True
                ids = torch.randint(0, 128, (1, 16), device="cuda")
                loss = m(input_ids=ids, labels=ids).loss
                loss.backward()
                r["step"] = "ok"
                r["grad_bytes"] = sum(p.grad.numel() * p.grad.element_size() for p in m.parameters() if p.grad is not None)
            except Exception as e:
                r["raised"] = f"{type(e).__name__}: {str(e)[:400]}"
                r["where"] = [f"{fr.filename.split('site-packages/')[-1]}:{fr.lineno}" for fr in traceback.extract_tb(e.__traceback__)][-3:]
            out["cases"].append(r)
            print(json.dumps(r), flush=True)
open(os.path.join(os.environ.get("OUT", "/tmp"), "peft_mixed_unit_fsdp1.result.json"), "w").write(json.dumps(out, indent=1))
