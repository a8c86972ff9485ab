//! Documented evidence (`doc`) and public reports (`report`) in reports/documented/. (Being built.)
