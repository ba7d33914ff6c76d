//! Compiles Qhull's reentrant library (vendor/libqhull_r, Qhull 2020.2 as the `qhull-sys` crate
//! 0.4.1 shipped it, less the rbox program) and the plain-array entry point src/delaunay.c.

use std::path::Path;

fn main() {
    let library = Path::new("vendor/libqhull_r");
    let mut sources: Vec<_> = std::fs::read_dir(library)
        .expect("vendor/libqhull_r is part of the crate")
        .map(|entry| entry.expect("a readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "c"))
        .collect();
    // A fixed order, so that the archive is the same on every machine.
    sources.sort();
    println!("cargo:rerun-if-changed=vendor");
    println!("cargo:rerun-if-changed=src/delaunay.c");
    println!("cargo:rerun-if-changed=src/delaunay.h");
    cc::Build::new()
        .files(&sources)
        .file("src/delaunay.c")
        .include(library)
        .include("src")
        // Qhull's own code is not ours to tidy; its warnings would only be noise.
        .warnings(false)
        .compile("schedlab_qhull");
}
