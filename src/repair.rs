//! Conservative repairs that never change which arguments are accepted. (Being built.)
