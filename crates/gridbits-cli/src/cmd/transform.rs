//! `gridbits transform`: the distance transform of a binary image: for every set cell, the
//! distance to the nearest empty cell (city block, chessboard or exact Euclidean), as
//! `scipy.ndimage.distance_transform_cdt` / `distance_transform_edt` compute it.

use super::{too_large_note, DRAW_LIMIT};
use crate::input::CliError;
use crate::labels_out::{check_npy_target, npy_header, to_file, write_grey_png_to};
use crate::output::{check_png_target, png_to_stdout, Chunked};
use crate::progress::{read_input, Progress};
use clap::{Args, ValueEnum};
use gridbits::algo::distance_transform::{
    chamfer_transform, euclidean_distances, euclidean_transform, Neighbourhood, Sampling,
};
use gridbits::BitGrid;
use std::io::Write;

/// How far two cells are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Metric {
    /// |dx| + |dy| (city block; scipy's 'taxicab').
    Taxicab,
    /// max(|dx|, |dy|) (scipy's 'chessboard').
    Chessboard,
    /// sqrt(dx^2 + dy^2), exact.
    Euclidean,
}

/// Options of `gridbits transform`.
#[derive(Args, Debug)]
pub struct TransformArgs {
    /// Input file: a text grid (`.` empty, any other character set) or an image (set
    /// pixels); `-` or nothing for standard input.
    pub file: Option<String>,
    /// The distance: taxicab, chessboard or euclidean.
    #[arg(long, value_enum, default_value = "euclidean")]
    pub metric: Metric,
    /// Print one JSON object: `metric`, `width`, `height`, `largest`, and `distance`: rows of
    /// numbers (integers, or floats for euclidean), 0 at empty cells, `null` everywhere in a
    /// grid without an empty cell.
    #[arg(long)]
    pub json: bool,
    /// Also write the distances as a 16-bit greyscale PNG (`-` for standard output): each
    /// pixel the distance rounded to the nearest whole number, 65535 at most (and where no
    /// empty cell exists).
    #[arg(long, value_name = "OUT.png")]
    pub png: Option<String>,
    /// Also write the distances as a numpy array of shape (height, width), as scipy returns
    /// them: `int32` (-1 where no empty cell exists) for taxicab and chessboard, `float64`
    /// for euclidean.
    #[arg(long, value_name = "OUT.npy")]
    pub npy: Option<String>,
}

/// The distances of one run: whole steps or Euclidean.
enum Distances {
    Steps(Vec<i32>),
    Euclidean(Vec<f64>),
}

impl Distances {
    /// The distance of cell `i` (`None`: no empty cell reaches it).
    fn get(&self, i: usize) -> Option<f64> {
        match self {
            Distances::Steps(d) => (d[i] >= 0).then(|| f64::from(d[i])),
            Distances::Euclidean(d) => Some(d[i]),
        }
    }
}

/// Runs the command, writing its result to `out`.
pub fn run(args: &TransformArgs, out: &mut dyn Write) -> Result<(), CliError> {
    check_png_target(args.png.as_deref(), args.json)?;
    check_npy_target(args.npy.as_deref())?;
    let grid = read_input(args.file.as_deref())?.into_bits(|c| c != b'.')?;
    let (w, h) = grid.size();
    let progress = Progress::for_grid(w, h);
    progress.phase("distance transform");
    let background = !grid.is_full();
    let d = transform(&grid, args.metric)?;
    let n = w * h;
    let largest = if background {
        (0..n).filter_map(|i| d.get(i)).fold(0.0, f64::max)
    } else {
        0.0
    };
    if let Some(path) = &args.npy {
        progress.phase(format!("writing {path}"));
        write_npy(&d, w, h, path)?;
    }
    if let Some(path) = &args.png {
        progress.phase(format!("writing {path}"));
        write_png16(&d, background, w, h, path)?;
        if png_to_stdout(Some(path)) {
            return Ok(());
        }
    }
    let metric = match args.metric {
        Metric::Taxicab => "taxicab",
        Metric::Chessboard => "chessboard",
        Metric::Euclidean => "euclidean",
    };
    if args.json {
        progress.bar("writing JSON", h as u64);
        let mut out = Chunked::new(out);
        out.str(&format!(
            "{{\"metric\":\"{metric}\",\"width\":{w},\"height\":{h},\"largest\":"
        ))?;
        if background {
            write_number(&mut out, &d, largest)?;
        } else {
            out.str("null")?;
        }
        out.str(",\"distance\":[")?;
        for y in 0..h {
            out.str(if y > 0 { ",[" } else { "[" })?;
            for x in 0..w {
                if x > 0 {
                    out.str(",")?;
                }
                match d.get(y * w + x).filter(|_| background) {
                    Some(v) => write_number(&mut out, &d, v)?,
                    None => out.str("null")?,
                }
            }
            out.str("]")?;
            progress.inc(1);
        }
        out.str("]}\n")?;
        return Ok(out.finish()?);
    }
    drop(progress);
    let set = grid.count();
    if !background {
        writeln!(
            out,
            "{metric} distance transform: {set} set cells, no empty cell: no distances"
        )?;
        return Ok(());
    }
    writeln!(
        out,
        "{metric} distance transform: {set} set cells, largest distance {}",
        show(&d, largest)
    )?;
    if w > DRAW_LIMIT || h > DRAW_LIMIT {
        return Ok(out.write_all(too_large_note(true).as_bytes())?);
    }
    let width = show(&d, largest).len();
    for y in 0..h {
        let cells: Vec<String> = (0..w)
            .map(|x| {
                let s = d.get(y * w + x).map_or(".".to_string(), |v| show(&d, v));
                format!("{s:>width$}")
            })
            .collect();
        writeln!(out, "{}", cells.join(" "))?;
    }
    Ok(())
}

/// A distance as text: whole steps as integers, Euclidean with two decimals.
fn show(d: &Distances, v: f64) -> String {
    match d {
        Distances::Steps(_) => format!("{v}"),
        Distances::Euclidean(_) => format!("{v:.2}"),
    }
}

/// A distance in JSON: an integer for steps, the shortest round-trip float otherwise.
fn write_number(out: &mut Chunked<'_>, d: &Distances, v: f64) -> std::io::Result<()> {
    match d {
        Distances::Steps(_) => out.uint(v as u64),
        Distances::Euclidean(_) => out.json_f64(v),
    }
}

/// The distance transform of `grid` under `metric`.
fn transform(grid: &BitGrid, metric: Metric) -> Result<Distances, CliError> {
    let err = |e: gridbits::SizeError| CliError::msg(e.to_string());
    Ok(match metric {
        Metric::Taxicab | Metric::Chessboard => {
            let n = if metric == Metric::Taxicab {
                Neighbourhood::taxicab()
            } else {
                Neighbourhood::chessboard()
            };
            Distances::Steps(
                chamfer_transform(grid, n, false)
                    .map_err(err)?
                    .into_distances(),
            )
        }
        Metric::Euclidean => {
            // The distances alone take the fast path; it declines grids without background
            // (and sides past its limit), which the full transform answers.
            let d = match euclidean_distances(grid).map_err(err)? {
                Some(d) => d,
                None => {
                    let s = Sampling::default();
                    euclidean_transform(grid, s)
                        .and_then(|t| t.distances(s))
                        .map_err(err)?
                }
            };
            Distances::Euclidean(d)
        }
    })
}

/// Writes the distances as a `.npy` array: `<i4` steps or `<f8` Euclidean distances.
fn write_npy(d: &Distances, w: usize, h: usize, path: &str) -> Result<(), CliError> {
    /// The header, then the values' little-endian bytes, a block at a time.
    fn values<T: Copy, const N: usize>(
        out: &mut dyn Write,
        descr: &str,
        (w, h): (usize, usize),
        v: &[T],
        bytes: fn(T) -> [u8; N],
    ) -> std::io::Result<()> {
        out.write_all(&npy_header(descr, w, h))?;
        for chunk in v.chunks(1 << 14) {
            let block: Vec<u8> = chunk.iter().flat_map(|&x| bytes(x)).collect();
            out.write_all(&block)?;
        }
        Ok(())
    }
    to_file(path, |out| match d {
        Distances::Steps(v) => values(out, "<i4", (w, h), v, i32::to_le_bytes),
        Distances::Euclidean(v) => values(out, "<f8", (w, h), v, f64::to_le_bytes),
    })
}

/// Writes the distances as a 16-bit greyscale PNG: the distance rounded, at most 65535 (also
/// where no empty cell exists).
fn write_png16(
    d: &Distances,
    background: bool,
    w: usize,
    h: usize,
    path: &str,
) -> Result<(), CliError> {
    write_grey_png_to(path, w, h, 16, |y, row| {
        for x in 0..w {
            let level = match d.get(y * w + x).filter(|_| background) {
                Some(v) => v.round().min(65535.0) as u16,
                None => u16::MAX,
            };
            row.extend_from_slice(&level.to_be_bytes());
        }
    })
}
