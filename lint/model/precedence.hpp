// Precedence: which assignment of a setting wins in a launch. Each launcher declares a rank table over the typed
// source kinds (SourceKind); decisions read only those kinds, never a message or note string.
//
// The tables follow the libraries' code (accelerate 1.15, transformers 5.17, torch 2.11; see precedence.cpp):
// a torch-level call decides for the model it wraps, a FullyShardedDataParallelPlugin field set in the script
// beats what the Trainer builds, which beats the launcher's flags, which beat the config file, which beats what
// the launcher exports by default, which beats the inherited environment, which beats the library's defaults.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "lint/model/document.hpp"
#include "lint/model/launch.hpp"
#include "lint/model/setting.hpp"

namespace lint::model {

/// One launcher's precedence: a rank per source kind (higher wins; ties go to the later assignment), and the kinds
/// that never decide a value on their own (kept only so that rules can report them as overridden).
struct RankTable {
  std::string_view launcher;  ///< for documentation and tests
  std::array<int, kSourceKindCount> rank{};
  std::array<bool, kSourceKindCount> never_decides{};
  /// Why such a kind loses when nothing else decides: the effective value is then unknown, with this reason.
  std::string_view undecided_reason;

  [[nodiscard]] int of(SourceKind k) const { return rank[static_cast<std::size_t>(k)]; }
};

/// The rank table of a launcher (Launcher::Unknown: a file linted alone).
const RankTable& rank_table(Launcher launcher);

/// The rank of one assignment under a launcher.
int rank_of(const Setting& s, Launcher launcher);

/// Decides `key` in `l` with the rank table of `l.launcher`: every assignment ranked (winner first), `fallback` (a
/// default) inserted when nothing outranks it, unknown (with `reason`) when nothing assigns the key.
void decide(Launch& l, std::string_view key, std::optional<Setting> fallback = std::nullopt, std::string reason = {});

// --- building assignments (used by the per-tool collectors) ----------------------------------------------------

/// An assignment written in `doc` at `region`. The source kind follows from `origin` unless given.
Setting make_setting(std::string_view key, Value value, const Value& written, const Document& doc,
                     source::Region region, Origin origin, std::string spelled,
                     SourceKind source = SourceKind::Unspecified);

/// A call's own default for a keyword the call leaves out (Setting::call_default), placed at the call `call_name`
/// (`region`: its callee) and spelled `DPOConfig(...) default`.
Setting call_default_setting(std::string_view key, Value value, const Document& doc, source::Region region,
                             Origin origin, const std::string& call_name);

/// A default (no place in a file). `note` says whose default it is (presentation only).
Setting default_setting(std::string_view key, Value value, SourceKind source, std::string note);

}  // namespace lint::model
