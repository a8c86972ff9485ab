//! `reports/RULES.md`: the rule table, generated from the registry and the profiles.
