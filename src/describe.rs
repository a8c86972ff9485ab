//! Descriptions written for tools that came without one. (Being built.)
