//! `toolwire args`: validating tool-call arguments against the declared schema. (Being built.)
