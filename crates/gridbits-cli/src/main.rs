//! The `gridbits` command line: bit-parallel grid algorithms on text grids and images. Run
//! `gridbits --help`; `docs/cli.md` at the repository root is the full reference.

mod cmd;
mod demo;
mod labels_out;
mod output;
mod progress;
mod render;

use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use gridbits_cli::input;
use input::{CliError, ImageOpts};
use std::io::{self, Write};
use std::process::ExitCode;

/// The most threads `--threads` takes. Each is a thread of the OS, started with the pool:
/// a thousand took over a second to start on a 2-core machine before any work, tens of
/// thousands minutes, or failed; a core runs one at a time.
const MAX_THREADS: i64 = 256;

/// Bit-parallel algorithms on 2D grids.
///
/// Input is a text grid (one line per row, top row first, `.` empty) or a PNG, PBM, PGM or PPM
/// image, read from FILE or standard input and recognised by its first bytes. Cells are X,Y:
/// the column from the left and the row from the top, both from 0. Results go to standard
/// output with exit status 0; errors to standard error as `error: ...` with exit status 2
/// (a text grid's errors name the input, line and column: `error: bad.txt: line 2, column 3: ...`,
/// `standard input` for standard input).
#[derive(Parser)]
#[command(
    name = "gridbits",
    version,
    after_help = "Examples:\n  gridbits demo\n  printf '.#.\\n##.\\n' | gridbits show\n  \
                  gridbits show --json --threshold 128 map.png\n  gridbits --threads 1 components --summary scan.png\n\n\
                  Run `gridbits help COMMAND` for a command's options and an example."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Threads for large grids and batches, 1 to 256 (default: one per core, or
    /// RAYON_NUM_THREADS). Results are the same with any number.
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS))]
    threads: Option<u16>,
    /// Largest input grid, in cells (width x height), or `none` for no limit [default:
    /// 268435456 = 16384 x 16384]. Checked from an image's header or a text grid's size
    /// before anything is decoded; a larger input is an error (exit status 2). Commands need
    /// up to about 16 bytes per cell (a label or a distance per cell, the decoded image), so
    /// the default keeps a run within about 4 GiB. Without a limit, a size this machine
    /// cannot allocate is still an error, not a crash.
    #[arg(long, global = true, value_name = "N|none", value_parser = input::parse_max_cells)]
    max_cells: Option<input::CellLimit>,
}

#[derive(Subcommand)]
enum Command {
    /// Parse a grid or image; print its size, number of set cells and the grid.
    #[command(after_help = "Examples:\n  printf '.#.\\n##.\\n' | gridbits show\n  \
                            size: 3x2\n  set: 3\n  .#.\n  ##.\n\n  \
                            gridbits show --json --png copy.png scan.pbm\n  \
                            gridbits show --threshold 100 --invert --png - photo.png > mask.png")]
    Show(cmd::show::ShowArgs),
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
    #[command(
        after_help = "Examples:\n  printf '..#\\n.##\\n#..\\n' | gridbits fill --from 0,0\n  \
                            filled 3 cells (o) from (0, 0), 4-connected\n  oo#\n  o##\n  #..\n\n  \
                            gridbits fill --from 10,20 --connectivity 8 --png filled.png maze.png\n  \
                            gridbits fill --from 10,20 --count --json maze.png"
    )]
    Fill(cmd::fill::FillArgs),
    /// Binary morphology: dilate, erode, open, close or fill holes.
    #[command(
        after_help = "Examples:\n  printf '.....\\n.###.\\n.#.#.\\n.###.\\n.....\\n' | gridbits morph fill-holes\n  \
                            fill-holes by a cross of radius 1: 9 cells set (before: 8)\n  .....\n  .###.\n  .###.\n  .###.\n  .....\n\n  \
                            gridbits morph open --footprint disk --radius 3 --png clean.png scan.png\n  \
                            gridbits morph dilate --footprint rect --size 3x15 --json page.pbm\n  \
                            gridbits morph erode --footprint square --iterations 2 grid.txt"
    )]
    Morph(cmd::morph::MorphArgs),
    /// BFS distance from every source (any character but `#` and `.`, and --from cells).
    #[command(
        after_help = "Examples:\n  printf 'A..\\n.#.\\n...\\n' | gridbits distance\n  \
                            1 sources, 8 cells reached, largest distance 4\n  0 1 2\n  1 # 3\n  \
                            2 3 4\n\n  gridbits distance --moves queen --from 0,0 --json map.png\n  \
                            gridbits distance --from 0,0 --npy dist.npy --png dist.png map.png"
    )]
    Distance(cmd::distance::DistanceArgs),
    /// Distance transform: every set cell's distance to the nearest empty cell.
    #[command(
        after_help = "Examples:\n  printf '###\\n###\\n##.\\n' | gridbits transform --metric taxicab\n  \
                            taxicab distance transform: 8 set cells, largest distance 4\n  4 3 2\n  3 2 1\n  \
                            2 1 0\n\n  gridbits transform --json blobs.png\n  \
                            gridbits transform --metric chessboard --npy dist.npy --png dist.png scan.pbm"
    )]
    Transform(cmd::transform::TransformArgs),
    /// Voronoi territory: each cell goes to the player that reaches it first.
    #[command(
        after_help = "Examples:\n  printf 'A...\\n....\\n...B\\n' | gridbits voronoi\n  \
                            gridbits voronoi --json tron.txt\n  \
                            gridbits voronoi --from 0,0 --from 99,99 --png split.png arena.png"
    )]
    Voronoi(cmd::voronoi::VoronoiArgs),
    /// Cells reachable in one move by any piece.
    #[command(
        after_help = "Examples:\n  printf '....\\n.Q#.\\n....\\n' | gridbits reach --moves rook\n  \
                            reach (rook moves): 3 cells (*)\n  .*..\n  *Q#.\n  .*..\n\n  \
                            gridbits reach --moves bishop --from 3,4 --json board.png"
    )]
    Reach(cmd::reach::ReachArgs),
    /// Skeleton of the set cells (scikit-image's skeletonize), or --thin (scikit-image's thin).
    #[command(
        after_help = "Examples:\n  printf '.....\\n.###.\\n.###.\\n.###.\\n.....\\n' | gridbits skeleton\n  \
                            skeleton (zhang): 2 of 9 set cells kept (#), 7 removed (+)\n  .....\n  .+#+.\n  \
                            .#++.\n  .+++.\n  .....\n\n  \
                            gridbits skeleton --png skeleton.png scan.png\n  \
                            gridbits skeleton --thin --max-iter 5 --json shapes.pbm"
    )]
    Skeleton(cmd::skeleton::SkeletonArgs),
    /// Region properties (area, box, centroid, perimeter, ...) of the connected components.
    #[command(
        after_help = "Examples:\n  printf '##.\\n..#\\n' | gridbits regionprops --connectivity 4\n  \
                            regions: 2 (4-connected)\n  \
                            label area bbox_x0 bbox_y0 bbox_x1 bbox_y1 centroid_x centroid_y\n  \
                            1 2 0 0 2 1 0.5 0.0\n  2 1 2 1 3 2 2.0 1.0\n\n  \
                            gridbits regionprops --csv --properties label,area,perimeter scan.png\n  \
                            gridbits regionprops --json --properties label,euler_number,area_filled cells.pbm"
    )]
    Regionprops(cmd::regionprops::RegionpropsArgs),
    /// Game of the Amazons: queen and king territory of a 10x10 position, its legal moves, perft.
    #[command(after_help = "Examples:\n  gridbits amazons position.txt\n  \
                            gridbits amazons --json position.txt\n  \
                            gridbits amazons --start --perft 2\n  \
                            gridbits amazons --moves --to-move black position.txt\n  \
                            gridbits amazons --start --moves --perft 1 --json")]
    Amazons(cmd::amazons::AmazonsArgs),
    /// Tetris: clear every full row, or list a piece's reachable placements (--moves).
    #[command(
        after_help = "Example:\n  printf '..#.\\n####\\n#.##\\n' | gridbits tetris\n  \
                            gridbits tetris --json board.txt\n  \
                            gridbits tetris --moves T --inputs board.txt\n  \
                            gridbits tetris --moves T --show 3 board.txt"
    )]
    Tetris(cmd::tetris::TetrisArgs),
    /// Puyo: run the chain of a field to the end, or list a pair's placements (--moves).
    #[command(after_help = "Example:\n  gridbits puyo field.txt\n  \
                            printf 'RRRR..\\n' | gridbits puyo    # the bottom row of a Tsu field\n  \
                            gridbits puyo --rules tsu --json field.txt\n  \
                            gridbits puyo --moves RG field.txt    # axis R, child G: 22 placements")]
    Puyo(cmd::puyo::PuyoArgs),
    /// Time the fast implementations against their baselines: runs the benchmark harness,
    /// the `gridbits-bench` program next to this one, with the arguments given.
    ///
    /// The harness is its own program (it links the peer libraries it compares against);
    /// build it with `cargo build --release -p gridbits-bench`, which puts it beside
    /// `gridbits` in `target/release`. Every argument after `bench` goes to it (`--quick`:
    /// a few seconds; `--json`: one object with `results`, a list of `{workload, impl,
    /// ns_per_op}`, and `ratios`, a list of `{workload, fast, baseline, ratio}`;
    /// `--filter TEXT`; `gridbits bench --help` for its own help), and its exit status is
    /// this command's.
    #[command(
        disable_help_flag = true,
        after_help = "Examples:\n  cargo build --release -p gridbits-bench\n  \
                      target/release/gridbits bench --quick\n  \
                      target/release/gridbits bench --quick --json > bench.json\n  \
                      target/release/gridbits bench --filter 1024"
    )]
    Bench {
        /// Arguments for `gridbits-bench` (`--quick`, `--json`, `--filter TEXT`, `--help`).
        #[arg(
            value_name = "ARGS",
            trailing_var_arg = true,
            allow_hyphen_values = true,
            num_args = 0..
        )]
        args: Vec<std::ffi::OsString>,
    },
    /// Print a shell completion script (bash, zsh, fish, elvish or powershell).
    #[command(
        after_help = "Examples:\n  gridbits completions bash > ~/.local/share/bash-completion/completions/gridbits\n  \
                            gridbits completions zsh > ~/.zfunc/_gridbits\n  \
                            gridbits completions fish > ~/.config/fish/completions/gridbits.fish"
    )]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

/// The commands that read images and so take `--threshold` and `--invert`.
const IMAGE_COMMANDS: [&str; 11] = [
    "show",
    "skeleton",
    "regionprops",
    "components",
    "fill",
    "morph",
    "distance",
    "transform",
    "voronoi",
    "reach",
    "tetris",
];

/// The whole command line: the derived commands plus the image options of [`IMAGE_COMMANDS`].
fn cli_command() -> clap::Command {
    let mut cmd = Cli::command();
    for name in IMAGE_COMMANDS {
        cmd = cmd.mut_subcommand(name, ImageOpts::augment_args);
    }
    cmd
}

/// Runs a command, writing its results to `out` as it makes them.
fn run(command: Command, out: &mut dyn Write) -> Result<(), CliError> {
    match command {
        Command::Show(a) => cmd::show::run(&a, out),
        Command::Demo => text(out, &demo::run(render::color_enabled())),
        Command::Components(a) => components(a, out),
        Command::Fill(a) => cmd::fill::run(&a, out),
        Command::Morph(a) => cmd::morph::run(&a, out),
        Command::Distance(a) => cmd::distance::run(&a, out),
        Command::Transform(a) => cmd::transform::run(&a, out),
        Command::Voronoi(a) => cmd::voronoi::run(&a, out),
        Command::Reach(a) => cmd::reach::run(&a, out),
        Command::Skeleton(a) => cmd::skeleton::run(&a, out),
        Command::Regionprops(a) => cmd::regionprops::run(&a, out),
        // The game commands print a small board: their text is made whole, then written.
        Command::Amazons(a) => text(out, &cmd::amazons::run(&a)?),
        Command::Tetris(a) => text(out, &cmd::tetris::run(&a)?),
        Command::Puyo(a) => text(out, &cmd::puyo::run(&a)?),
        // Handled in `main`: its exit status is the harness's.
        Command::Bench { .. } => Ok(()),
        Command::Completions { shell } => {
            let mut buf = Vec::new();
            clap_complete::generate(shell, &mut cli_command(), "gridbits", &mut buf);
            Ok(out.write_all(&buf)?)
        }
    }
}

/// Writes a text result.
fn text(out: &mut dyn Write, text: &str) -> Result<(), CliError> {
    Ok(out.write_all(text.as_bytes())?)
}

/// `components`, whose `--png` target is checked before any work.
fn components(a: cmd::components::ComponentsArgs, out: &mut dyn Write) -> Result<(), CliError> {
    output::check_png_target(a.png.as_deref(), a.json)?;
    cmd::components::run(&a, out)
}

/// The name of the benchmark harness's program.
fn bench_program() -> String {
    format!("gridbits-bench{}", std::env::consts::EXE_SUFFIX)
}

/// `gridbits bench ARGS`: runs `gridbits-bench ARGS` from this program's folder (where cargo
/// builds both), standard input, output and error passed through; its exit status is ours.
/// A harness that is not there, or does not start, is an error (exit status 2) saying how
/// to build it. `--threads N` reaches it through `RAYON_NUM_THREADS`, set in `main`.
fn bench(args: &[std::ffi::OsString]) -> ExitCode {
    let fail = |msg: String| {
        eprintln!("error: {msg}");
        ExitCode::from(2)
    };
    let dir = match std::env::current_exe() {
        Ok(exe) => match exe.parent() {
            Some(dir) => dir.to_path_buf(),
            None => return fail(format!("cannot find the folder of {}", exe.display())),
        },
        Err(e) => return fail(format!("cannot find this program's path: {e}")),
    };
    let path = dir.join(bench_program());
    if !path.is_file() {
        return fail(format!(
            "the benchmark harness is its own program, {}, and it is not in {}; build it \
             with `cargo build --release -p gridbits-bench` and run the `gridbits` of the \
             same folder (target/release/gridbits bench ...)",
            bench_program(),
            dir.display()
        ));
    }
    match std::process::Command::new(&path).args(args).status() {
        // An exit code is 8 bits here: one past 255, or an end by a signal (no code), is
        // reported as 1, a failure.
        Ok(status) => match status.code() {
            Some(code) => ExitCode::from(u8::try_from(code).unwrap_or(1)),
            None => ExitCode::from(1),
        },
        Err(e) => fail(format!("cannot run {}: {e}", path.display())),
    }
}

/// The exit status of a run: a closed standard output (e.g. `| head`) is a clean exit; on an
/// error, output still in the buffer is dropped, not printed.
fn finish(result: Result<(), CliError>, mut out: output::Stdout) -> ExitCode {
    let result = result.and_then(|()| Ok(out.flush()?));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
            let _ = out.into_parts();
            ExitCode::SUCCESS
        }
        Err(e) => {
            let _ = out.into_parts();
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    let mut cmd = cli_command();
    // Help and version go to stdout with status 0; usage errors to stderr with status 2.
    let matches = cmd
        .try_get_matches_from_mut(std::env::args_os())
        .unwrap_or_else(|e| e.exit());
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    if let Some((name, sub)) = matches.subcommand() {
        if IMAGE_COMMANDS.contains(&name) {
            input::set_image_opts(ImageOpts::from_arg_matches(sub).unwrap_or_else(|e| e.exit()));
        }
    }
    if let Some(limit) = cli.max_cells {
        input::set_max_cells(limit);
    }
    if let Some(n) = cli.threads {
        // The library's parallel code runs on rayon's global pool, which reads this once,
        // when it is first used (below); nothing else runs yet.
        std::env::set_var("RAYON_NUM_THREADS", n.to_string());
    }
    if let Some(Command::Bench { args }) = &cli.command {
        return bench(args);
    }
    let mut out = output::stdout();
    let result = match cli.command {
        // Bare `gridbits`: the help, as for `gridbits --help`.
        None => text(&mut out, &cmd.render_help().to_string()),
        Some(command) => run(command, &mut out),
    };
    finish(result, out)
}
