//! Tool names: per-target rules, a sanitizer and a collision census. (Being built.)
