//! The `gridbits` command line. See `gridbits --help` and ../shared/CLI.md.

mod bench;
mod cmd;
mod demo;
mod input;
mod labels_out;
mod render;

use clap::{Args, Parser, Subcommand};
use input::{read_input, write_png, CliError};
use std::io::{self, Write};
use std::process::ExitCode;

/// Bit-parallel algorithms on 2D grids.
///
/// Input is a text grid (one line per row, top row first, `.` empty) read from FILE or
/// standard input, or a `.pbm` / `.png` image chosen by the file's extension. Errors go to
/// standard error as `error: ...` with exit status 2.
#[derive(Parser)]
#[command(
    name = "gridbits",
    version,
    after_help = "Examples:\n  gridbits demo\n  printf '.#.\\n##.\\n' | gridbits show\n  \
                  gridbits show --json map.png\n  gridbits bench --quick\n\n\
                  Run `gridbits help COMMAND` for a command's options and an example."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse a grid or image; print its size, number of set cells and the grid.
    #[command(after_help = "Example:\n  printf '.#.\\n##.\\n' | gridbits show\n  \
                            size: 3x2\n  set: 3\n  .#.\n  ##.\n\n  \
                            gridbits show --json --png copy.png scan.pbm")]
    Show(ShowArgs),
    /// Run the algorithms on built-in boards and draw the results.
    #[command(after_help = "Example:\n  gridbits demo")]
    Demo,
    /// Connected components of the set cells (4- or 8-connected).
    #[command(
        after_help = "Examples:\n  printf '##.\\n..#\\n' | gridbits components\n  \
                            components: 2 (4-connected)\n  sizes: 2 1\n  aa.\n  ..b\n\n  \
                            gridbits components --connectivity 8 --json image.png\n  \
                            gridbits components --by-char --min-size 4 --json field.txt\n  \
                            gridbits components --summary --png labels.png scan.pbm"
    )]
    Components(cmd::components::ComponentsArgs),
    /// Flood fill from one free cell.
    #[command(after_help = "Example:\n  gridbits fill --from 0,0 maze.txt")]
    Fill(cmd::fill::FillArgs),
    /// BFS distance from every source (any character but `#` and `.`).
    #[command(after_help = "Example:\n  gridbits distance --moves 8 map.txt")]
    Distance(cmd::distance::DistanceArgs),
    /// Voronoi territory: each cell goes to the player that reaches it first.
    #[command(after_help = "Example:\n  gridbits voronoi --json tron.txt")]
    Voronoi(cmd::voronoi::VoronoiArgs),
    /// Cells reachable in one move by any piece.
    #[command(after_help = "Example:\n  gridbits reach --moves queen board.txt")]
    Reach(cmd::reach::ReachArgs),
    /// Game of the Amazons: queen and king territory of a 10x10 position.
    #[command(after_help = "Example:\n  gridbits amazons position.txt")]
    Amazons(cmd::amazons::AmazonsArgs),
    /// Tetris: clear every full row.
    #[command(after_help = "Example:\n  gridbits tetris --json board.txt")]
    Tetris(cmd::tetris::TetrisArgs),
    /// Puyo: run the chain of a field to the end.
    #[command(after_help = "Example:\n  gridbits puyo --rules tsu field.txt")]
    Puyo(cmd::puyo::PuyoArgs),
    /// Time the fast implementations against their baselines on seeded workloads.
    #[command(after_help = "Example:\n  gridbits bench --quick\n  \
                            gridbits bench --json --filter 1024 > bench.json")]
    Bench(BenchArgs),
}

#[derive(Args)]
struct ShowArgs {
    /// Input file: text grid, .pbm or .png; `-` or nothing for standard input.
    file: Option<String>,
    /// Print one JSON object: width, height, count and rows.
    #[arg(long)]
    json: bool,
    /// Print the grid even when it is larger than 256 x 256.
    #[arg(long)]
    full: bool,
    /// Also write the grid as a PNG image (set = white).
    #[arg(long, value_name = "OUT")]
    png: Option<String>,
}

#[derive(Args)]
struct BenchArgs {
    /// Short samples: the whole run takes a few seconds.
    #[arg(long)]
    quick: bool,
    /// Print one JSON object with `results` and `ratios`.
    #[arg(long)]
    json: bool,
    /// Only run workloads whose name contains this text.
    #[arg(long, value_name = "TEXT")]
    filter: Option<String>,
}

/// Largest grid `show` prints without `--full`.
const PRINT_LIMIT: usize = 256;

fn show(args: &ShowArgs) -> Result<String, CliError> {
    let grid = read_input(args.file.as_deref())?.into_bits(|c| c != b'.')?;
    if let Some(out) = &args.png {
        write_png(&grid, out)?;
    }
    let (w, h) = (grid.width(), grid.height());
    let printable = args.full || (w <= PRINT_LIMIT && h <= PRINT_LIMIT);
    if args.json {
        let mut obj = serde_json::json!({ "width": w, "height": h, "count": grid.count() });
        if printable {
            obj["rows"] = grid.to_text().lines().collect::<Vec<_>>().into();
        }
        return Ok(format!("{obj}\n"));
    }
    let mut out = format!("size: {w}x{h}\nset: {}\n", grid.count());
    if printable {
        out.push_str(&render::grid(&grid, render::color_enabled()));
    } else {
        out.push_str(&format!(
            "(grid larger than {PRINT_LIMIT}x{PRINT_LIMIT} not printed; use --full or --png OUT)\n"
        ));
    }
    Ok(out)
}

fn run(cli: Cli) -> Result<String, CliError> {
    match cli.command {
        Command::Show(args) => show(&args),
        Command::Demo => Ok(demo::run(render::color_enabled())),
        Command::Components(a) => cmd::components::run(&a),
        Command::Fill(a) => cmd::fill::run(&a),
        Command::Distance(a) => cmd::distance::run(&a),
        Command::Voronoi(a) => cmd::voronoi::run(&a),
        Command::Reach(a) => cmd::reach::run(&a),
        Command::Amazons(a) => cmd::amazons::run(&a),
        Command::Tetris(a) => cmd::tetris::run(&a),
        Command::Puyo(a) => cmd::puyo::run(&a),
        Command::Bench(args) => {
            let mut b = bench::Bench::new(args.quick, args.filter.clone());
            bench::run(&mut b);
            if b.results.is_empty() {
                if let Some(f) = &args.filter {
                    eprintln!("warning: no workload name contains '{f}'");
                }
            }
            Ok(if args.json {
                format!("{}\n", b.to_json())
            } else {
                b.to_text()
            })
        }
    }
}

/// Writes to standard output; a closed pipe (e.g. `| head`) is not an error.
fn emit(text: &str) -> ExitCode {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: cannot write output: {e}");
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // Help and version go to stdout with status 0; usage errors to stderr with status 2.
        Err(e) => e.exit(),
    };
    match run(cli) {
        Ok(text) => emit(&text),
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
