# Loaded by the Python processes of a lib-oracle `dry` case with `claim_torch` (this folder on PYTHONPATH): when
# ORACLE_CLAIM_TORCH is set, accelerate's record of the installed torch version (`accelerate.utils.versions.
# torch_version`, read by every `is_torch_version` check) becomes that version, the one the case's project pins.
# For version gates only (FSDP018: accelerate's "FSDP2 requires PyTorch >= 2.6.0"): the torch that runs is the
# machine's own, so a case that gets past the gate shows nothing about the pinned torch itself.
import os

if os.environ.get("ORACLE_CLAIM_TORCH"):
    from packaging.version import parse

    import accelerate.utils.versions as accelerate_versions

    accelerate_versions.torch_version = parse(os.environ["ORACLE_CLAIM_TORCH"])
