//! `BEGIN Game_Summary` … `END Game_Summary`: every field shogi-server and the CSA 1.2.1 spec
//! define, including the time blocks (`BEGIN Time`, or per side `BEGIN Time+` / `BEGIN Time-`
//! directly under the summary), and the position with moves already played.

use crate::error::ParseError;
use crate::position_block::{PositionBlock, parse_position_block};
use hayate_core::Color;
use std::time::Duration;

/// One side's time control, in real durations (the summary's `Time_Unit` already applied).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// The unit the numbers were given in (`1sec`, `1msec`, `1min`, `<n>sec`…).
    pub unit: Duration,
    /// Main time (`Total_Time`).
    pub total: Duration,
    /// Byoyomi per move once the main time is spent.
    pub byoyomi: Duration,
    /// Fischer increment per move (`Increment`).
    pub increment: Duration,
    /// Delay before the clock starts each move (`Delay`; shogi-server never sends it).
    pub delay: Duration,
    /// Least time charged per move (`Least_Time_Per_Move`, 0 or 1 in practice).
    pub least_per_move: Duration,
    /// Whether elapsed time is rounded up rather than down (`Time_Roundup:YES`).
    pub roundup: bool,
}

impl Default for TimeControl {
    fn default() -> TimeControl {
        TimeControl {
            unit: Duration::from_secs(1),
            total: Duration::ZERO,
            byoyomi: Duration::ZERO,
            increment: Duration::ZERO,
            delay: Duration::ZERO,
            least_per_move: Duration::ZERO,
            roundup: false,
        }
    }
}

/// A parsed Game_Summary.
#[derive(Clone, Debug)]
pub struct GameSummary {
    /// `Protocol_Version` (shogi-server sends `1.2`).
    pub protocol_version: Option<String>,
    /// `Protocol_Mode` (`Server` or `Direct`).
    pub protocol_mode: Option<String>,
    /// `Format` (`Shogi 1.0`).
    pub format: Option<String>,
    /// `Declaration` (`Jishogi 1.1` = the CSA 27-point rule).
    pub declaration: Option<String>,
    /// `Game_ID`, echoed in `AGREE`/`REJECT`.
    pub game_id: String,
    /// Black's name (`Name+`).
    pub name_black: String,
    /// White's name (`Name-`).
    pub name_white: String,
    /// Our colour (`Your_Turn`).
    pub our_color: Color,
    /// Whether a draw is replayed (`Rematch_On_Draw`).
    pub rematch_on_draw: bool,
    /// Side to move after the moves already played (`To_Move`).
    pub to_move: Color,
    /// Move limit (`Max_Moves`; `None` when absent or 0 = unlimited).
    pub max_moves: Option<u32>,
    /// Time control per colour, indexed by `Color::index()`.
    pub time: [TimeControl; 2],
    /// The starting position and moves already played.
    pub position: PositionBlock,
    /// Lines we did not recognise (kept for the log; they never fail the parse).
    pub unknown: Vec<String>,
}

/// Reads a time value `n` (in `unit`s); shogi-server writes stopwatch byoyomi as `060`.
fn duration(value: &str, unit: Duration, line: &str) -> Result<Duration, ParseError> {
    let v = value.trim();
    // Fractions are allowed by newer specs for seconds (`Increment:0.5`).
    let n: f64 = v
        .parse()
        .map_err(|_| ParseError::SummaryValue(line.to_string()))?;
    if !n.is_finite() || !(0.0..=1e9).contains(&n) {
        return Err(ParseError::SummaryValue(line.to_string()));
    }
    Ok(unit.mul_f64(n))
}

/// `1sec`, `1msec`, `1min`, `<n>sec`, `<n>msec`, `<n>min`.
fn time_unit(value: &str, line: &str) -> Result<Duration, ParseError> {
    let v = value.trim();
    let bad = || ParseError::SummaryValue(line.to_string());
    let split = v.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?;
    let (num, suffix) = v.split_at(split);
    let n: u64 = if num.is_empty() {
        1
    } else {
        num.parse().map_err(|_| bad())?
    };
    if n == 0 {
        return Err(bad());
    }
    match suffix {
        "msec" => Ok(Duration::from_millis(n)),
        "sec" => Ok(Duration::from_secs(n)),
        "min" => Ok(Duration::from_secs(60 * n)),
        _ => Err(bad()),
    }
}

fn color_field(value: &str, line: &str) -> Result<Color, ParseError> {
    match value.trim() {
        "+" => Ok(Color::Black),
        "-" => Ok(Color::White),
        _ => Err(ParseError::SummaryValue(line.to_string())),
    }
}

fn yes_no(value: &str, line: &str) -> Result<bool, ParseError> {
    match value.trim() {
        "YES" => Ok(true),
        "NO" => Ok(false),
        _ => Err(ParseError::SummaryValue(line.to_string())),
    }
}

/// Raw time fields as read, before the unit is applied (the unit line may come last).
#[derive(Default, Clone)]
struct RawTime {
    unit: Option<Duration>,
    fields: Vec<(String, String, String)>,
}

impl RawTime {
    fn resolve(&self, base: TimeControl) -> Result<TimeControl, ParseError> {
        let mut t = base;
        if let Some(u) = self.unit {
            t.unit = u;
        }
        for (key, value, line) in &self.fields {
            match key.as_str() {
                "Total_Time" => t.total = duration(value, t.unit, line)?,
                "Byoyomi" => t.byoyomi = duration(value, t.unit, line)?,
                "Increment" => t.increment = duration(value, t.unit, line)?,
                "Delay" => t.delay = duration(value, t.unit, line)?,
                "Least_Time_Per_Move" => t.least_per_move = duration(value, t.unit, line)?,
                "Time_Roundup" => t.roundup = yes_no(value, line)?,
                _ => {}
            }
        }
        Ok(t)
    }
}

impl GameSummary {
    /// Parses the lines strictly between `BEGIN Game_Summary` and `END Game_Summary`.
    /// Missing optional fields take the spec defaults; unknown `Key:Value` lines are kept in
    /// `unknown`.
    ///
    /// # Errors
    /// A [`ParseError`] for a malformed value, a missing required field (`Game_ID`,
    /// `Your_Turn`, the position) or a broken block structure.
    pub fn parse(lines: &[String]) -> Result<GameSummary, ParseError> {
        let mut s = Partial::default();
        let mut block: Option<&str> = None;
        let mut position_lines = Vec::new();
        let mut saw_position = false;
        for raw in lines {
            let line = raw.trim_end_matches(['\r', '\n']);
            if let Some(name) = line.strip_prefix("BEGIN ") {
                if block.is_some() {
                    return Err(ParseError::SummaryStructure(format!("nested `{line}`")));
                }
                block = match name {
                    "Time" => Some("Time"),
                    "Time+" => Some("Time+"),
                    "Time-" => Some("Time-"),
                    "Position" => Some("Position"),
                    _ => return Err(ParseError::SummaryStructure(format!("unknown `{line}`"))),
                };
                continue;
            }
            if let Some(name) = line.strip_prefix("END ") {
                if block != Some(name) {
                    return Err(ParseError::SummaryStructure(format!("unexpected `{line}`")));
                }
                if name == "Position" {
                    saw_position = true;
                }
                block = None;
                continue;
            }
            match block {
                Some("Position") => {
                    position_lines.push(line.to_string());
                    continue;
                }
                Some(b @ ("Time" | "Time+" | "Time-")) => {
                    let target = match b {
                        "Time" => &mut s.time_both,
                        "Time+" => &mut s.time_side[0],
                        _ => &mut s.time_side[1],
                    };
                    let Some((key, value)) = line.split_once(':') else {
                        if !line.trim().is_empty() {
                            s.unknown.push(line.to_string());
                        }
                        continue;
                    };
                    if key == "Time_Unit" {
                        target.unit = Some(time_unit(value, line)?);
                    } else {
                        target
                            .fields
                            .push((key.to_string(), value.to_string(), line.to_string()));
                    }
                    continue;
                }
                _ => {}
            }
            let Some((key, value)) = line.split_once(':') else {
                if !line.trim().is_empty() {
                    s.unknown.push(line.to_string());
                }
                continue;
            };
            match key {
                "Protocol_Version" => s.protocol_version = Some(value.to_string()),
                "Protocol_Mode" => s.protocol_mode = Some(value.to_string()),
                "Format" => s.format = Some(value.to_string()),
                "Declaration" => s.declaration = Some(value.to_string()),
                "Game_ID" => s.game_id = Some(value.to_string()),
                "Name+" => s.name_black = Some(value.to_string()),
                "Name-" => s.name_white = Some(value.to_string()),
                "Your_Turn" => s.our_color = Some(color_field(value, line)?),
                "To_Move" => s.to_move = Some(color_field(value, line)?),
                "Rematch_On_Draw" => s.rematch_on_draw = yes_no(value, line)?,
                "Max_Moves" => {
                    let n: u32 = value
                        .trim()
                        .parse()
                        .map_err(|_| ParseError::SummaryValue(line.to_string()))?;
                    s.max_moves = (n > 0).then_some(n);
                }
                // Time fields outside a block are tolerated (some servers flatten them).
                "Time_Unit" => s.time_both.unit = Some(time_unit(value, line)?),
                "Total_Time"
                | "Byoyomi"
                | "Increment"
                | "Delay"
                | "Least_Time_Per_Move"
                | "Time_Roundup" => {
                    s.time_both
                        .fields
                        .push((key.to_string(), value.to_string(), line.to_string()))
                }
                _ => s.unknown.push(line.to_string()),
            }
        }
        if let Some(b) = block {
            return Err(ParseError::SummaryStructure(format!(
                "`BEGIN {b}` not closed"
            )));
        }
        if !saw_position {
            return Err(ParseError::SummaryMissing("Position"));
        }
        let position = parse_position_block(&position_lines)?;
        let both = s.time_both.resolve(TimeControl::default())?;
        let time = [s.time_side[0].resolve(both)?, s.time_side[1].resolve(both)?];
        let current_side = position.current().side_to_move();
        let to_move = s.to_move.unwrap_or(current_side);
        if to_move != current_side {
            return Err(ParseError::Position(format!(
                "To_Move says {to_move:?} but the position has {current_side:?} to move"
            )));
        }
        Ok(GameSummary {
            protocol_version: s.protocol_version,
            protocol_mode: s.protocol_mode,
            format: s.format,
            declaration: s.declaration,
            game_id: s.game_id.ok_or(ParseError::SummaryMissing("Game_ID"))?,
            name_black: s.name_black.unwrap_or_default(),
            name_white: s.name_white.unwrap_or_default(),
            our_color: s.our_color.ok_or(ParseError::SummaryMissing("Your_Turn"))?,
            rematch_on_draw: s.rematch_on_draw,
            to_move,
            max_moves: s.max_moves,
            time,
            position,
            unknown: s.unknown,
        })
    }

    /// The `Game_ID` line's value if the lines contain one, even when the rest is garbled
    /// (so that a bad game can still be rejected by id).
    pub fn find_game_id(lines: &[String]) -> Option<String> {
        lines
            .iter()
            .find_map(|l| l.strip_prefix("Game_ID:"))
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty() && !v.contains(char::is_whitespace))
    }

    /// The opponent's name.
    pub fn opponent_name(&self) -> &str {
        match self.our_color {
            Color::Black => &self.name_white,
            Color::White => &self.name_black,
        }
    }
}

#[derive(Default)]
struct Partial {
    protocol_version: Option<String>,
    protocol_mode: Option<String>,
    format: Option<String>,
    declaration: Option<String>,
    game_id: Option<String>,
    name_black: Option<String>,
    name_white: Option<String>,
    our_color: Option<Color>,
    to_move: Option<Color>,
    rematch_on_draw: bool,
    max_moves: Option<u32>,
    time_both: RawTime,
    time_side: [RawTime; 2],
    unknown: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(s: &str) -> Vec<String> {
        s.lines().map(|l| l.trim_start().to_string()).collect()
    }

    const BASIC: &str = "Protocol_Version:1.2
        Protocol_Mode:Server
        Format:Shogi 1.0
        Declaration:Jishogi 1.1
        Game_ID:test+testgame-60-5+alice+bob+20261121095139
        Name+:alice
        Name-:bob
        Your_Turn:-
        Rematch_On_Draw:NO
        To_Move:+
        Max_Moves:256
        BEGIN Time
        Time_Unit:1sec
        Total_Time:60
        Byoyomi:5
        Increment:0
        Least_Time_Per_Move:0
        END Time
        BEGIN Position
        PI
        +
        END Position";

    #[test]
    fn reads_every_field_of_the_shogi_server_summary() {
        let s = GameSummary::parse(&lines(BASIC)).unwrap();
        assert_eq!(s.game_id, "test+testgame-60-5+alice+bob+20261121095139");
        assert_eq!(s.our_color, Color::White);
        assert_eq!(s.to_move, Color::Black);
        assert_eq!(s.max_moves, Some(256));
        assert_eq!(s.opponent_name(), "alice");
        assert_eq!(s.declaration.as_deref(), Some("Jishogi 1.1"));
        for t in s.time {
            assert_eq!(t.total, Duration::from_secs(60));
            assert_eq!(t.byoyomi, Duration::from_secs(5));
            assert_eq!(t.increment, Duration::ZERO);
        }
        assert!(s.unknown.is_empty());
    }

    #[test]
    fn reads_per_side_times_units_and_missing_optionals() {
        let text = "Game_ID:g1
            Your_Turn:+
            BEGIN Time+
            Time_Unit:1msec
            Total_Time:600000
            Increment:10000
            Least_Time_Per_Move:1000
            Time_Roundup:YES
            END Time+
            BEGIN Time-
            Total_Time:300
            Byoyomi:060
            Time_Unit:1min
            END Time-
            BEGIN Position
            PI
            -
            END Position";
        let s = GameSummary::parse(&lines(text)).unwrap();
        assert_eq!(s.to_move, Color::White);
        assert_eq!(s.max_moves, None);
        let b = s.time[0];
        assert_eq!(b.total, Duration::from_secs(600));
        assert_eq!(b.increment, Duration::from_secs(10));
        assert_eq!(b.least_per_move, Duration::from_secs(1));
        assert!(b.roundup);
        let w = s.time[1];
        assert_eq!(w.total, Duration::from_secs(300 * 60));
        assert_eq!(w.byoyomi, Duration::from_secs(3600));
    }

    #[test]
    fn resumed_game_moves_set_the_side_to_move() {
        let text =
            "Game_ID:g2\nYour_Turn:-\nTo_Move:-\nBEGIN Position\nPI\n+\n+7776FU,T3\nEND Position";
        let s = GameSummary::parse(&lines(text)).unwrap();
        assert_eq!(s.position.moves.len(), 1);
        assert_eq!(s.position.moves[0].seconds, Some(3));
        let bad =
            "Game_ID:g2\nYour_Turn:-\nTo_Move:+\nBEGIN Position\nPI\n+\n+7776FU,T3\nEND Position";
        assert!(GameSummary::parse(&lines(bad)).is_err());
    }

    #[test]
    fn garbled_summaries_are_errors_not_panics() {
        for bad in [
            "",
            "Game_ID:x\nYour_Turn:+",
            "Game_ID:x\nYour_Turn:?\nBEGIN Position\nPI\n+\nEND Position",
            "Your_Turn:+\nBEGIN Position\nPI\n+\nEND Position",
            "Game_ID:x\nYour_Turn:+\nBEGIN Time\nTotal_Time:abc\nEND Time\nBEGIN Position\nPI\n+\nEND Position",
            "Game_ID:x\nYour_Turn:+\nBEGIN Time\nTime_Unit:1fortnight\nEND Time\nBEGIN Position\nPI\n+\nEND Position",
            "Game_ID:x\nYour_Turn:+\nBEGIN Time\nBEGIN Position\nEND Position",
            "Game_ID:x\nYour_Turn:+\nBEGIN Position\nP1junk\n+\nEND Position",
            "Game_ID:x\nYour_Turn:+\nMax_Moves:-3\nBEGIN Position\nPI\n+\nEND Position",
            "Game_ID:x\nYour_Turn:+\nBEGIN Nonsense\nEND Nonsense",
        ] {
            assert!(GameSummary::parse(&lines(bad)).is_err(), "{bad}");
        }
        assert_eq!(
            GameSummary::find_game_id(&lines("junk\nGame_ID:abc+def\nmore junk")),
            Some("abc+def".to_string())
        );
        assert_eq!(GameSummary::find_game_id(&lines("junk")), None);
    }
}
