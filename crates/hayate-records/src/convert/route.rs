//! What one input item becomes in each kind of output. [`super::FileFormat::converts_to`] says
//! which pairs a job attempts; a pair it rules out is [`ConvertError::Unsupported`] here.

use super::item::*;
use crate::{GameRecord, Hcp, Hcpe, Hcpe3Game, Psv};

/// One item read from an input file.
pub(crate) enum Item {
    /// A game record, with the label its output file would get.
    Game(String, GameRecord),
    /// An hcpe3 game, labelled likewise.
    Hcpe3(String, Hcpe3Game),
    Hcpe(Hcpe),
    Psv(Psv),
    Hcp(Hcp),
}

impl Item {
    /// The item as a labelled game record.
    pub(crate) fn into_game(self) -> Result<(String, GameRecord), ConvertError> {
        match self {
            Item::Game(label, g) => Ok((label, g)),
            Item::Hcpe3(label, g) => Ok((label, hcpe3_to_game(&g)?)),
            _ => Err(ConvertError::Unsupported),
        }
    }

    /// The item as one hcpe3 game.
    pub(crate) fn into_hcpe3(self) -> Result<Hcpe3Game, ConvertError> {
        match self {
            Item::Game(_, g) => game_to_hcpe3(&g),
            Item::Hcpe3(_, g) => Ok(g),
            _ => Err(ConvertError::Unsupported),
        }
    }

    /// The item's training positions as hcpe.
    pub(crate) fn into_hcpes(self) -> Result<Vec<Hcpe>, ConvertError> {
        let mut v = Vec::new();
        match self {
            Item::Game(_, g) => game_to_hcpe(&g, &mut v).map(|_| v),
            Item::Hcpe3(_, g) => hcpe3_to_hcpe(&g, &mut v).map(|_| v),
            Item::Hcpe(h) => Ok(vec![h]),
            Item::Psv(p) => Ok(vec![psv_to_hcpe(&p)?]),
            Item::Hcp(_) => Err(ConvertError::Unsupported),
        }
    }

    /// The item's training positions as psv (games keep their move numbers).
    pub(crate) fn into_psvs(self) -> Result<Vec<Psv>, ConvertError> {
        match self {
            Item::Game(_, g) => {
                let mut v = Vec::new();
                game_to_psv(&g, &mut v).map(|_| v)
            }
            Item::Psv(p) => Ok(vec![p]),
            other => other.into_hcpes()?.iter().map(hcpe_to_psv).collect(),
        }
    }

    /// The item's positions as hcp: a game's positions before each move, a record's position.
    pub(crate) fn into_hcps(self) -> Result<Vec<Hcp>, ConvertError> {
        match self {
            Item::Game(_, g) => {
                let mut pos = g.start_position()?;
                let mut v = Vec::with_capacity(g.moves.len());
                for e in &g.moves {
                    v.push(Hcp::from_position(&pos)?);
                    pos.do_move(e.mv);
                }
                Ok(v)
            }
            Item::Hcpe3(_, g) => {
                let mut v = Vec::with_capacity(g.moves.len());
                let mut err = None;
                g.replay(|pos, _, _| match Hcp::from_position(pos) {
                    Ok(h) => v.push(h),
                    Err(e) => err = err.take().or(Some(e)),
                })?;
                err.map_or(Ok(v), |e| Err(e.into()))
            }
            Item::Hcpe(h) => Ok(vec![h.hcp]),
            Item::Psv(p) => Ok(vec![Hcp::from_position(&p.position()?)?]),
            Item::Hcp(h) => Ok(vec![h]),
        }
    }
}

/// What one item became, in the output's kind.
pub(crate) enum Batch {
    Game(String, GameRecord),
    Hcpe3(Hcpe3Game),
    Hcpe(Vec<Hcpe>),
    Psv(Vec<Psv>),
    Hcp(Vec<Hcp>),
}

impl Item {
    /// Converts the item for an output of format `to`.
    pub(crate) fn convert(self, to: super::FileFormat) -> Result<Batch, ConvertError> {
        use super::FileFormat as F;
        Ok(match to {
            F::Game(..) => {
                let (label, g) = self.into_game()?;
                Batch::Game(label, g)
            }
            F::Hcpe3 => Batch::Hcpe3(self.into_hcpe3()?),
            F::Hcpe => Batch::Hcpe(self.into_hcpes()?),
            F::Psv => Batch::Psv(self.into_psvs()?),
            F::Hcp => Batch::Hcp(self.into_hcps()?),
        })
    }
}
