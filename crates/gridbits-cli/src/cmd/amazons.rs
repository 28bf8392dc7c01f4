//! `gridbits amazons`: Game of the Amazons territory evaluation, move listing and perft.

use crate::input::{read_input, CliError, Input};
use crate::render::side_by_side;
use clap::{Args, ValueEnum};
use gridbits::games::amazons::{Position, Side, Territory, TerritoryMap};

/// The side to move, on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum ToMove {
    /// White (`W`) moves.
    White,
    /// Black (`B`) moves.
    Black,
}

impl ToMove {
    fn side(self) -> Side {
        match self {
            ToMove::White => Side::White,
            ToMove::Black => Side::Black,
        }
    }

    fn name(self) -> &'static str {
        match self {
            ToMove::White => "white",
            ToMove::Black => "black",
        }
    }
}

/// Options of `gridbits amazons`.
#[derive(Args, Debug)]
pub struct AmazonsArgs {
    /// Input file: a 10x10 text position (`W` `B` amazons, `#` or `x` arrows, `.` empty); `-`
    /// or nothing for standard input.
    #[arg(conflicts_with = "start")]
    pub file: Option<String>,
    /// Use the standard start position (White a4 d1 g1 j4, Black a7 d10 g10 j7) instead of
    /// reading one.
    #[arg(long)]
    pub start: bool,
    /// The side to move, for `--moves` and `--perft`.
    #[arg(long, value_enum, default_value = "white", value_name = "SIDE")]
    pub to_move: ToMove,
    /// List the legal moves of the side to move, one per line in algebraic notation
    /// (`from-to/arrow`, files a-j from the left, ranks 1-10 from the bottom).
    #[arg(long)]
    pub moves: bool,
    /// Count the move sequences of length N from the position (perft), the side to move first.
    #[arg(long, value_name = "N")]
    pub perft: Option<u32>,
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

/// `--moves` and `--perft`: the moves (algebraic, one a line) and the perft count.
fn moves_and_perft(p: &Position, args: &AmazonsArgs) -> String {
    let side = args.to_move.side();
    let moves: Vec<String> = if args.moves {
        p.moves(side).iter().map(ToString::to_string).collect()
    } else {
        Vec::new()
    };
    let perft = args.perft.map(|n| (n, p.perft(side, n)));
    if args.json {
        let mut obj = serde_json::json!({ "to_move": args.to_move.name() });
        if args.moves {
            obj["count"] = moves.len().into();
            obj["moves"] = moves.into();
        }
        if let Some((depth, nodes)) = perft {
            obj["depth"] = depth.into();
            obj["perft"] = nodes.into();
        }
        return format!("{obj}\n");
    }
    let mut out = String::new();
    for m in &moves {
        out.push_str(m);
        out.push('\n');
    }
    if let Some((depth, nodes)) = perft {
        out.push_str(&format!("perft({depth}) = {nodes}\n"));
    }
    out
}

/// Runs the command, returning what to print.
pub fn run(args: &AmazonsArgs) -> Result<String, CliError> {
    let p = if args.start {
        Position::start()
    } else {
        let grid = match read_input(args.file.as_deref())? {
            Input::Text(g) => g,
            Input::Image(_) => {
                return Err(CliError::msg(
                    "amazons needs a 10x10 text position (W B amazons, # or x arrows, . empty)",
                ))
            }
        };
        Position::from_char_grid(&grid)?
    };
    if args.moves || args.perft.is_some() {
        return Ok(moves_and_perft(&p, args));
    }
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
