// TT001: the torchtitan parallelism degrees do not multiply to the launch's world size (or a degree is < 1).
#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "rules/support.hpp"

namespace lint::rules {
namespace {

/// One degree of `[parallelism]`: its TOML key, torchtitan's short name and default.
struct Degree {
  std::string_view key;
  std::string_view name;
  std::int64_t fallback;
};

// The five degrees of the product, in torchtitan's order (parallel_dims.py:35-59).
constexpr std::array<Degree, 5> kProduct = {{{"data_parallel_replicate_degree", "dp_replicate", 1},
                                             {"data_parallel_shard_degree", "dp_shard", -1},
                                             {"context_parallel_degree", "cp", 1},
                                             {"tensor_parallel_degree", "tp", 1},
                                             {"pipeline_parallel_degree", "pp", 1}}};
// Also checked for >= 1, though not in the product.
constexpr std::array<Degree, 2> kExpert = {
    {{"expert_parallel_degree", "ep", 1}, {"expert_tensor_parallel_degree", "etp", 1}}};
constexpr std::size_t kDpShard = 1;

/// True when the launch command overrides a `--parallelism.*` option on the command line: the TOML then does
/// not decide the degrees alone (CLI args > TOML, torchtitan/config/manager.py:30-31).
bool command_overrides_parallelism(const model::Launch& l) {
  if (l.command_document == nullptr || !l.command_region.valid()) return false;
  const std::string& text = l.command_document->source->text();
  const std::size_t b = l.command_region.begin_byte;
  const std::size_t e = l.command_region.end_byte;
  if (b >= e || e > text.size()) return false;
  return std::string_view(text).substr(b, e - b).find("parallelism.") != std::string_view::npos;
}

class ParallelDegreesMismatch final : public rule::Rule {
 public:
  void check_launch(const model::Launch& l, rule::RuleContext& ctx) const override {
    const auto world = l.world_size();
    if (!world || *world < 1) return;
    const model::Document* doc = model::query::document_of_kind(l, model::DocKind::TorchtitanConfig);
    if (doc == nullptr || doc->root_map() == nullptr) return;
    if (command_overrides_parallelism(l)) return;
    const parse::Entry* table = doc->root_map()->find_entry("parallelism");
    const parse::Node* par = table != nullptr && table->value.is_map() ? &table->value : nullptr;

    const model::Effective* ws = l.get(model::keys::kWorldSize);
    const model::Setting* ws_site = ws != nullptr ? ws->decided_by : nullptr;
    const std::string world_text = ws_site != nullptr && ws_site->origin == model::Origin::Default
                                       ? "world size " + std::to_string(*world) + " (run_train.sh's default NGPU=8)"
                                       : "world size " + std::to_string(*world) +
                                             (ws_site != nullptr && !ws_site->spelled.empty()
                                                  ? " (`" + ws_site->spelled + "=" + std::to_string(*world) + "`)"
                                                  : std::string());
    auto related = [&] { return related_to(ws_site, "The world size is set here."); };

    // Read the degrees; anything not a plain integer is not statically known.
    std::array<std::int64_t, kProduct.size()> value{};
    std::array<const parse::Node*, kProduct.size()> node{};
    for (std::size_t i = 0; i < kProduct.size(); ++i) {
      value[i] = kProduct[i].fallback;
      const parse::Node* n = par != nullptr ? par->find(kProduct[i].key) : nullptr;
      if (n == nullptr) continue;
      if (n->kind != parse::NodeKind::Int) return;
      value[i] = n->integer;
      node[i] = n;
    }

    // Every degree but dp_shard must be >= 1; dp_shard is -1 or >= 1 (parallel_dims.py:35-44).
    bool invalid = false;
    auto check_positive = [&](const Degree& d, const parse::Node* n, std::int64_t v, bool is_shard) {
      if (n == nullptr || v >= 1 || (is_shard && v == -1)) return;
      invalid = true;
      const std::string assertion =
          is_shard ? "dp_shard must -1 or >=1." : "Parallelism degree should be >= 1, except for dp_shard";
      ctx.report(doc->path(), n->region,
                 "`" + std::string(d.key) + " = " + std::to_string(v) +
                     "` is not a valid degree: torchtitan fails at start-up with \"" + assertion + "\". " +
                     (is_shard ? "Use -1 (the leftover ranks) or a degree >= 1."
                               : "Only data_parallel_shard_degree may be -1; use 1 to disable this parallelism."));
    };
    for (std::size_t i = 0; i < kProduct.size(); ++i) check_positive(kProduct[i], node[i], value[i], i == kDpShard);
    for (const Degree& d : kExpert) {
      const parse::Node* n = par != nullptr ? par->find(d.key) : nullptr;
      if (n != nullptr && n->kind == parse::NodeKind::Int) check_positive(d, n, n->integer, false);
    }
    if (invalid) return;

    // Absurd degrees whose product overflows are left alone rather than reported with wrapped numbers.
    std::int64_t others = 1;
    for (std::size_t i = 0; i < kProduct.size(); ++i) {
      if (i != kDpShard && __builtin_mul_overflow(others, value[i], &others)) return;
    }
    const bool derived = value[kDpShard] == -1;
    const std::int64_t dp_shard = derived ? *world / others : value[kDpShard];
    std::int64_t product = 0;
    if (__builtin_mul_overflow(others, dp_shard, &product)) return;
    if (dp_shard >= 1 && product == *world) return;

    std::string dims = "Invalid parallel dims: ";
    for (std::size_t i = 0; i < kProduct.size(); ++i) {
      if (i > 0) dims += " * ";
      dims += std::string(kProduct[i].name) + "(" + std::to_string(i == kDpShard ? dp_shard : value[i]) + ")";
    }
    dims += " != WORLD_SIZE(" + std::to_string(*world) + ")";

    // Where: an explicit dp_shard, else the first written degree > 1, else the [parallelism] table.
    const parse::Node* at = nullptr;
    if (!derived) at = node[kDpShard];
    for (std::size_t i = 0; at == nullptr && i < kProduct.size(); ++i) {
      if (node[i] != nullptr && value[i] > 1) at = node[i];
    }
    const source::Region region = at != nullptr ? at->region : table != nullptr ? table->key.region : source::Region{};

    std::string message;
    if (derived && dp_shard < 1) {
      message = "The parallelism degrees other than dp_shard multiply to " + std::to_string(others) +
                ", more than the " + world_text + ", so `data_parallel_shard_degree = -1` leaves " +
                std::to_string(dp_shard) + " ranks and torchtitan fails at start-up (`assert dp_shard >= 1`). ";
    } else if (derived) {
      message = "The " + world_text + " is not a multiple of the other parallelism degrees' product " +
                std::to_string(others) + ": `data_parallel_shard_degree = -1` becomes " + std::to_string(*world) +
                " // " + std::to_string(others) + " = " + std::to_string(dp_shard) +
                " and torchtitan fails at start-up with \"" + dims + "\". ";
    } else {
      message = "The parallelism degrees multiply to " + std::to_string(product) + ", not the " + world_text +
                ": torchtitan fails at start-up with \"" + dims + "\". ";
    }
    message +=
        "Make dp_replicate * dp_shard * cp * tp * pp equal the number of GPUs (or set "
        "`data_parallel_shard_degree = -1` with degrees that divide it).";
    ctx.report(doc->path(), region, std::move(message), related());
  }
};

}  // namespace

std::unique_ptr<rule::Rule> make_parallel_degrees_mismatch() {
  return std::make_unique<ParallelDegreesMismatch>();
}

}  // namespace lint::rules
