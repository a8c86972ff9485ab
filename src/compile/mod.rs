//! Compiling the canonical schema to each target's wire form. (Being built.)
