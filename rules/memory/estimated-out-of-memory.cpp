// MEM001: the estimated per-GPU peak of the launch is above the GPU memory the project declares
// (`gpu-memory` in launchlint.toml or --gpu-memory). Silent without a declaration, an unknown model, or when
// the low end of the estimate's range fits.
#include <cstdio>
#include <filesystem>

#include "lint/memory/budget.hpp"
#include "lint/memory/estimate.hpp"
#include "rules/support.hpp"

namespace lint::rules {
namespace {

std::string gib(double b) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", b / (1024.0 * 1024.0 * 1024.0));
  return buf;
}

bool defines_launch_alone(const model::Launch& l) {
  if (l.documents.size() != 1) return false;
  const auto k = l.documents.front()->kind;
  return k == model::DocKind::AxolotlConfig || k == model::DocKind::LlamaFactoryConfig ||
         k == model::DocKind::TorchtitanConfig;
}

class EstimatedOutOfMemory final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    if (l.per_file && !defines_launch_alone(l)) return;
    if (l.documents.empty()) return;
    const std::string anchor = l.command_document != nullptr ? l.command_document->path() : l.documents.front()->path();
    const auto budget = memory::declared_gpu_memory(std::filesystem::path(anchor).parent_path().generic_string());
    if (!budget) return;
    const memory::TrainingShape& shape = memory::read_training_shape(l);
    // What is trained decides most of the estimate: without a Trainer, PEFT or tool config saying so, stay silent.
    if (!shape.training.known()) return;
    const memory::Estimate e = memory::estimate_launch(shape);
    if (!e.available || e.peak_low <= *budget) return;

    std::string message =
        "estimated peak " + gib(e.peak) + " per GPU (" + e.label + ") is above the declared GPU memory " + gib(*budget);
    if (e.peak_high > e.peak_low * 1.001) message += " even at the low end of its range (" + gib(e.peak_low) + ")";
    message += ":";
    for (const memory::Term& t : e.breakdown) {
      if (t.name == "allocator_overhead" || t.bytes < 0.05 * e.peak) continue;
      message += " " + t.name + " " + gib(t.bytes) + ",";
    }
    message.back() = '.';
    if (shape.checkpointing.value == false) {
      memory::TrainingShape with_ac = shape;
      with_ac.checkpointing.value = true;
      message += " With activation checkpointing: about " + gib(memory::estimate_launch(with_ac).peak) + ".";
    }
    message += " See `launchlint explain --memory` for the assumptions.";
    if (l.command_document != nullptr && l.command_region.valid()) {
      ctx.report(l.command_document->path(), l.command_region, std::move(message));
    } else if (shape.model_id.known() && !shape.model_id.site.path.empty()) {
      ctx.report(shape.model_id.site.path, shape.model_id.site.region, std::move(message));
    }
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_estimated_out_of_memory() {
  return std::make_unique<EstimatedOutOfMemory>();
}

}  // namespace lint::rules
