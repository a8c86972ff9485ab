//! Explaining a provider's rejection: which tool, which property, which rule. (Being built.)
