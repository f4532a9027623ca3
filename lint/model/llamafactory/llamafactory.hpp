// LLaMA-Factory: its training YAML (HfArgumentParser fields) and `llamafactory-cli train x.yaml`, which starts
// torchrun with NPROC_PER_NODE processes on each of NNODES nodes.
#pragma once

#include "lint/model/launch.hpp"
#include "lint/model/resolve.hpp"

namespace lint::model::llamafactory {

/// A YAML document is a LLaMA-Factory training config: `model_name_or_path` with `stage` or `finetuning_type`.
bool looks_like_config(const parse::Node& root);

/// `[NPROC_PER_NODE=n] [NNODES=m] llamafactory-cli train x.yaml`.
void resolve_launch(const BoundInputs& in, Launch& l);

}  // namespace lint::model::llamafactory
