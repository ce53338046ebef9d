//! Test-only crate: see `tests/`. It never embeds or ships reference data.
