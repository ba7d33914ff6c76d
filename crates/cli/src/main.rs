//! The `schedlab` command. [`flags`] parses the command line; each command has its own module
//! and is the only place that prints; errors are printed once, with their chain.

mod bench;
mod data;
mod flags;
mod list;
mod run;
mod simulate;
mod slurm;
mod specs;
mod trace;
mod train;

use clap::Parser;
use flags::{Cli, Command, DataCommand, TraceCommand, TrainWhat};
use std::process::ExitCode;

/// mimalloc in place of the system allocator: the round-based policies allocate and free small
/// vectors at every decision (docs/performance.md measures what it saves). Results do not depend
/// on the allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn dispatch(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Run(args) => run::run(&args.spec, &args.options),
        Command::Reproduce { name, options } => run::reproduce(&name, &options),
        Command::Report(args) => run::report(&args),
        Command::Slurm(args) => slurm::slurm(&args),
        Command::Check { spec } => run::check(&spec),
        Command::Bench(args) => bench::bench(&args),
        Command::List { what, json } => list::list(what, json),
        Command::Simulate(args) => simulate::simulate(&args),
        Command::NewPolicy { name, root } => {
            let registered = |name: &str| schedlab_zoo::find(name).map(|entry| entry.description.to_string());
            schedlab_scaffold::new_policy(&name, &root, &registered)
        }
        Command::Data { command: DataCommand::Fetch { only, dest, sources } } => data::fetch(&only, dest, sources),
        Command::Data { command: DataCommand::Verify { dir } } => data::verify(dir),
        Command::Trace { command: TraceCommand::Stats { format, path, json } } => trace::stats(format, &path, json),
        Command::Trace { command: TraceCommand::Formats } => list::formats(false),
        Command::Trace { command: TraceCommand::Export { spec, seed, point, jobs, out } } => {
            trace::export(&spec, seed, point.as_deref(), jobs, &out)
        }
        Command::Train { what: TrainWhat::Rltune(args) } => train::rltune(&args),
        Command::Train { what: TrainWhat::Dl2(args) } => train::dl2(&args),
    }
}

/// Ends the process quietly when stdout is closed early (`schedlab list policies | head`), as
/// Unix tools do, instead of panicking in `println!`; every other panic keeps the default report.
fn exit_quietly_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}

fn main() -> ExitCode {
    exit_quietly_on_broken_pipe();
    match dispatch(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}
