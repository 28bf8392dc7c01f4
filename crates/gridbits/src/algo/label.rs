//! Work in progress: filled in by its issue.
