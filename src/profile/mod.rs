//! Profiles derived from the matrix, and the rule registry. (Being built.)
