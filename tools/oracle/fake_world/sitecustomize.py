# Loaded by every Python process the lib oracle starts with this folder on PYTHONPATH (a `dry` case with
# `fake_world`): when ORACLE_FAKE_WORLD is set, the process joins torch's `fake` process group as rank 0 of that many
# ranks before the training script runs, so that DeepSpeed / accelerate find an initialized world of that size.
import os

if os.environ.get("ORACLE_FAKE_WORLD"):
    import torch.distributed as dist
    from torch.testing._internal.distributed.fake_pg import FakeStore

    dist.init_process_group("fake", store=FakeStore(), rank=0, world_size=int(os.environ["ORACLE_FAKE_WORLD"]))
