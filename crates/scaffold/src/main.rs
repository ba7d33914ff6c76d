//! `schedlab-new-policy NAME [--root DIR]`: what `schedlab new-policy` does, from a binary that
//! builds in seconds, so that the tool itself is built once, after the new crate exists:
//! `cargo run -q -p schedlab-scaffold -- my-policy`.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (mut name, mut root) = (None, PathBuf::from("."));
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--root" => match args.next() {
                Some(dir) => root = PathBuf::from(dir),
                None => return usage("--root needs a directory"),
            },
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ if name.is_none() && !arg.starts_with('-') => name = Some(arg),
            _ => return usage(&format!("unexpected argument '{arg}'")),
        }
    }
    let Some(name) = name else { return usage("expected the policy's name") };
    let registered = |name: &str| schedlab_scaffold::registered_in_sources(&root, name);
    match schedlab_scaffold::new_policy(&name, &root, &registered) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

const USAGE: &str = "usage: schedlab-new-policy NAME [--root DIR]\n\nScaffolds crates/policies/NAME under the workspace root DIR (default: the current directory)\nand registers it in the zoo and experiments/quickstart.yaml, as `schedlab new-policy` does.";

fn usage(message: &str) -> ExitCode {
    eprintln!("error: {message}\n\n{USAGE}");
    ExitCode::from(2)
}
