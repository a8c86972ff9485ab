//! `toolwire emulate`: the offline target models served over HTTP. (Being built.)
