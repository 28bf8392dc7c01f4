//! `gridbits puyo`: run a Puyo chain to its end, step by step, or list the placements of a
//! pair (`--moves`).

use crate::input::{read_input, CliError, Input};
use clap::{Args, ValueEnum};
use gridbits::games::puyo::{Cell, Field, Pair, Rules, Step, COLUMNS};

/// The rule set named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum RulesArg {
    /// Smash the Code: 6x12, `.` `0`-`5` (`0` skull).
    Stc,
    /// Puyo Puyo Tsu: 6x13 with the ghost row (or 6x12), `.` `R G B Y P` `O` (ojama).
    Tsu,
}

/// Options of `gridbits puyo`.
#[derive(Args, Debug)]
pub struct PuyoArgs {
    /// Input file: a text field, top row first; `-` or nothing for standard input. Fewer rows
    /// than the field's (13 under Tsu, 12 under Smash the Code) are its bottom rows, the rows
    /// above empty.
    pub file: Option<String>,
    /// Rule set; without it, found from the characters (`0`-`5` Smash the Code, letters Tsu;
    /// an empty field is Tsu at 13 rows).
    #[arg(long, value_enum)]
    pub rules: Option<RulesArg>,
    /// Print one JSON object: `chain`, `score`, `steps`, `board` (with `--moves`: `pair`,
    /// `game_over`, `placements`).
    #[arg(long)]
    pub json: bool,
    /// List every placement of the pair PAIR (axis then child, in the field's colour letters:
    /// `RG` under Tsu, `12` under Smash the Code) with the chain and score it fires, instead
    /// of running the field's own chain. Tsu: a pair cannot enter or pass a column whose row
    /// 12 is filled, and nothing moves once the death cell (column 3, row 12) is filled.
    #[arg(long, value_name = "PAIR")]
    pub moves: Option<String>,
}

fn rules_of(r: RulesArg) -> Rules {
    match r {
        RulesArg::Stc => Rules::SmashTheCode,
        RulesArg::Tsu => Rules::Tsu,
    }
}

/// The rule set of a field read without `--rules`: from its characters; a field of only
/// `.` is Tsu (a 6x13 field, as the help says), unless the `--moves` pair's letters are
/// colours of Smash the Code only. A pair of neither rule set on such a field takes the one
/// that has more of its leading characters (`RX`: Tsu), so that the error names the
/// character that is wrong.
fn detect(grid: &gridbits::CharGrid, pair: Option<&str>) -> Rules {
    let blank = (0..grid.height()).all(|y| grid.row(y).iter().all(|&c| c == b'.'));
    if !blank {
        return Rules::detect(grid);
    }
    let Some(p) = pair else {
        return Rules::Tsu;
    };
    let fits = |rules: Rules| {
        if Pair::parse(p, rules).is_ok() {
            return usize::MAX;
        }
        p.chars()
            .take_while(|&c| c.is_ascii() && rules.color_chars().contains(&(c as u8)))
            .count()
    };
    if fits(Rules::SmashTheCode) > fits(Rules::Tsu) {
        Rules::SmashTheCode
    } else {
        Rules::Tsu
    }
}

/// Runs the command, returning what to print.
pub fn run(args: &PuyoArgs) -> Result<String, CliError> {
    let field = match read_input(args.file.as_deref())? {
        Input::Text(t) => {
            let rules = args
                .rules
                .map_or_else(|| detect(&t, args.moves.as_deref()), rules_of);
            Field::from_char_grid_bottom(&t, rules)?
        }
        Input::Image(_) => {
            return Err(CliError::msg(
                "puyo reads a text field (characters name the colours), not an image",
            ))
        }
    };
    if let Some(pair) = &args.moves {
        return moves(&field, pair, args.json);
    }
    let chain = field.simulate();
    if args.json {
        let steps: Vec<_> = chain
            .steps()
            .iter()
            .map(|s| {
                serde_json::json!({
                    "cleared": s.cleared, "groups": s.groups, "score": s.score,
                    "garbage": s.garbage, "colors": s.colors,
                })
            })
            .collect();
        let obj = serde_json::json!({
            "rules": rules_name(field.rules()),
            "chain": chain.chain,
            "score": chain.score,
            "steps": steps,
            "board": chain.field.to_text().lines().collect::<Vec<_>>(),
        });
        return Ok(format!("{obj}\n"));
    }
    Ok(step_by_step(field, crate::render::color_enabled()))
}

fn rules_name(rules: Rules) -> &'static str {
    match rules {
        Rules::SmashTheCode => "stc",
        Rules::Tsu => "tsu",
    }
}

/// `--moves PAIR`: every placement of the pair, with its chain and score.
fn moves(field: &Field, pair_text: &str, json: bool) -> Result<String, CliError> {
    let rules = field.rules();
    let pair = Pair::parse(pair_text, rules)
        .map_err(|e| CliError::msg(format!("--moves {pair_text:?}: {e}")))?;
    let placements = field.placements(pair);
    let game_over = field.is_game_over();
    if json {
        let list: Vec<_> = placements
            .iter()
            .map(|p| {
                serde_json::json!({
                    "column": p.column,
                    "rotation": p.rotation,
                    "child": p.mv().describe_rotation().trim_start_matches("child "),
                    "chain": p.chain.chain,
                    "score": p.chain.score,
                    "field": p.field_after.to_text().lines().collect::<Vec<_>>(),
                    "board": p.chain.field.to_text().lines().collect::<Vec<_>>(),
                    "game_over": p.chain.field.is_game_over(),
                })
            })
            .collect();
        let obj = serde_json::json!({
            "rules": rules_name(rules),
            "pair": pair.to_text(rules),
            "game_over": game_over,
            "placements": list,
        });
        return Ok(format!("{obj}\n"));
    }
    let mut out = format!(
        "placements of {} (axis {}, child {}) on the {} field: {}\n",
        pair.to_text(rules),
        &pair.to_text(rules)[..1],
        &pair.to_text(rules)[1..],
        rules_name(rules),
        placements.len()
    );
    if game_over {
        out.push_str(match rules {
            Rules::Tsu => "game over: the death cell (column 3, row 12: x 2, y 1) is filled\n",
            Rules::SmashTheCode => "game over: no pair fits in the 12 rows\n",
        });
        return Ok(out);
    }
    out.push_str("column  rotation       chain  score\n");
    for p in &placements {
        let mut line = format!(
            "{:<6}  {:<13}  {:>5}  {}",
            p.column,
            format!("{} {}", p.rotation, p.mv().describe_rotation()),
            p.chain.chain,
            p.chain.score
        );
        if p.chain.field.is_game_over() {
            line.push_str("  (game over)");
        }
        out.push_str(&line);
        out.push('\n');
    }
    Ok(out)
}

/// The chain as text: the field, then each step's numbers and the field after it.
fn step_by_step(mut field: Field, color: bool) -> String {
    let mut out = String::from("field\n");
    out.push_str(&draw(&field, color));
    let mut n = 0;
    let mut total = 0u64;
    while let Some(s) = field.step(n + 1) {
        n += 1;
        total += u64::from(s.score);
        out.push_str(&format!("\n{}\n", describe(n, &s)));
        out.push_str(&draw(&field, color));
    }
    out.push_str(&format!("\nchain: {n}\nscore: {total}\n"));
    out
}

fn describe(n: u32, s: &Step) -> String {
    let plural = |k: u32, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
    let mut line = format!(
        "step {n}: cleared {} in {} of {}",
        s.cleared,
        plural(s.groups, "group", "groups"),
        plural(s.colors, "colour", "colours"),
    );
    if s.garbage > 0 {
        line.push_str(&format!(", {} garbage", s.garbage));
    }
    line.push_str(&format!(", score {}", s.score));
    line
}

/// The field as text, coloured when `color`.
fn draw(field: &Field, color: bool) -> String {
    let mut out = String::new();
    for y in 0..field.rows() {
        for x in 0..COLUMNS {
            let ch = field.char_at(x, y) as char;
            match (field.get(x, y), color) {
                (Cell::Color(c), true) => {
                    const CODES: [u8; 5] = [31, 32, 34, 33, 35];
                    out.push_str(&format!("\x1b[1;{}m{ch}\x1b[0m", CODES[c as usize]));
                }
                _ => out.push(ch),
            }
        }
        out.push('\n');
    }
    out
}

/// This command's section of `gridbits demo`: the 19-chain benchmark field under Tsu rules.
pub fn demo(color: bool) -> String {
    const CHAIN19: &str = ".G.BRG\nGBRRYR\nRRYYBY\nRGYRBR\nYGYRBY\nYGBGYR\nGRBGYR\n\
                           BRBYBY\nRYYBYY\nBRBYBR\nBGBYRR\nYGBGBG\nRBGBGG\n";
    let field = Field::parse(CHAIN19, Rules::Tsu).unwrap_or_else(|e| panic!("{e}"));
    let chain = field.simulate();
    let before: Vec<String> = draw(&field, color).lines().map(String::from).collect();
    let after: Vec<String> = draw(&chain.field, color)
        .lines()
        .map(String::from)
        .collect();
    let mut out = format!(
        "puyo: the Puyo Puyo Tsu 19-chain benchmark field, simulated with one bit plane per \
         colour\n{}-chain, score {}; steps cleared {:?}\n\n",
        chain.chain,
        chain.score,
        chain.steps().iter().map(|s| s.cleared).collect::<Vec<_>>()
    );
    out.push_str(&crate::render::side_by_side(&[
        ("field".into(), 6, before),
        ("after".into(), 6, after),
    ]));
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn demo_runs_the_19_chain() {
        let d = super::demo(false);
        assert!(d.contains("19-chain, score 175080"), "{d}");
    }
}
