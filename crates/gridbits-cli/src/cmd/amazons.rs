//! `gridbits amazons`: Game of the Amazons territory evaluation.

use crate::input::{read_input, CliError, Input};
use crate::render::side_by_side;
use clap::Args;
use gridbits::games::amazons::{Position, Side, Territory, TerritoryMap};

/// Options of `gridbits amazons`.
#[derive(Args, Debug)]
pub struct AmazonsArgs {
    /// Input file: a 10x10 text position (`W` `B` amazons, `#` or `x` arrows, `.` empty); `-`
    /// or nothing for standard input.
    pub file: Option<String>,
    /// Print one JSON object.
    #[arg(long)]
    pub json: bool,
}

fn counts_json(t: &Territory) -> serde_json::Value {
    serde_json::json!({
        "W": t.white, "B": t.black, "contested": t.contested, "unreachable": t.unreachable,
    })
}

/// One territory picture: amazons and arrows as in the position, `w`/`b` the cells a side
/// owns, `+` contested, `-` unreachable.
fn picture(p: &Position, map: &TerritoryMap, color: bool) -> Vec<String> {
    (0..10)
        .map(|y| {
            let mut line = String::new();
            for x in 0..10 {
                let (c, code) = if map.white.get(x, y) {
                    ('w', "1;37")
                } else if map.black.get(x, y) {
                    ('b', "1;34")
                } else if map.contested.get(x, y) {
                    ('+', "1;33")
                } else if map.unreachable.get(x, y) {
                    ('-', "2")
                } else {
                    (p.char_at(x, y), "")
                };
                if color && !code.is_empty() {
                    line.push_str(&format!("\x1b[{code}m{c}\x1b[0m"));
                } else {
                    line.push(c);
                }
            }
            line
        })
        .collect()
}

fn summary(name: &str, t: &Territory) -> String {
    format!(
        "{name:<6} W {:>2}  B {:>2}  contested {:>2}  unreachable {:>2}\n",
        t.white, t.black, t.contested, t.unreachable
    )
}

fn report(p: &Position, color: bool) -> String {
    let [qmap, kmap] = p.territory_maps();
    let lines: Vec<String> = p.to_text().lines().map(str::to_string).collect();
    let mut out = side_by_side(&[
        ("position".to_string(), 10, lines),
        ("queen".to_string(), 10, picture(p, &qmap, color)),
        ("king".to_string(), 10, picture(p, &kmap, color)),
    ]);
    out.push('\n');
    out.push_str(&summary("queen", &qmap.counts()));
    out.push_str(&summary("king", &kmap.counts()));
    out.push_str(&format!(
        "mobility W {}  B {}\n(w/b: owned, +: contested, -: unreachable)\n",
        p.total_mobility(Side::White),
        p.total_mobility(Side::Black)
    ));
    out
}

/// Runs the command, returning what to print.
pub fn run(args: &AmazonsArgs) -> Result<String, CliError> {
    let grid = match read_input(args.file.as_deref())? {
        Input::Text(g) => g,
        Input::Image(_) => {
            return Err(CliError::msg(
                "amazons needs a 10x10 text position (W B amazons, # or x arrows, . empty)",
            ))
        }
    };
    let p = Position::from_char_grid(&grid)?;
    if args.json {
        let e = p.evaluate();
        let obj = serde_json::json!({
            "queen": counts_json(&e.queen),
            "king": counts_json(&e.king),
            "mobility": {
                "W": p.total_mobility(Side::White),
                "B": p.total_mobility(Side::Black),
            },
        });
        return Ok(format!("{obj}\n"));
    }
    Ok(report(&p, crate::render::color_enabled()))
}

/// This command's section of `gridbits demo`.
pub fn demo(color: bool) -> String {
    let Ok(p) = Position::parse(
        "...B..B...\n.....#....\n..#.......\nB...#....B\n.....#....\n\
         ...#......\nW......#.W\n..........\n....#.....\n...W..W...\n",
    ) else {
        return String::new();
    };
    let mut out = String::from(
        "Game of the Amazons: queen and king territory (min-distance) of a 10x10 position\n\n",
    );
    out.push_str(&report(&p, color));
    out
}
