//! `gridbits puyo`: run a Puyo chain to its end, step by step.

use crate::input::{read_input, CliError, Input};
use clap::{Args, ValueEnum};
use gridbits::games::puyo::{Cell, Field, Rules, Step, COLUMNS};

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
    /// Input file: a text field, top row first; `-` or nothing for standard input.
    pub file: Option<String>,
    /// Rule set; without it, found from the characters (`0`-`5` Smash the Code, letters Tsu;
    /// an empty field is Tsu at 13 rows).
    #[arg(long, value_enum)]
    pub rules: Option<RulesArg>,
    /// Print one JSON object: `chain`, `score`, `steps`, `board`.
    #[arg(long)]
    pub json: bool,
}

fn rules_of(r: RulesArg) -> Rules {
    match r {
        RulesArg::Stc => Rules::SmashTheCode,
        RulesArg::Tsu => Rules::Tsu,
    }
}

/// Runs the command, returning what to print.
pub fn run(args: &PuyoArgs) -> Result<String, CliError> {
    let field = match read_input(args.file.as_deref())? {
        Input::Text(t) => {
            let rules = args.rules.map_or_else(|| Rules::detect(&t), rules_of);
            Field::from_char_grid(&t, rules)?
        }
        Input::Image(_) => {
            return Err(CliError::msg(
                "puyo reads a text field (characters name the colours), not an image",
            ))
        }
    };
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
            "rules": match field.rules() { Rules::SmashTheCode => "stc", Rules::Tsu => "tsu" },
            "chain": chain.chain,
            "score": chain.score,
            "steps": steps,
            "board": chain.field.to_text().lines().collect::<Vec<_>>(),
        });
        return Ok(format!("{obj}\n"));
    }
    Ok(step_by_step(field, crate::render::color_enabled()))
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
