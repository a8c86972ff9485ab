//! `toolwire check`: findings for a tool set against a profile or a target. (Being built.)
