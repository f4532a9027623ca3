// Bounds for the "finishes, does not hang" checks of the unit tests. They guard against quadratic blow-ups and
// hangs, not speed (nothing here measures speed): generous, and ten times more under sanitizers.
#pragma once

namespace lint::testing {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr double kTimeFactor = 30.0;
#else
inline constexpr double kTimeFactor = 3.0;
#endif

}  // namespace lint::testing
