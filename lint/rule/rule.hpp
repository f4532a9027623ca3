// The rule interface: a rule reads documents and resolved launches and reports diagnostics.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lint/model/document.hpp"
#include "lint/model/launch.hpp"
#include "lint/rule/diagnostic.hpp"
#include "lint/rule/suppression.hpp"

namespace lint::rule {

class Rule;

/// A rule's identity (one line of rules/rules.def) and its documentation page.
struct RuleInfo {
  std::string_view code;
  std::string_view slug;
  std::string_view area;
  Severity default_severity = Severity::Warning;
  std::string_view doc;  ///< the Markdown page, embedded at build time
  std::unique_ptr<Rule> (*factory)() = nullptr;

  /// The one-sentence summary: the first non-empty line after the doc's `# CODE slug` title.
  [[nodiscard]] std::string summary() const;
};

/// All rules, in code order.
using RuleTable = std::vector<RuleInfo>;

/// Where a rule reports. The driver gives each rule its own context.
class RuleContext {
 public:
  virtual ~RuleContext() = default;
  [[nodiscard]] virtual const RuleInfo& info() const = 0;
  /// True when `code` names a rule (for LL003).
  [[nodiscard]] virtual bool is_known_code(std::string_view code) const = 0;
  /// True when `code` is enabled in this run (for LL004: a suppression of a disabled rule is not "unused").
  [[nodiscard]] virtual bool is_enabled_code(std::string_view code) const = 0;
  virtual void emit(Diagnostic d) = 0;

  /// Reports at `region` of `path` with the rule's default severity unless `severity` is given.
  void report(const std::string& path, const source::Region& region, std::string message,
              std::vector<RelatedLocation> related = {}, std::optional<Severity> severity = std::nullopt,
              std::string setting = {});
  /// Reports like report(), with a fix attached.
  void report_fix(const std::string& path, const source::Region& region, std::string message, Fix fix,
                  std::vector<RelatedLocation> related = {}, std::optional<Severity> severity = std::nullopt,
                  std::string setting = {});
};

/// Base class: every hook does nothing; a rule overrides what it inspects.
class Rule {
 public:
  virtual ~Rule() = default;
  /// Runs once per loaded document (including unreadable ones and those of unknown kind that failed to parse).
  virtual void check_document(const model::Document& /*doc*/, RuleContext& /*ctx*/) const {}
  /// Runs once per launch (each file alone, and each launch bound across files).
  virtual void check_launch(const model::Launch& /*launch*/, RuleContext& /*ctx*/) const {}
  /// Runs once per suppression comment, after every other rule; `s.used` says which of its codes suppressed
  /// a finding.
  virtual void check_suppression(const model::Document& /*doc*/, const Suppression& /*s*/,
                                        RuleContext& /*ctx*/) const {}
};

}  // namespace lint::rule
