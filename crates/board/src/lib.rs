//! The drawn board of each map.
