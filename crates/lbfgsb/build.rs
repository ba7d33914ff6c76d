//! Compiles L-BFGS-B 3.0 in Stephen Becker's C translation (vendor/, the files the `lbfgsb`
//! crate 0.1.1 compiled, unchanged).

fn main() {
    let sources = ["lbfgsb.c", "linesearch.c", "subalgorithms.c", "print.c", "linpack.c", "miniCBLAS.c", "timer.c"];
    println!("cargo:rerun-if-changed=vendor");
    cc::Build::new()
        .files(sources.iter().map(|file| format!("vendor/{file}")))
        .include("vendor")
        // The translation's own code is not ours to tidy; its warnings would only be noise.
        .warnings(false)
        .compile("schedlab_lbfgsb");
}
