//! Sealed bids for sides (issue 32, point 4; docs/ladder.md, "Sealed
//! bids"): both players commit to a bid before either is revealed, so
//! neither bids knowing the other's. A bid is the IPCs a player asks for
//! the Axis to play them; under DAAK's rule the lower bid plays the Axis
//! and its side gets that many IPCs to place by the ruleset's placement
//! rules.
//!
//! ```text
//! commitment = SHA-256("warboard/bid/v1" ‖ var(game) ‖ var(player) ‖ u32_be(ipcs) ‖ nonce (32 bytes))
//! tie coin   = low bit of SHA-256(nonce of the name first in byte order ‖ the other's nonce)
//! ```
//!
//! Pure: the server keeps the round's state and passes it in.

use sha2::{Digest, Sha256};

const BID_TAG: &[u8] = b"warboard/bid/v1";

/// `SHA-256("warboard/bid/v1" ‖ var(game) ‖ var(player) ‖ u32_be(ipcs) ‖ nonce)`,
/// `var(x)` being `u32_be(len) ‖ x`.
pub fn commitment(game: &str, player: &str, ipcs: u32, nonce: &[u8; 32]) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(BID_TAG);
    for part in [game.as_bytes(), player.as_bytes()] {
        h.update((part.len() as u32).to_be_bytes());
        h.update(part);
    }
    h.update(ipcs.to_be_bytes());
    h.update(nonce);
    h.finalize().into()
}

/// The coin that settles equal bids: the low bit of the last byte of
/// `SHA-256(first_nonce ‖ second_nonce)`, the nonces in the byte order of
/// their players' names; 0: the first of the two names plays the Axis.
/// Neither player steers it alone, since each nonce was sealed before the
/// other was seen. (A coin from the commitments would not do: a player can
/// try nonces until its commitment is small.)
pub fn tie_coin(first_nonce: &[u8; 32], second_nonce: &[u8; 32]) -> u8 {
    let digest: [u8; 32] = Sha256::new().chain_update(first_nonce).chain_update(second_nonce).finalize().into();
    digest[31] & 1
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BidError {
    /// A bid sealed, or sealed again, once a bid of the round was revealed.
    #[error("bid/after-reveal: a bid is sealed before any is revealed; {0} can no longer change theirs")]
    AfterReveal(String),
    #[error("bid/not-a-bidder: {0} is not one of the two bidders")]
    NotABidder(String),
    /// A reveal before both bids are sealed would show it to the other.
    #[error("bid/not-sealed: both bids are sealed before either is revealed")]
    NotSealed,
    #[error("bid/commitment-mismatch: {0}'s revealed bid is not the one sealed")]
    CommitmentMismatch(String),
    #[error("bid/revealed-twice: {0} has revealed already")]
    RevealedTwice(String),
}

impl BidError {
    pub fn code(&self) -> &'static str {
        match self {
            BidError::AfterReveal(_) => "bid/after-reveal",
            BidError::NotABidder(_) => "bid/not-a-bidder",
            BidError::NotSealed => "bid/not-sealed",
            BidError::CommitmentMismatch(_) => "bid/commitment-mismatch",
            BidError::RevealedTwice(_) => "bid/revealed-twice",
        }
    }
}

/// One bidder's part of the round.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Bidder {
    sealed: Option<[u8; 32]>,
    revealed: Option<u32>,
    /// The revealed bid's nonce, for the tie coin.
    nonce: Option<[u8; 32]>,
}

/// Two players bidding for the Axis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BidRound {
    game: String,
    players: [String; 2],
    bids: [Bidder; 2],
}

/// Who plays the Axis and the IPCs its side gets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sides {
    pub axis: String,
    pub allies: String,
    pub axis_ipcs: u32,
}

impl BidRound {
    pub fn new(game: &str, players: [&str; 2]) -> BidRound {
        BidRound { game: game.into(), players: players.map(String::from), bids: Default::default() }
    }

    fn index(&self, player: &str) -> Result<usize, BidError> {
        self.players.iter().position(|p| p == player).ok_or_else(|| BidError::NotABidder(player.into()))
    }

    fn any_revealed(&self) -> bool {
        self.bids.iter().any(|b| b.revealed.is_some())
    }

    /// Seals (or, before any reveal, seals again) a player's bid.
    pub fn seal(&mut self, player: &str, commitment: [u8; 32]) -> Result<(), BidError> {
        let i = self.index(player)?;
        if self.any_revealed() {
            return Err(BidError::AfterReveal(player.into()));
        }
        self.bids[i].sealed = Some(commitment);
        Ok(())
    }

    /// Reveals a player's bid: it must be the one sealed, both sealed first.
    pub fn reveal(&mut self, player: &str, ipcs: u32, nonce: &[u8; 32]) -> Result<(), BidError> {
        let i = self.index(player)?;
        if self.bids.iter().any(|b| b.sealed.is_none()) {
            return Err(BidError::NotSealed);
        }
        if self.bids[i].revealed.is_some() {
            return Err(BidError::RevealedTwice(player.into()));
        }
        if Some(commitment(&self.game, player, ipcs, nonce)) != self.bids[i].sealed {
            return Err(BidError::CommitmentMismatch(player.into()));
        }
        self.bids[i].revealed = Some(ipcs);
        self.bids[i].nonce = Some(*nonce);
        Ok(())
    }

    /// Once both are revealed, DAAK's rule: the lower bid plays the Axis and
    /// gets its bid. On equal bids [`tie_coin`] says who plays the Axis.
    pub fn sides(&self) -> Option<Sides> {
        let (a, b) = (self.bids[0].revealed?, self.bids[1].revealed?);
        let first_axis = a < b || (a == b && self.coin_gives_axis_to_first()?);
        let (axis, allies) = if first_axis { (0, 1) } else { (1, 0) };
        Some(Sides { axis: self.players[axis].clone(), allies: self.players[allies].clone(), axis_ipcs: a.min(b) })
    }

    /// Whether the tie coin gives the Axis to `players[0]`; `None` before
    /// both nonces are revealed.
    fn coin_gives_axis_to_first(&self) -> Option<bool> {
        let (n0, n1) = (self.bids[0].nonce.as_ref()?, self.bids[1].nonce.as_ref()?);
        let zero_is_first = self.players[0].as_bytes() < self.players[1].as_bytes();
        let coin = if zero_is_first { tie_coin(n0, n1) } else { tie_coin(n1, n0) };
        Some((coin == 0) == zero_is_first)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lower_bid_plays_the_axis_and_gets_it() {
        let mut round = BidRound::new("g1", ["anna", "boris"]);
        round.seal("anna", commitment("g1", "anna", 9, &[1; 32])).unwrap();
        assert_eq!(round.reveal("anna", 9, &[1; 32]).unwrap_err().code(), "bid/not-sealed", "no reveal before both are sealed");
        round.seal("boris", commitment("g1", "boris", 6, &[2; 32])).unwrap();
        round.reveal("anna", 9, &[1; 32]).unwrap();
        // Boris saw Anna's 9: he cannot seal another bid now.
        assert_eq!(round.seal("boris", commitment("g1", "boris", 8, &[3; 32])).unwrap_err().code(), "bid/after-reveal");
        assert_eq!(round.reveal("boris", 8, &[2; 32]).unwrap_err().code(), "bid/commitment-mismatch");
        assert_eq!(round.sides(), None);
        round.reveal("boris", 6, &[2; 32]).unwrap();
        assert_eq!(round.sides(), Some(Sides { axis: "boris".into(), allies: "anna".into(), axis_ipcs: 6 }));
        assert_eq!(round.reveal("boris", 6, &[2; 32]).unwrap_err().code(), "bid/revealed-twice");
        assert_eq!(round.seal("carl", [0; 32]).unwrap_err().code(), "bid/not-a-bidder");
    }

    #[test]
    fn a_commitment_binds_the_game_the_player_and_the_bid() {
        let c = commitment("g1", "anna", 9, &[1; 32]);
        assert_ne!(c, commitment("g2", "anna", 9, &[1; 32]));
        assert_ne!(c, commitment("g1", "annb", 9, &[1; 32]));
        assert_ne!(c, commitment("g1", "anna", 10, &[1; 32]));
        assert_ne!(c, commitment("g1", "anna", 9, &[2; 32]));
        // Lengths are framed: ("ab", "c") is not ("a", "bc").
        assert_ne!(commitment("ab", "c", 1, &[0; 32]), commitment("a", "bc", 1, &[0; 32]));
    }

    #[test]
    fn equal_bids_are_settled_by_the_nonces_coin() {
        // Nonces giving each coin, and each order of the players in the round.
        let nonces = |coin: u8| (0u8..=255).map(|n| ([7; 32], [n; 32])).find(|(a, b)| tie_coin(a, b) == coin).unwrap();
        for coin in [0, 1] {
            let (na, nb) = nonces(coin);
            for players in [["a", "b"], ["b", "a"]] {
                let mut round = BidRound::new("g", players);
                round.seal("a", commitment("g", "a", 5, &na)).unwrap();
                round.seal("b", commitment("g", "b", 5, &nb)).unwrap();
                round.reveal("b", 5, &nb).unwrap();
                round.reveal("a", 5, &na).unwrap();
                let sides = round.sides().unwrap();
                // "a" sorts first: coin 0 gives it the Axis.
                assert_eq!(sides.axis, if coin == 0 { "a" } else { "b" }, "coin {coin}, players {players:?}");
                assert_eq!(sides.axis_ipcs, 5);
            }
        }
    }
}
