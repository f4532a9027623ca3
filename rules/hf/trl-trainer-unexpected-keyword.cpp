// HF012: a keyword that the TRL trainer's constructor does not take at the target TRL (1.10): SFTTrainer(...)
// with `dataset_text_field=`, `max_seq_length=`, `packing=` or `tokenizer=`, which moved to SFTConfig (or were
// renamed), and the same for the other TRL trainers. Their __init__ has no **kwargs, so Python raises TypeError.
#include <string>
#include <string_view>

#include "lint/model/versions.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

struct TrlTrainer {
  std::string_view name;
  std::string_view config;
  std::string_view source;  ///< the signature at TRL 1.10.0.dev0 (commit f2cd577)
  std::string_view params;  ///< the constructor's parameters, space-separated
  std::string_view fields;  ///< the fields the config class itself declares (besides TrainingArguments')
};

// Read from huggingface/trl at commit f2cd577 (1.10.0.dev0): each trainer's `def __init__(...)` and the fields its
// config dataclass declares.
constexpr TrlTrainer kTrainers[] = {
    {"SFTTrainer", "SFTConfig", "trl/trainer/sft_trainer.py:901-923",
     "model args data_collator train_dataset eval_dataset processing_class compute_loss_func compute_metrics callbacks "
     "optimizers optimizer_cls_and_kwargs preprocess_logits_for_metrics quantization_config peft_config "
     "formatting_func",
     "learning_rate model_init_kwargs router_aux_loss_coef trust_remote_code chat_template_path dataset_text_field "
     "dataset_kwargs dataset_num_proc eos_token max_length truncation_mode shuffle_dataset packing packing_strategy "
     "padding_free pad_to_multiple_of eval_packing completion_only_loss assistant_only_loss loss_type "
     "activation_offloading pad_token"},
    {"DPOTrainer", "DPOConfig", "trl/trainer/dpo_trainer.py:516-535",
     "model ref_model args data_collator train_dataset eval_dataset processing_class compute_metrics callbacks "
     "optimizers quantization_config peft_config",
     "learning_rate model_init_kwargs trust_remote_code router_aux_loss_coef disable_dropout dataset_num_proc "
     "max_length truncation_mode padding_free pad_to_multiple_of precompute_ref_log_probs precompute_ref_batch_size "
     "loss_type loss_weights ld_alpha f_divergence_type f_alpha_divergence_coef label_smoothing beta use_weighting "
     "discopop_tau activation_offloading sync_ref_model ref_model_mixup_alpha ref_model_sync_steps pad_token"},
    {"GRPOTrainer", "GRPOConfig", "trl/trainer/grpo_trainer.py:303-324",
     "model reward_funcs args train_dataset eval_dataset processing_class reward_processing_classes callbacks "
     "optimizers quantization_config peft_config tools rollout_func environment_factory",
     "learning_rate model_init_kwargs trust_remote_code router_aux_loss_coef disable_dropout cast_lm_head_to_fp32 "
     "remove_unused_columns num_generations num_generations_eval max_completion_length ds3_gather_for_generation "
     "shuffle_dataset pad_to_multiple_of generation_batch_size steps_per_generation temperature top_p top_k min_p "
     "generation_kwargs chat_template_kwargs repetition_penalty cache_implementation use_vllm vllm_mode "
     "vllm_model_impl vllm_enable_sleep_mode vllm_structured_outputs_regex vllm_server_base_url vllm_server_host "
     "vllm_server_port vllm_server_timeout vllm_group_port vllm_gpu_memory_utilization vllm_max_model_length "
     "vllm_tensor_parallel_size beta num_iterations epsilon delta epsilon_high sapo_temperature_neg "
     "sapo_temperature_pos vespo_k_pos vespo_lambda_pos vespo_k_neg vespo_lambda_neg importance_sampling_level "
     "reward_weights multi_objective_aggregation scale_rewards loss_type mask_truncated_completions sync_ref_model "
     "ref_model_mixup_alpha ref_model_sync_steps top_entropy_quantile entropy_coef use_adaptive_entropy "
     "entropy_coef_min entropy_coef_max entropy_coef_delta entropy_target max_tool_calling_iterations "
     "vllm_importance_sampling_correction vllm_importance_sampling_mode vllm_importance_sampling_clip_max "
     "vllm_importance_sampling_clip_min off_policy_mask_threshold use_bias_correction_kl log_completions "
     "log_multimodal num_completions_to_print log_unique_prompts log_completions_hub_repo "
     "use_transformers_continuous_batching transformers_continuous_batching_config use_transformers_paged "
     "vllm_importance_sampling_cap"},
    {"RewardTrainer", "RewardConfig", "trl/trainer/reward_trainer.py:329-349",
     "model args data_collator train_dataset eval_dataset processing_class compute_metrics callbacks optimizers "
     "optimizer_cls_and_kwargs preprocess_logits_for_metrics quantization_config peft_config",
     "learning_rate model_init_kwargs trust_remote_code chat_template_path disable_dropout dataset_num_proc eos_token "
     "max_length pad_to_multiple_of center_rewards_coefficient activation_offloading pad_token"},
    {"KTOTrainer", "KTOConfig", "trl/trainer/kto_trainer.py:568-587",
     "model ref_model args data_collator train_dataset eval_dataset processing_class compute_metrics callbacks "
     "optimizers quantization_config peft_config",
     "learning_rate train_sampling_strategy model_init_kwargs trust_remote_code router_aux_loss_coef disable_dropout "
     "dataset_num_proc max_length pad_to_multiple_of precompute_ref_log_probs precompute_ref_batch_size loss_type beta "
     "desirable_weight undesirable_weight activation_offloading sync_ref_model ref_model_mixup_alpha "
     "ref_model_sync_steps"},
    {"RLOOTrainer", "RLOOConfig", "trl/trainer/rloo_trainer.py:235-253",
     "model reward_funcs args train_dataset eval_dataset processing_class reward_processing_classes callbacks "
     "optimizers quantization_config peft_config",
     "learning_rate model_init_kwargs trust_remote_code router_aux_loss_coef disable_dropout remove_unused_columns "
     "num_generations num_generations_eval max_completion_length ds3_gather_for_generation shuffle_dataset "
     "pad_to_multiple_of generation_batch_size steps_per_generation temperature top_p top_k min_p generation_kwargs "
     "chat_template_kwargs repetition_penalty cache_implementation use_vllm vllm_mode vllm_model_impl "
     "vllm_enable_sleep_mode vllm_structured_outputs_regex vllm_server_base_url vllm_server_host vllm_server_port "
     "vllm_server_timeout vllm_group_port vllm_gpu_memory_utilization vllm_max_model_length vllm_tensor_parallel_size "
     "beta num_iterations epsilon epsilon_high reward_weights normalize_advantages reward_clip_range "
     "mask_truncated_completions sync_ref_model ref_model_mixup_alpha ref_model_sync_steps log_completions "
     "log_multimodal num_completions_to_print log_unique_prompts use_transformers_continuous_batching "
     "transformers_continuous_batching_config use_transformers_paged"},
};

bool has_word(std::string_view list, std::string_view word) {
  std::size_t pos = 0;
  while (pos <= list.size()) {
    std::size_t end = list.find(' ', pos);
    if (end == std::string_view::npos) end = list.size();
    if (list.substr(pos, end - pos) == word) return true;
    pos = end + 1;
  }
  return false;
}

/// What to write instead, when it is known.
std::string advice(const TrlTrainer& t, std::string_view kw) {
  const std::string config(t.config);
  if (kw == "tokenizer") return " Pass the tokenizer as `processing_class=`.";
  if (kw == "max_seq_length" && has_word(t.fields, "max_length"))
    return " Set `max_length` in `" + config + "(...)` and pass it as `args=`.";
  if (has_word(t.fields, kw)) return " It is a field of `" + config + "`: set it there and pass the config as `args=`.";
  return " If it is a training argument, set it in `" + config + "(...)` and pass the config as `args=`.";
}

class TrlTrainerUnexpectedKeyword final : public rule::Rule {
 public:
  void check_document(const model::Document& doc, rule::RuleContext& ctx) const override {
    if (doc.kind != model::DocKind::PythonScript || !doc.python) return;
    const model::PythonFacts& py = *doc.python;
    // Unsloth patches the TRL trainers to take the older keywords (unsloth's trainer patches), so a script that
    // imports it is not judged by TRL's signatures.
    for (const auto& [local, qualified] : py.imports) {
      if (qualified.starts_with("unsloth")) return;
    }
    // The signatures are TRL 1.10's. Older releases took other keywords (DPOTrainer.__init__ takes `tokenizer=` up
    // to 0.11 and `beta=` up to 0.12: trl v0.8.0 trl/trainer/dpo_trainer.py:148,158), so a launch whose project
    // installs an older TRL (`trl==0.8.0`, a range below 1.10) is not judged by them.
    if (!model::target_versions().at_least("trl", model::Version{1, 10, 0})) return;
    for (const model::PyCall& c : py.calls) {
      if (!c.callee.starts_with("trl.")) continue;
      const TrlTrainer* t = nullptr;
      for (const TrlTrainer& k : kTrainers) {
        if (k.name == c.name) t = &k;
      }
      if (t == nullptr) continue;
      for (const model::PyArg& a : c.args) {
        if (a.name.empty() || has_word(t->params, a.name)) continue;
        ctx.report(doc.path(), a.name_region,
                   "`" + std::string(t->name) + "` takes no `" + a.name + "` keyword at TRL 1.10 (" +
                       std::string(t->source) +
                       "; the constructor has no **kwargs): Python raises TypeError: " + std::string(t->name) +
                       ".__init__() got an unexpected keyword argument '" + a.name + "'." + advice(*t, a.name));
      }
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_trl_trainer_unexpected_keyword() {
  return std::make_unique<TrlTrainerUnexpectedKeyword>();
}

}  // namespace lint::rules
