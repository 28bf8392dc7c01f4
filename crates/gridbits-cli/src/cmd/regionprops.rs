//! `gridbits regionprops`: labels the set cells and prints one row of properties per region
//! (the properties of `skimage.measure.regionprops_table`, in the command line's `(x, y)`
//! coordinates).

use super::parse_connectivity;
use crate::input::{CliError, Input};
use crate::progress::read_input;
use clap::Args;
use gridbits::algo::label::label;
use gridbits::algo::measure::{euler_numbers, filled_areas, perimeters, regions, Region};
use gridbits::{BitGrid, Connectivity};
use std::fmt::Write as _;
use std::io::Write;

/// The properties the command prints, in the order of `--properties`' help.
const PROPERTIES: [&str; 9] = [
    "label",
    "area",
    "bbox",
    "centroid",
    "area_bbox",
    "extent",
    "perimeter",
    "euler_number",
    "area_filled",
];

/// Options of `gridbits regionprops`.
#[derive(Args, Debug)]
pub struct RegionpropsArgs {
    /// Input file: text grid (`.` empty, anything else set) or image (set pixels); `-` or
    /// nothing for standard input.
    pub file: Option<String>,
    /// Which neighbours join a region: 4 or 8 (skimage's default, connectivity 2).
    #[arg(long, value_name = "4|8", default_value = "8", value_parser = parse_connectivity)]
    pub connectivity: Connectivity,
    /// Print one JSON object: `width`, `height`, `count` and `regions`, a list of objects
    /// with one key per property (`bbox` as `[x0, y0, x1, y1]`, ends exclusive; `centroid`
    /// as `[x, y]`).
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print CSV: a header line, then one line per region (`bbox` as the columns `bbox_x0`,
    /// `bbox_y0`, `bbox_x1`, `bbox_y1`; `centroid` as `centroid_x`, `centroid_y`).
    #[arg(long)]
    pub csv: bool,
    /// Comma-separated properties, in output order: label, area, bbox, centroid, area_bbox,
    /// extent, perimeter (skimage's estimate), euler_number (8-connected, as skimage),
    /// area_filled. A name given twice is listed once, at its first place.
    #[arg(long, value_name = "A,B,...", default_value = "label,area,bbox,centroid", value_parser = parse_properties)]
    pub properties: Properties,
}

/// The chosen properties, as indices into [`PROPERTIES`].
#[derive(Clone, Debug)]
pub struct Properties(Vec<usize>);

/// Parses `--properties`. A repeated name is kept once, at its first place: each property is
/// one JSON key and one set of CSV columns, as skimage's `regionprops_table` returns a dict
/// (duplicate keys would make JSON that parsers read differently).
fn parse_properties(s: &str) -> Result<Properties, String> {
    let mut out = Vec::new();
    for name in s.split(',').map(str::trim) {
        let i = PROPERTIES.iter().position(|p| *p == name).ok_or_else(|| {
            format!(
                "unknown property '{name}' (expected some of: {})",
                PROPERTIES.join(", ")
            )
        })?;
        if !out.contains(&i) {
            out.push(i);
        }
    }
    Ok(Properties(out))
}

/// The values of one property for one region: numbers, named for CSV.
fn values(
    prop: &str,
    label: usize,
    r: &Region,
    perimeter: &[f64],
    euler: &[i64],
    filled: &[u64],
) -> Vec<(String, Value)> {
    let one = |v: Value| vec![(prop.to_string(), v)];
    let box_area = ((r.x1 - r.x0) * (r.y1 - r.y0)) as u64;
    match prop {
        "label" => one(Value::Int(label as i64)),
        "area" => one(Value::Int(r.area as i64)),
        "bbox" => ["x0", "y0", "x1", "y1"]
            .iter()
            .zip([r.x0, r.y0, r.x1, r.y1])
            .map(|(k, v)| (format!("bbox_{k}"), Value::Int(v as i64)))
            .collect(),
        "centroid" => {
            let (x, y) = r.centroid();
            vec![
                ("centroid_x".into(), Value::Float(x)),
                ("centroid_y".into(), Value::Float(y)),
            ]
        }
        "area_bbox" => one(Value::Int(box_area as i64)),
        "extent" => one(Value::Float(r.area as f64 / box_area as f64)),
        "perimeter" => one(Value::Float(perimeter[label - 1])),
        "euler_number" => one(Value::Int(euler[label - 1])),
        _ => one(Value::Int(filled[label - 1] as i64)),
    }
}

/// One property of one region: its name and its columns (name, value).
type Columns<'a> = (&'a str, Vec<(String, Value)>);

/// A number of the output.
#[derive(Clone, Copy, Debug)]
enum Value {
    Int(i64),
    Float(f64),
}

impl Value {
    fn text(self) -> String {
        match self {
            Value::Int(v) => v.to_string(),
            Value::Float(v) => serde_json::to_string(&v).unwrap_or_else(|_| "null".into()),
        }
    }
}

/// Runs the command.
pub fn run(args: &RegionpropsArgs, out: &mut dyn Write) -> Result<(), CliError> {
    let grid = match read_input(args.file.as_deref())? {
        Input::Text(t) => {
            BitGrid::from_char_grid(&t, |c| c != b'.').map_err(|e| CliError::msg(e.to_string()))?
        }
        Input::Image(g) => g,
    };
    let (w, h) = (grid.width(), grid.height());
    let err = |e: &dyn std::fmt::Display| CliError::msg(e.to_string());
    let labels = label(&grid, args.connectivity).map_err(|e| err(&e))?;
    drop(grid);
    let cells = labels.as_slice();
    let wants = |p: &str| args.properties.0.iter().any(|&i| PROPERTIES[i] == p);
    let regs = regions(cells, w, h, false).map_err(|e| err(&e))?;
    let perimeter: Vec<f64> = if wants("perimeter") {
        perimeters(cells, w, h)
            .map_err(|e| err(&e))?
            .iter()
            .map(|p| p.perimeter())
            .collect()
    } else {
        Vec::new()
    };
    let euler = if wants("euler_number") {
        euler_numbers(cells, w, h, Connectivity::Eight).map_err(|e| err(&e))?
    } else {
        Vec::new()
    };
    let filled = if wants("area_filled") {
        filled_areas(cells, w, h, &regs).map_err(|e| err(&e))?
    } else {
        Vec::new()
    };
    // Per region, per property: its columns.
    let rows: Vec<Vec<Columns>> = regs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let props = args.properties.0.iter().map(|&p| PROPERTIES[p]);
            props
                .map(|p| (p, values(p, i + 1, r, &perimeter, &euler, &filled)))
                .collect()
        })
        .collect();
    let mut s = String::new();
    if args.json {
        let _ = write!(
            s,
            "{{\"width\":{w},\"height\":{h},\"count\":{},\"regions\":[",
            rows.len()
        );
        for (i, row) in rows.iter().enumerate() {
            s.push_str(if i == 0 { "{" } else { ",{" });
            for (j, (name, cols)) in row.iter().enumerate() {
                let _ = write!(s, "{}\"{name}\":", if j == 0 { "" } else { "," });
                if let [(_, v)] = cols.as_slice() {
                    s.push_str(&v.text());
                } else {
                    let list: Vec<String> = cols.iter().map(|(_, v)| v.text()).collect();
                    let _ = write!(s, "[{}]", list.join(","));
                }
            }
            s.push('}');
        }
        s.push_str("]}\n");
    } else {
        let header: Vec<String> = args
            .properties
            .0
            .iter()
            .flat_map(|&p| values(PROPERTIES[p], 1, &Region::default(), &[0.0], &[0], &[0]))
            .map(|(k, _)| k)
            .collect();
        let sep = if args.csv { "," } else { " " };
        if !args.csv {
            let _ = writeln!(
                s,
                "regions: {} ({}-connected)",
                rows.len(),
                args.connectivity
            );
        }
        let _ = writeln!(s, "{}", header.join(sep));
        for row in &rows {
            let line: Vec<String> = row
                .iter()
                .flat_map(|(_, cols)| cols.iter().map(|(_, v)| v.text()))
                .collect();
            let _ = writeln!(s, "{}", line.join(sep));
        }
    }
    Ok(out.write_all(s.as_bytes())?)
}
