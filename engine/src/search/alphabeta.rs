//! The search: iterative deepening over a principal-variation alpha-beta
//! (negamax) with a quiescence search (captures, plus checking drops where
//! the variant has drops and a king's step onto the hill in king of the
//! hill), a transposition table, null-move pruning, late-move reductions
//! (never of checks where pieces come back as drops), check extensions, and
//! move ordering by the table's move, captures (most valuable victim, least
//! valuable attacker), killers, checking drops and history. Ends of the game come from the rules' own outcome,
//! so every variant's wins and losses score as mates.

use super::board::{Board, SearchBoard};
use super::eval::Evaluator;
use super::tt::{Bound, TranspositionTable};
use crate::bitboard::Bits;
use crate::moves::{Move, MoveKind, MoveList};
use crate::rules::Rules;
use crate::side::Side;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The score of a won game at the root; a win in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this (either sign) are wins or losses by the rules.
pub const MATE_BOUND: i32 = MATE - 1_000;
const INFINITY: i32 = 32_000;
/// The deepest line the search follows (plies from the root).
pub const MAX_PLY: usize = 100;
/// Quiescence plies beyond the horizon before the static evaluation decides.
const MAX_QUIESCENCE: usize = 12;
const MAX_SQUARES: usize = 256;
const HISTORY_LIMIT: i32 = 1 << 20;

/// When to stop searching. Unset limits do not limit; the search always
/// finishes depth 1, whatever the limits say, so it always has a move.
///
/// Depth and node limits are deterministic; a deadline reads the clock and
/// is not.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// The deepest iteration, in plies.
    pub depth: Option<u32>,
    /// The most nodes to visit.
    pub nodes: Option<u64>,
    /// Stop at this instant.
    pub deadline: Option<Instant>,
    /// Start no new iteration after this instant (a clock's soft limit).
    pub soft_deadline: Option<Instant>,
    /// Score every root move within this many centipawns of the best exactly
    /// (for weaker levels and sampling); 0 scores only the best exactly.
    pub root_margin: i32,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The best move.
    pub best: Move,
    /// Its score from the mover's point of view in centipawns; beyond
    /// [`MATE_BOUND`] a win (or below `-MATE_BOUND` a loss) by the rules in
    /// `MATE - |score|` plies.
    pub score: i32,
    /// The last depth completed.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// The expected line, starting with `best`.
    pub pv: Vec<Move>,
    /// Root moves with their scores, best first. Scores more than
    /// [`Limits::root_margin`] below the best are upper bounds.
    pub root_scores: Vec<(Move, i32)>,
}

impl SearchResult {
    /// Moves to a forced end of the game (positive: the mover wins), if the score is one.
    pub fn mate_in(&self) -> Option<i32> {
        mate_in(self.score)
    }
}

/// Full moves to a forced win (positive) or loss (negative) for a mate-like score.
pub fn mate_in(score: i32) -> Option<i32> {
    if score > MATE_BOUND {
        Some((MATE - score + 1) / 2)
    } else if score < -MATE_BOUND {
        Some(-(MATE + score) / 2)
    } else {
        None
    }
}

/// A search's memory between moves: the transposition table, move-ordering
/// statistics, the evaluation tables of the variants it has seen, and the
/// stop flag a caller may raise from another thread.
///
/// ```
/// use kodex_engine::search::{think, Limits, Searcher};
/// use kodex_engine::{Game, Registry, Start};
/// let registry = Registry::builtin();
/// let game = Game::new(registry.get("chess").unwrap(), Start::Standard).unwrap();
/// let mut searcher = Searcher::new(1);
/// let limits = Limits { depth: Some(2), ..Limits::default() };
/// let result = think(&game.search_board(), &limits, &mut searcher).unwrap();
/// assert!(game.legal_moves().contains(&result.best));
/// ```
pub struct Searcher {
    tt: TranspositionTable,
    stop: Arc<AtomicBool>,
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
    lists: Vec<MoveList>,
    order: Vec<Vec<i32>>,
    pv: Vec<Vec<Move>>,
    path: Vec<u64>,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    may_abort: bool,
    aborted: bool,
    evaluators: Vec<(usize, String, Arc<Evaluator>)>,
}

/// One finished iteration, for progress reports (UCI `info`).
pub type Progress<'r> = &'r SearchResult;

impl Searcher {
    /// A searcher with a transposition table of about `tt_megabytes` MB.
    pub fn new(tt_megabytes: usize) -> Searcher {
        Searcher {
            tt: TranspositionTable::new(tt_megabytes),
            stop: Arc::new(AtomicBool::new(false)),
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: vec![0; 2 * crate::tables::MAX_TYPES * MAX_SQUARES],
            lists: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            order: (0..=MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
            pv: (0..=MAX_PLY + 1).map(|_| Vec::with_capacity(16)).collect(),
            path: Vec::with_capacity(512),
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            may_abort: false,
            aborted: false,
            evaluators: Vec::new(),
        }
    }

    /// The flag that stops a running search: set it from any thread and
    /// the search returns its best move so far (it always finishes depth 1).
    /// The search lowers it when it returns; a flag raised before a search
    /// starts stops that search after depth 1.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Forgets the transposition table and the ordering statistics (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
    }

    /// The evaluation tables of the variant `rules` play, built on first use.
    pub fn evaluator<B: Bits>(&mut self, rules: Rules<'_, B>) -> Arc<Evaluator> {
        let key = rules.def as *const _ as usize;
        if let Some((_, _, ev)) = self
            .evaluators
            .iter()
            .find(|(k, id, _)| *k == key && *id == rules.def.id)
        {
            return ev.clone();
        }
        let ev = Arc::new(Evaluator::new(rules));
        if self.evaluators.len() >= 16 {
            self.evaluators.remove(0);
        }
        self.evaluators
            .push((key, rules.def.id.clone(), ev.clone()));
        ev
    }
}

/// Searches `board` within `limits`; `None` when the side to move has no
/// legal move (the game is over).
pub fn think(
    board: &SearchBoard<'_>,
    limits: &Limits,
    searcher: &mut Searcher,
) -> Option<SearchResult> {
    think_with(board, &[], limits, searcher, &mut |_| {})
}

/// [`think`] with the hashes of the positions before this one (oldest first,
/// for repetitions; [`crate::Game::position_hashes`]) and a report after
/// every finished iteration.
pub fn think_with(
    board: &SearchBoard<'_>,
    history: &[u64],
    limits: &Limits,
    searcher: &mut Searcher,
    report: &mut dyn FnMut(Progress<'_>),
) -> Option<SearchResult> {
    match board {
        SearchBoard::B64(b) => searcher.iterate(b, history, limits, report),
        SearchBoard::B128(b) => searcher.iterate(b, history, limits, report),
        SearchBoard::B256(b) => searcher.iterate(b, history, limits, report),
    }
}

impl Searcher {
    fn iterate<B: Bits>(
        &mut self,
        board: &Board<'_, B>,
        history: &[u64],
        limits: &Limits,
        report: &mut dyn FnMut(Progress<'_>),
    ) -> Option<SearchResult> {
        let ev = self.evaluator(board.rules());
        let mut root_moves = Vec::new();
        board.legal_moves_into(&mut root_moves);
        if root_moves.is_empty() {
            return None;
        }
        self.tt.new_search();
        self.nodes = 0;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.deadline = limits.deadline;
        self.may_abort = false;
        self.aborted = false;
        self.path.clear();
        self.path.extend_from_slice(history);
        for k in self.killers.iter_mut() {
            *k = [None; 2];
        }
        for h in self.history.iter_mut() {
            *h /= 8;
        }

        // Root moves in order: the table's move, then captures, then the rest.
        let tt_move = self.tt.probe(board.hash()).and_then(|e| e.best);
        let mut scored: Vec<(Move, i32)> = root_moves
            .iter()
            .map(|&mv| (mv, self.order_score(&ev, board, mv, tt_move, 0)))
            .collect();
        scored.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        let mut order: Vec<Move> = scored.into_iter().map(|(mv, _)| mv).collect();

        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 4)
            .clamp(1, MAX_PLY as u32 - 4);
        let mut result: Option<SearchResult> = None;
        for depth in 1..=max_depth {
            self.may_abort = depth > 1;
            let (scores, finished) =
                self.root(&ev, board, &order, depth as i32, limits.root_margin);
            if scores.is_empty() {
                break;
            }
            // Best first; a stable sort keeps the previous order among equals.
            let mut ranked = scores;
            ranked.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
            let (best, score) = ranked[0];
            let pv = if self.pv[0].first() == Some(&best) {
                self.pv[0].clone()
            } else {
                vec![best]
            };
            if !finished {
                // A partial iteration counts only if it found a better move than the last one.
                if let Some(previous) = &mut result {
                    if best != previous.best && score > previous.score {
                        previous.best = best;
                        previous.score = score;
                        previous.pv = pv;
                    }
                    previous.nodes = self.nodes;
                }
                break;
            }
            order = ranked.iter().map(|&(mv, _)| mv).collect();
            // Unsearched moves keep their place after the searched ones.
            let current = SearchResult {
                best,
                score,
                depth,
                nodes: self.nodes,
                pv,
                root_scores: ranked,
            };
            report(&current);
            result = Some(current);
            if order.len() == 1 && limits.deadline.is_some() {
                break;
            }
            if score.abs() > MATE_BOUND && (MATE - score.abs()) < depth as i32 {
                // A forced end found within the horizon: deeper adds nothing.
                break;
            }
            if self.should_stop_now()
                || matches!(limits.soft_deadline, Some(d) if Instant::now() >= d)
            {
                break;
            }
        }
        // Lowered on the way out, so the next search starts afresh; a stop
        // raised before this search began was honoured.
        self.stop.store(false, Ordering::Relaxed);
        result.map(|mut r| {
            r.nodes = self.nodes;
            r
        })
    }

    /// Searches the root moves in `order` to `depth`; returns the moves
    /// searched with their scores and whether every move was searched.
    fn root<B: Bits>(
        &mut self,
        ev: &Evaluator,
        board: &Board<'_, B>,
        order: &[Move],
        depth: i32,
        margin: i32,
    ) -> (Vec<(Move, i32)>, bool) {
        let mut alpha = -INFINITY;
        let beta = INFINITY;
        let mut scores = Vec::with_capacity(order.len());
        let mut best: Option<Move> = None;
        self.path.push(board.hash());
        for (i, &mv) in order.iter().enumerate() {
            let mut child = *board;
            child.make(mv);
            let score = if margin > 0 {
                let floor = if i == 0 {
                    -INFINITY
                } else {
                    (alpha - margin).max(-INFINITY)
                };
                -self.negamax(ev, &child, depth - 1, -beta, -floor, 1, true)
            } else if i == 0 {
                -self.negamax(ev, &child, depth - 1, -beta, -alpha, 1, true)
            } else {
                let mut s = -self.negamax(ev, &child, depth - 1, -alpha - 1, -alpha, 1, true);
                if s > alpha && !self.aborted {
                    s = -self.negamax(ev, &child, depth - 1, -beta, -alpha, 1, true);
                }
                s
            };
            if self.aborted {
                break;
            }
            scores.push((mv, score));
            if score > alpha {
                alpha = score;
                best = Some(mv);
                let (head, tail) = self.pv.split_at_mut(1);
                head[0].clear();
                head[0].push(mv);
                head[0].extend_from_slice(&tail[0]);
            }
        }
        self.path.pop();
        if let Some(best) = best {
            if !self.aborted {
                self.tt
                    .store(board.hash(), Some(best), alpha, depth, Bound::Exact);
            }
        }
        let finished = !self.aborted;
        (scores, finished)
    }

    #[inline]
    fn should_stop_now(&mut self) -> bool {
        if self.stop.load(Ordering::Relaxed) || self.nodes >= self.node_limit {
            return true;
        }
        matches!(self.deadline, Some(d) if Instant::now() >= d)
    }

    /// Whether to abandon the search (checked often; the clock every 1024 nodes).
    #[inline]
    fn check_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if !self.may_abort {
            return false;
        }
        if self.nodes >= self.node_limit || (self.nodes & 1023 == 0 && self.should_stop_now()) {
            self.aborted = true;
        }
        self.aborted
    }

    /// Whether the position repeats one earlier on the line (or in the game)
    /// since the last irreversible move: scored as a draw.
    fn repeated(&self, hash: u64, halfmove: u16) -> bool {
        let len = self.path.len();
        let mut back = 2;
        while back <= halfmove as usize && back <= len {
            if self.path[len - back] == hash {
                return true;
            }
            back += 2;
        }
        false
    }

    /// The score of a position without legal moves, by the rules' outcome.
    fn terminal<B: Bits>(&self, board: &Board<'_, B>, legal: &[Move], ply: usize) -> i32 {
        let Some(outcome) = board.outcome(legal) else {
            return 0;
        };
        let mover = board.side_to_move();
        let team = board.rules().def.team_of(mover);
        match outcome.winner() {
            Some(winner) if winner == team => MATE - ply as i32,
            Some(_) => -(MATE - ply as i32),
            None => 0,
        }
    }

    /// How promising `mv` looks, for ordering (higher first).
    fn order_score<B: Bits>(
        &self,
        ev: &Evaluator,
        board: &Board<'_, B>,
        mv: Move,
        tt_move: Option<Move>,
        ply: usize,
    ) -> i32 {
        if Some(mv) == tt_move {
            return 4_000_000;
        }
        let mut score = 0;
        if mv.is_capture() {
            let victim = match mv.kind {
                MoveKind::EnPassant => ev.value(mv.piece as usize),
                _ => board
                    .position()
                    .piece_at(mv.to as usize)
                    .map(|(_, ty)| ev.value(ty))
                    .unwrap_or(0),
            };
            score = 2_000_000 + victim * 16 - ev.value(mv.piece as usize) / 8;
        }
        if let Some(promotion) = mv.promotion() {
            score += 1_500_000 + ev.value(promotion);
        }
        if score > 0 {
            return score;
        }
        let killers = &self.killers[ply.min(MAX_PLY)];
        if killers[0] == Some(mv) {
            return 1_000_000;
        }
        if killers[1] == Some(mv) {
            return 999_000;
        }
        self.history[history_index(board.side_to_move(), mv)]
    }

    /// Fills `self.order[ply]` with the ordering scores of `self.lists[ply]`.
    fn order_moves<B: Bits>(
        &mut self,
        ev: &Evaluator,
        board: &Board<'_, B>,
        list: &[Move],
        tt_move: Option<Move>,
        ply: usize,
    ) -> Vec<i32> {
        let mut order = std::mem::take(&mut self.order[ply]);
        order.clear();
        // With drops, drops that give check come right after the killers.
        let checks = (ev.drops() && list.iter().any(|mv| mv.kind == MoveKind::Drop))
            .then(|| drop_check_squares(board));
        for &mv in list {
            let mut score = self.order_score(ev, board, mv, tt_move, ply);
            if let Some(c) = &checks {
                if mv.kind == MoveKind::Drop
                    && score < 998_000
                    && c[mv.piece as usize % c.len()].has(mv.to as usize)
                {
                    score = 998_000;
                }
            }
            order.push(score);
        }
        order
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax<B: Bits>(
        &mut self,
        ev: &Evaluator,
        board: &Board<'_, B>,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        allow_null: bool,
    ) -> i32 {
        self.pv[ply].clear();
        if self.check_abort() {
            return 0;
        }
        let pos = board.position();
        let hash = board.hash();
        if self.repeated(hash, pos.halfmove) {
            return 0;
        }
        // No line can do better than winning at once, or worse than losing at once.
        alpha = alpha.max(-(MATE - ply as i32));
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        if ply >= MAX_PLY - 1 {
            return ev.evaluate(board);
        }
        let in_check = board.in_check();
        if in_check && ply < MAX_PLY / 2 {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiesce(ev, board, alpha, beta, ply, 0);
        }
        self.nodes += 1;

        let mut list = std::mem::take(&mut self.lists[ply]);
        board.legal_moves_into(&mut list);
        if list.is_empty() {
            let score = self.terminal(board, &list, ply);
            self.lists[ply] = list;
            return score;
        }
        if pos.halfmove >= 100 {
            self.lists[ply] = list;
            return 0;
        }

        let pv_node = beta - alpha > 1;
        let entry = self.tt.probe(hash);
        let mut tt_move = None;
        if let Some(e) = entry {
            tt_move = e.best.filter(|mv| list.contains(mv));
            if !pv_node && e.depth as i32 >= depth {
                let score = score_from_table(e.score, ply);
                let usable = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if usable {
                    self.lists[ply] = list;
                    return score;
                }
            }
        }

        let def = board.rules().def;
        let us = pos.side as usize;
        if allow_null
            && !pv_node
            && !in_check
            && depth >= 3
            && !def.must_capture
            // With seats a null move would hand the turn to the wrong seat
            // and let a mated king wait untaken: none there.
            && board.rules().t.seats.is_none()
            && ev.evaluate(board) >= beta
            && has_pieces(ev, board, us)
        {
            let mut child = *board;
            child.make_null();
            let reduction = 2 + depth / 4;
            self.path.push(hash);
            let score = -self.negamax(
                ev,
                &child,
                depth - 1 - reduction,
                -beta,
                -beta + 1,
                ply + 1,
                false,
            );
            self.path.pop();
            if self.aborted {
                self.lists[ply] = list;
                return 0;
            }
            if score >= beta && score < MATE_BOUND {
                self.lists[ply] = list;
                return beta;
            }
        }

        let mut order = self.order_moves(ev, board, &list, tt_move, ply);
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = None;
        self.path.push(hash);
        for (searched, i) in (0..list.len()).enumerate() {
            let mv = take_best(&mut list, &mut order, i);
            let quiet = !mv.is_capture() && mv.promotion == 0;
            let mut child = *board;
            child.make(mv);
            // Where pieces come back as drops, checks are where games are won: never reduced.
            let checks = ev.drops() && depth >= 3 && searched >= 3 && child.in_check();

            let mut score;
            if searched == 0 {
                score = -self.negamax(ev, &child, depth - 1, -beta, -alpha, ply + 1, true);
            } else {
                let reduction = if quiet
                    && !in_check
                    && !checks
                    && depth >= 3
                    && searched >= 3
                    && order[i] < 999_000
                {
                    1 + (searched >= 8 && depth >= 6) as i32
                } else {
                    0
                };
                score = -self.negamax(
                    ev,
                    &child,
                    depth - 1 - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    true,
                );
                if score > alpha && reduction > 0 && !self.aborted {
                    score = -self.negamax(ev, &child, depth - 1, -alpha - 1, -alpha, ply + 1, true);
                }
                if score > alpha && score < beta && !self.aborted {
                    score = -self.negamax(ev, &child, depth - 1, -beta, -alpha, ply + 1, true);
                }
            }
            if self.aborted {
                break;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(mv);
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    let line = &mut head[ply];
                    line.clear();
                    line.push(mv);
                    line.extend_from_slice(&tail[0]);
                    if score >= beta {
                        if quiet {
                            let killers = &mut self.killers[ply];
                            if killers[0] != Some(mv) {
                                killers[1] = killers[0];
                                killers[0] = Some(mv);
                            }
                            let h = &mut self.history[history_index(board.side_to_move(), mv)];
                            *h = (*h + depth * depth).min(HISTORY_LIMIT);
                        }
                        break;
                    }
                }
            }
        }
        self.path.pop();
        self.order[ply] = order;
        self.lists[ply] = list;
        if self.aborted {
            return 0;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            hash,
            best_move,
            score_to_table(best_score, ply),
            depth,
            bound,
        );
        best_score
    }

    /// Captures (and promotions) until the position is quiet; every
    /// evasion when in check; every forced capture where capturing is
    /// compulsory, since standing pat is not a choice there.
    fn quiesce<B: Bits>(
        &mut self,
        ev: &Evaluator,
        board: &Board<'_, B>,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: usize,
    ) -> i32 {
        self.pv[ply].clear();
        if self.check_abort() {
            return 0;
        }
        self.nodes += 1;
        let mut list = std::mem::take(&mut self.lists[ply]);
        board.legal_moves_into(&mut list);
        if list.is_empty() {
            let score = self.terminal(board, &list, ply);
            self.lists[ply] = list;
            return score;
        }
        if ev.hill() && list.iter().any(|&mv| reaches_hill(board, mv)) {
            // The king steps onto the hill: won.
            self.lists[ply] = list;
            return MATE - ply as i32 - 1;
        }
        let stand = ev.evaluate(board);
        if ply >= MAX_PLY - 1 || qdepth >= MAX_QUIESCENCE {
            self.lists[ply] = list;
            return stand;
        }
        let def = board.rules().def;
        let in_check = board.in_check();
        let forced = def.must_capture && list.iter().all(|mv| mv.is_capture());
        let every_move = in_check || forced;
        let mut best_score = -INFINITY;
        if !every_move {
            if stand >= beta {
                self.lists[ply] = list;
                return stand;
            }
            alpha = alpha.max(stand);
            best_score = stand;
            // With drops, the first quiescence ply also tries the drops that
            // give check: a drop mate behind the horizon is seen.
            let checks = (ev.drops() && qdepth == 0).then(|| drop_check_squares(board));
            list.retain(|mv| {
                mv.is_capture()
                    || mv.promotion != 0
                    || (mv.kind == MoveKind::Drop
                        && checks
                            .as_ref()
                            .is_some_and(|c| c[mv.piece as usize % c.len()].has(mv.to as usize)))
            });
        }
        let mut order = self.order_moves(ev, board, &list, None, ply);
        for i in 0..list.len() {
            let mv = take_best(&mut list, &mut order, i);
            let mut child = *board;
            child.make(mv);
            let score = -self.quiesce(ev, &child, -beta, -alpha, ply + 1, qdepth + 1);
            if self.aborted {
                break;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.order[ply] = order;
        self.lists[ply] = list;
        best_score
    }
}

/// Whether `mv` puts a royal piece on a flag square (king of the hill).
fn reaches_hill<B: Bits>(board: &Board<'_, B>, mv: Move) -> bool {
    let rules = board.rules();
    mv.kind != MoveKind::Drop
        && rules.t.flag.has(mv.to as usize)
        && rules
            .def
            .pieces
            .get(mv.piece as usize)
            .is_some_and(|p| p.royal)
}

/// Per piece type, the squares where the side to move may drop it to give
/// check (see [`super::eval::drop_checks`]).
fn drop_check_squares<B: Bits>(board: &Board<'_, B>) -> [B; crate::tables::MAX_TYPES] {
    let mut out = [B::EMPTY; crate::tables::MAX_TYPES];
    let pos = board.position();
    let rules = board.rules();
    let us = pos.side as usize;
    let Some(royal) = rules.royal_type() else {
        return out;
    };
    let Some(king) = super::eval::king_of(pos, royal, 1 - us) else {
        return out;
    };
    let occupied = pos.occupied();
    for (ty, squares) in out.iter_mut().enumerate().take(rules.def.pieces.len()) {
        if pos.pockets[us][ty] > 0 {
            *squares = super::eval::drop_checks(rules, occupied, ty, us, king) & !occupied;
        }
    }
    out
}

/// Whether `side` has a piece other than pawns and its royal piece (null
/// moves are unsafe in pawn endings: zugzwang).
fn has_pieces<B: Bits>(ev: &Evaluator, board: &Board<'_, B>, side: usize) -> bool {
    let pos = board.position();
    let def = board.rules().def;
    (0..def.pieces.len()).any(|ty| {
        !def.pieces[ty].pawn && ev.value(ty) > 0 && (pos.by_type[ty] & pos.by_side[side]).any()
    }) || pos.pockets[side].iter().any(|&n| n > 0)
}

#[inline]
fn history_index(side: Side, mv: Move) -> usize {
    ((side.index() & 1) * crate::tables::MAX_TYPES + mv.piece as usize % crate::tables::MAX_TYPES)
        * MAX_SQUARES
        + mv.to as usize % MAX_SQUARES
}

/// Mate scores are stored relative to the node, read back relative to the root.
fn score_to_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_table(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Selection sort, one step: moves the most promising of `list[i..]` (by
/// `order`) to `i` and returns it.
fn take_best(list: &mut [Move], order: &mut [i32], i: usize) -> Move {
    let mut pick = i;
    for j in i + 1..list.len() {
        if order[j] > order[pick] {
            pick = j;
        }
    }
    list.swap(i, pick);
    order.swap(i, pick);
    list[i]
}
