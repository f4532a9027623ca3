// Moved: accelerate's schema lives in lint/model/accelerate/schema.hpp.
#pragma once

#include "lint/model/accelerate/schema.hpp"
