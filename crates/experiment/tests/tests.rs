//! Integration tests of the experiment crate.
