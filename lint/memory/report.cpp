#include "lint/memory/report.hpp"

#include <cstdio>

#include "lint/memory/estimate.hpp"
#include "lint/memory/shape.hpp"
#include "lint/report/reporter.hpp"

namespace lint::memory {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

std::string gib(double b) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", b / kGiB);
  return buf;
}

/// The other FSDP strategy worth comparing: FULL_SHARD for a launch that keeps parameters gathered and back.
std::optional<std::string> comparison(const TrainingShape& s) {
  if (s.strategy == Strategy::Fsdp1) return s.sharding == "FULL_SHARD" ? "SHARD_GRAD_OP" : "FULL_SHARD";
  if (s.strategy == Strategy::Fsdp2) return s.sharding == "false" ? "true" : "false";
  return std::nullopt;
}

void json_string(std::ostream& out, const std::string& s) {
  out << '"' << report::json_escape(s) << '"';
}

void json_estimate(std::ostream& out, const Estimate& e) {
  out << "{\"available\": true, \"label\": ";
  json_string(out, e.label);
  out << ", \"peak_bytes\": " << static_cast<long long>(e.peak)
      << ", \"peak_bytes_low\": " << static_cast<long long>(e.peak_low)
      << ", \"peak_bytes_high\": " << static_cast<long long>(e.peak_high)
      << ", \"reserved_bytes\": " << static_cast<long long>(e.reserved)
      << ", \"steady_bytes\": " << static_cast<long long>(e.steady) << ", \"peak_phase\": ";
  json_string(out, e.peak_phase);
  out << ", \"params\": " << e.params << ", \"trainable_params\": " << e.trainable << ", \"breakdown\": [";
  for (std::size_t i = 0; i < e.breakdown.size(); ++i) {
    out << (i ? ", " : "") << "{\"name\": ";
    json_string(out, e.breakdown[i].name);
    out << ", \"bytes\": " << static_cast<long long>(e.breakdown[i].bytes) << ", \"detail\": ";
    json_string(out, e.breakdown[i].detail);
    out << "}";
  }
  out << "], \"assumptions\": [";
  for (std::size_t i = 0; i < e.assumptions.size(); ++i) {
    out << (i ? ", " : "");
    json_string(out, e.assumptions[i]);
  }
  out << "], \"unknowns\": [";
  for (std::size_t i = 0; i < e.unknowns.size(); ++i) {
    out << (i ? ", " : "");
    json_string(out, e.unknowns[i]);
  }
  out << "]}";
}

}  // namespace

void write_memory_text(std::ostream& out, const std::vector<const model::Launch*>& launches) {
  for (const model::Launch* l : launches) {
    const TrainingShape& s = read_training_shape(*l);
    out << l->name << ": memory per GPU\n";
    const Estimate e = estimate_launch(s);
    if (!e.available) {
      out << "  no estimate: " << e.unavailable << "\n\n";
      continue;
    }
    char counts[96];
    if (e.trainable < e.params)
      std::snprintf(counts, sizeof counts, "%.1fM of %.2fB parameters trained", static_cast<double>(e.trainable) / 1e6,
                    static_cast<double>(e.params) / 1e9);
    else
      std::snprintf(counts, sizeof counts, "all %.2fB parameters trained", static_cast<double>(e.params) / 1e9);
    out << "  " << e.label << " (" << (s.geometry ? s.geometry->id : std::string{}) << ", " << counts << ")\n";
    if (s.geometry) {
      char units[160];
      std::snprintf(units, sizeof units,
                    "  wrap units: %lld decoder layers of up to %.1fM parameters, root %.1fM (embeddings, head)\n",
                    static_cast<long long>(s.geometry->arch == Arch::T5 ? 2 * s.geometry->layers : s.geometry->layers),
                    static_cast<double>(s.geometry->max_layer_params()) / 1e6,
                    static_cast<double>(s.geometry->root_params()) / 1e6);
      out << units;
    }
    out << "  peak allocated  " << gib(e.peak);
    if (e.peak_high > e.peak_low * 1.001) out << "  (range " << gib(e.peak_low) << " to " << gib(e.peak_high) << ")";
    out << ", at " << e.peak_phase << "\n";
    out << "  peak reserved   " << gib(e.reserved) << "\n";
    out << "  between steps   " << gib(e.steady) << "\n";
    for (const Term& t : e.breakdown) {
      char line[160];
      std::snprintf(line, sizeof line, "    %-22s %9s", t.name.c_str(), gib(t.bytes).c_str());
      out << line << (t.detail.empty() ? "" : "  " + t.detail) << "\n";
    }
    if (auto other = comparison(s)) {
      const Estimate o = estimate_launch(s, other);
      out << "  with " << o.label << ": peak " << gib(o.peak) << " (" << (o.peak < e.peak ? "" : "+")
          << gib(o.peak - e.peak) << ")\n";
    }
    for (const std::string& u : e.unknowns) out << "  unknown: " << u << "\n";
    for (const std::string& a : e.assumptions) out << "  assumed: " << a << "\n";
    out << "\n";
  }
}

void write_memory_json(std::ostream& out, const std::vector<const model::Launch*>& launches) {
  out << "[";
  for (std::size_t i = 0; i < launches.size(); ++i) {
    const model::Launch& l = *launches[i];
    const TrainingShape& s = read_training_shape(l);
    out << (i ? ",\n " : "\n ") << "{\"name\": ";
    json_string(out, l.name);
    out << ", \"model\": ";
    if (s.model_id.known())
      json_string(out, *s.model_id.value);
    else
      out << "null";
    if (s.geometry) {
      const Geometry& g = *s.geometry;
      out << ", \"geometry\": {\"source\": ";
      json_string(out, g.source);
      out << ", \"decoder_layer_class\": ";
      json_string(out, g.decoder_layer_class);
      out << ", \"hidden\": " << g.hidden << ", \"layers\": " << g.layers << ", \"heads\": " << g.heads
          << ", \"kv_heads\": " << g.kv_heads << ", \"intermediate\": " << g.intermediate << ", \"vocab\": " << g.vocab
          << ", \"tied_embeddings\": " << (g.tied ? "true" : "false") << ", \"experts\": " << g.experts
          << ", \"params\": " << g.total_params() << ", \"decoder_layer_params\": " << g.max_layer_params()
          << ", \"root_params\": " << g.root_params() << "}";
    }
    out << ", \"memory\": ";
    const Estimate e = estimate_launch(s);
    if (!e.available) {
      out << "{\"available\": false, \"reason\": ";
      json_string(out, e.unavailable);
      out << "}";
    } else {
      json_estimate(out, e);
    }
    if (auto other = comparison(s); other && e.available) {
      out << ", \"alternatives\": [";
      json_estimate(out, estimate_launch(s, other));
      out << "]";
    }
    out << "}";
  }
  out << "\n]\n";
}

}  // namespace lint::memory
