//! The `schedlab` command. Parses flags, then hands over to [`commands`]; prints errors once.

mod commands;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    match commands::run(commands::Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
