//! Per-cell reference for the `slide` topic: filled in by its issue.
