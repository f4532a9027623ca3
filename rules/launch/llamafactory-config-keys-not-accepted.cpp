// LCH008: `llamafactory-cli chat|webchat|api|export|eval config.yaml` with keys those subcommands' parsers do not
// take (training arguments, or keys of another subcommand): LLaMA-Factory parses the config with
// `parse_dict(..., allow_extra_keys=False)` and raises "Some keys are not used by the HfArgumentParser"
// (LLaMA-Factory src/llamafactory/hparams/parser.py:68-70, :149-154, :369-386).
#include <algorithm>
#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "lint/model/versions.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

// The fields of the argument classes `chat`, `webchat`, `api` and `export` parse (ModelArguments, DataArguments,
// FinetuningArguments, GeneratingArguments and their mixins in src/llamafactory/hparams/{model,data,finetuning,
// generating}_args.py, and `kt_config`), at the LLaMA-Factory commit of docs/sources.md. Sorted.
constexpr std::array<std::string_view, 224> kInferFields = {
    "_kt_adapter_artifact_path",
    "_kt_config_handle",
    "_kt_inference_config",
    "adapter_folder",
    "adapter_name_or_path",
    "add_special_tokens",
    "add_tokens",
    "additional_target",
    "apollo_layerwise",
    "apollo_proj",
    "apollo_proj_type",
    "apollo_rank",
    "apollo_scale",
    "apollo_scale_front",
    "apollo_scale_type",
    "apollo_target",
    "apollo_update_interval",
    "asft_alpha",
    "audio_sampling_rate",
    "badam_mask_mode",
    "badam_mode",
    "badam_start_block",
    "badam_switch_interval",
    "badam_switch_mode",
    "badam_update_ratio",
    "badam_verbose",
    "block_diag_attn",
    "buffer_size",
    "cache_dir",
    "compute_accuracy",
    "compute_dtype",
    "create_new_adapter",
    "crop_to_patches",
    "cutoff_len",
    "data_shared_file_system",
    "dataset",
    "dataset_dir",
    "default_system",
    "device_map",
    "disable_gradient_checkpointing",
    "disable_shuffling",
    "do_sample",
    "double_quantization",
    "dpo_label_smoothing",
    "eaft_alpha",
    "early_stopping_steps",
    "enable_liger_kernel",
    "enable_thinking",
    "eval_dataset",
    "eval_num_beams",
    "eval_on_each_dataset",
    "export_device",
    "export_dir",
    "export_hub_model_id",
    "export_legacy_format",
    "export_quantization_bit",
    "export_quantization_dataset",
    "export_quantization_maxlen",
    "export_quantization_nsamples",
    "export_size",
    "finetuning_type",
    "flash_attn",
    "freeze_extra_modules",
    "freeze_language_model",
    "freeze_multi_modal_projector",
    "freeze_trainable_layers",
    "freeze_trainable_modules",
    "freeze_vision_tower",
    "galore_layerwise",
    "galore_proj_type",
    "galore_rank",
    "galore_scale",
    "galore_target",
    "galore_update_interval",
    "hf_hub_token",
    "hyper_parallel_args",
    "hyper_parallel_cp_size",
    "ignore_pad_token_for_loss",
    "image_do_pan_and_scan",
    "image_max_pixels",
    "image_min_pixels",
    "include_effective_tokens_per_second",
    "infer_backend",
    "infer_dtype",
    "init_special_tokens",
    "interleave_probs",
    "kt_config",
    "kt_cpu_activation",
    "kt_expert_checkpoint_path",
    "kt_lora_expert_intermediate_size",
    "kt_lora_expert_num",
    "kt_non_expert_weight_path",
    "kt_use_lora_experts",
    "kt_weight_path",
    "kto_chosen_weight",
    "kto_rejected_weight",
    "ld_alpha",
    "length_penalty",
    "lora_alpha",
    "lora_dropout",
    "lora_rank",
    "lora_target",
    "loraplus_lr_embedding",
    "loraplus_lr_ratio",
    "low_cpu_mem_usage",
    "mask_history",
    "max_length",
    "max_new_tokens",
    "max_samples",
    "media_dir",
    "megatron_bridge_args",
    "mix_strategy",
    "mixture_of_depths",
    "model_max_length",
    "model_name_or_path",
    "model_revision",
    "module_dropout",
    "moe_aux_loss_coef",
    "ms_hub_token",
    "neat_packing",
    "new_special_tokens_config",
    "num_beams",
    "offload_folder",
    "oft_block_size",
    "oft_rank",
    "oft_target",
    "om_hub_token",
    "overwrite_cache",
    "packing",
    "pissa_convert",
    "pissa_init",
    "pissa_iter",
    "plot_loss",
    "ppo_buffer_size",
    "ppo_epochs",
    "ppo_score_norm",
    "ppo_target",
    "ppo_whiten_rewards",
    "pref_bco_weight",
    "pref_beta",
    "pref_ftx",
    "pref_loss",
    "preprocessing_batch_size",
    "preprocessing_num_workers",
    "preserve_thinking",
    "print_param_status",
    "pure_bf16",
    "quantization_bit",
    "quantization_device_map",
    "quantization_method",
    "quantization_type",
    "ref_model",
    "ref_model_adapters",
    "ref_model_quantization_bit",
    "repetition_penalty",
    "resize_vocab",
    "reward_model",
    "reward_model_adapters",
    "reward_model_quantization_bit",
    "reward_model_type",
    "rope_scaling",
    "sglang_config",
    "sglang_lora_backend",
    "sglang_maxlen",
    "sglang_mem_fraction",
    "sglang_tp_size",
    "shift_attn",
    "simpo_gamma",
    "skip_special_tokens",
    "split_special_tokens",
    "stage",
    "streaming",
    "swanlab_api_key",
    "swanlab_lark_secret",
    "swanlab_lark_webhook_url",
    "swanlab_logdir",
    "swanlab_mode",
    "swanlab_project",
    "swanlab_run_name",
    "swanlab_workspace",
    "temperature",
    "template",
    "tokenized_path",
    "tool_format",
    "top_k",
    "top_p",
    "train_from_scratch",
    "train_on_prompt",
    "trust_remote_code",
    "upcast_layernorm",
    "upcast_lmhead_output",
    "use_adam_mini",
    "use_apollo",
    "use_asft_loss",
    "use_audio_in_video",
    "use_badam",
    "use_dft_loss",
    "use_dora",
    "use_eaft_loss",
    "use_fast_tokenizer",
    "use_galore",
    "use_hyper_parallel",
    "use_kt",
    "use_kv_cache",
    "use_llama_pro",
    "use_mca",
    "use_megatron_bridge",
    "use_muon",
    "use_reentrant_gc",
    "use_rslora",
    "use_swanlab",
    "use_unsloth",
    "use_unsloth_gc",
    "use_v1_kernels",
    "val_size",
    "video_fps",
    "video_max_pixels",
    "video_maxlen",
    "video_min_pixels",
    "vllm_config",
    "vllm_enforce_eager",
    "vllm_gpu_util",
    "vllm_max_lora_rank",
    "vllm_maxlen",
};

// EvaluationArguments (src/llamafactory/hparams/evaluation_args.py), which `eval` parses in addition (it does not
// parse GeneratingArguments; accepting those names here only makes the rule quieter).
constexpr std::array<std::string_view, 8> kEvalFields = {
    "batch_size", "download_mode", "lang", "n_shot", "save_dir", "seed", "task", "task_dir",
};

bool accepted(std::string_view key, bool eval) {
  if (std::binary_search(kInferFields.begin(), kInferFields.end(), key)) return true;
  return eval && std::find(kEvalFields.begin(), kEvalFields.end(), key) != kEvalFields.end();
}

// Training keys LLaMA-Factory renamed: the preference-training options became `pref_*` in v0.8.0 (commit b0d9966,
// "support SimPO", src/llmtuner/hparams/finetuning_args.py); `train` rejects the old names like any unknown key.
struct Renamed {
  std::string_view old_name;
  std::string_view new_name;
};
constexpr std::array<Renamed, 4> kRenamedTrainKeys = {{
    {"dpo_beta", "pref_beta"},
    {"dpo_ftx", "pref_ftx"},
    {"dpo_loss", "pref_loss"},
    {"orpo_beta", "pref_beta (with `pref_loss: orpo`)"},
}};

class LlamafactoryConfigKeysNotAccepted final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (!l.command || l.command->tool != parse::LaunchTool::LlamaFactory || l.command_document == nullptr) return;
    const std::string& sub = l.command->subcommand;
    if (sub.empty()) return;
    if (const auto e = l.command->env.find("ALLOW_EXTRA_ARGS"); e != l.command->env.end()) return;
    const model::Document* cfg = nullptr;
    for (const model::Document* d : l.documents) {
      if (d->kind == model::DocKind::LlamaFactoryConfig) cfg = d;
    }
    if (cfg == nullptr) return;
    const parse::Node* root = cfg->root_map();
    if (root == nullptr) return;
    if (sub == "train") {
      check_renamed_train_keys(l, *cfg, *root, ctx);
      return;
    }
    std::vector<const parse::Entry*> rejected;
    for (const parse::Entry& e : root->entries) {
      if (!accepted(e.key.text, sub == "eval")) rejected.push_back(&e);
    }
    if (rejected.empty()) return;
    std::string names;
    for (std::size_t i = 0; i < rejected.size() && i < 8; ++i) names += (i ? ", `" : "`") + rejected[i]->key.text + "`";
    if (rejected.size() > 8) names += " and " + std::to_string(rejected.size() - 8) + " more";
    ctx.report(
        cfg->path(), rejected.front()->key.region,
        "`llamafactory-cli " + sub + "` does not take " + names + ": its parser reads model, data, finetuning and " +
            (sub == "eval" ? std::string("evaluation") : std::string("generation")) +
            " arguments only and raises \"Some keys are not used by the HfArgumentParser\". " +
            (sub == "eval" ? std::string("Use an evaluation config") : std::string("Use an inference config")) +
            " (model, adapter, template, finetuning type), or `llamafactory-cli train` for a training config.",
        {rule::RelatedLocation{l.command_document->path(), l.command->region, "The config is read by this command."}});
  }

 private:
  /// `llamafactory-cli train` parses its config with the same `allow_extra_keys=False`; keys LLaMA-Factory renamed
  /// are reported when the release in use (the project's pin, else the default) is the one that renamed them or newer.
  static void check_renamed_train_keys(const model::Launch& l, const model::Document& cfg, const parse::Node& root,
                                       rule::RuleContext& ctx) {
    if (!model::target_versions().at_least("llamafactory", model::Version{0, 8, 0})) return;
    for (const parse::Entry& e : root.entries) {
      for (const Renamed& r : kRenamedTrainKeys) {
        if (e.key.text != r.old_name) continue;
        ctx.report(cfg.path(), e.key.region,
                   "LLaMA-Factory 0.8.0 and newer have no `" + std::string(r.old_name) + "`: it was renamed `" +
                       std::string(r.new_name) +
                       "` (commit b0d9966, src/llmtuner/hparams/finetuning_args.py), and `llamafactory-cli train` "
                       "raises \"Some keys are not used by the HfArgumentParser\" for a key no argument class "
                       "defines. Rename it.",
                   {rule::RelatedLocation{l.command_document->path(), l.command->region,
                                          "The config is read by this command."}});
      }
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_llamafactory_config_keys_not_accepted() {
  return std::make_unique<LlamafactoryConfigKeysNotAccepted>();
}

}  // namespace lint::rules
