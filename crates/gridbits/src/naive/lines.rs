//! Per-cell reference for the `lines` topic: filled in by its issue.
