//! `gridbits-bench`: times the fast implementations of gridbits against their baselines on
//! fixed random workloads. Run `cargo run --release -p gridbits-bench -- --help`.

use clap::Parser;
use std::io::{self, Write};
use std::process::ExitCode;

/// Time the fast implementations against their baselines on fixed random workloads.
#[derive(Parser)]
#[command(
    name = "gridbits-bench",
    version,
    after_help = "Examples:\n  gridbits-bench --quick\n  \
                  gridbits-bench --json --filter 1024 > bench.json\n  \
                  cargo run --release -p gridbits-bench -- --quick\n\n\
                  Peer libraries are timed too when built with `--features peers`."
)]
struct Args {
    /// Short samples: the whole run takes a few seconds.
    #[arg(long)]
    quick: bool,
    /// Print one JSON object with `results`, `ratios` and `peers`.
    #[arg(long)]
    json: bool,
    /// Only run workloads whose name contains this text.
    #[arg(long, value_name = "TEXT")]
    filter: Option<String>,
    /// Threads of the library's own thread pool, 1 to 256 (default: one per core, or
    /// RAYON_NUM_THREADS), as `gridbits --threads N` sets them. Workloads that compare thread
    /// counts build pools of their own.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    if let Some(n) = args.threads {
        // rayon's global pool reads this once, when it is first used (below); nothing else
        // runs yet.
        std::env::set_var("RAYON_NUM_THREADS", n.to_string());
    }
    let mut b = gridbits_bench::Bench::new(args.quick, args.filter.clone());
    gridbits_bench::run(&mut b);
    if b.results.is_empty() {
        if let Some(f) = &args.filter {
            eprintln!("warning: no workload name contains '{f}'");
        }
    }
    let text = if args.json {
        format!("{}\n", b.to_json())
    } else {
        b.to_text()
    };
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        // A closed standard output (`| head`) is a clean exit.
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
