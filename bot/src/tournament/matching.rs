//! Maximum cardinality matching in a general graph (Edmonds' blossom
//! algorithm): the Swiss pairing asks it whether a set of players can still
//! all be paired (FIDE's completion criterion) and for a pairing of last
//! resort. Players' compatibility is not bipartite (anyone may meet anyone),
//! so augmenting paths must shrink odd cycles; O(V³), a few milliseconds
//! for a hundred players.

/// No vertex.
const NONE: usize = usize::MAX;

/// A maximum matching of the graph on `vertices` vertices whose edges
/// `adjacent` names: `mate[v]` is `v`'s partner, `None` if unmatched.
/// Deterministic: the same graph always gives the same matching.
pub(crate) fn maximum_matching(
    vertices: usize,
    adjacent: impl Fn(usize, usize) -> bool,
) -> Vec<Option<usize>> {
    let neighbours: Vec<Vec<usize>> = (0..vertices)
        .map(|v| {
            (0..vertices)
                .filter(|&u| u != v && adjacent(v, u))
                .collect()
        })
        .collect();
    let mut search = Search {
        neighbours: &neighbours,
        mate: vec![NONE; vertices],
        parent: vec![NONE; vertices],
        base: (0..vertices).collect(),
        in_queue: vec![false; vertices],
        in_blossom: vec![false; vertices],
        queue: Vec::with_capacity(vertices),
    };
    // A greedy start leaves few augmenting paths to search for.
    for (v, around) in neighbours.iter().enumerate() {
        if search.mate[v] == NONE {
            if let Some(&u) = around.iter().find(|&&u| search.mate[u] == NONE) {
                search.mate[v] = u;
                search.mate[u] = v;
            }
        }
    }
    for root in 0..vertices {
        if search.mate[root] == NONE {
            let mut v = search.augmenting_path_end(root);
            while v != NONE {
                let parent = search.parent[v];
                let next = search.mate[parent];
                search.mate[v] = parent;
                search.mate[parent] = v;
                v = next;
            }
        }
    }
    search
        .mate
        .into_iter()
        .map(|m| (m != NONE).then_some(m))
        .collect()
}

/// Whether every one of `vertices` vertices can be matched.
pub(crate) fn has_perfect_matching(
    vertices: usize,
    adjacent: impl Fn(usize, usize) -> bool,
) -> bool {
    vertices % 2 == 0
        && maximum_matching(vertices, adjacent)
            .iter()
            .all(Option::is_some)
}

/// The state of one search for an augmenting path.
struct Search<'a> {
    neighbours: &'a [Vec<usize>],
    mate: Vec<usize>,
    parent: Vec<usize>,
    base: Vec<usize>,
    in_queue: Vec<bool>,
    in_blossom: Vec<bool>,
    queue: Vec<usize>,
}

impl Search<'_> {
    /// The unmatched vertex an augmenting path from `root` ends at (the path
    /// runs back through `parent` and `mate`), or `NONE`.
    fn augmenting_path_end(&mut self, root: usize) -> usize {
        let vertices = self.mate.len();
        self.in_queue.iter_mut().for_each(|used| *used = false);
        self.parent.iter_mut().for_each(|parent| *parent = NONE);
        for (v, base) in self.base.iter_mut().enumerate() {
            *base = v;
        }
        self.queue.clear();
        self.in_queue[root] = true;
        self.queue.push(root);
        let mut head = 0;
        while head < self.queue.len() {
            let v = self.queue[head];
            head += 1;
            for index in 0..self.neighbours[v].len() {
                let to = self.neighbours[v][index];
                if self.base[v] == self.base[to] || self.mate[v] == to {
                    continue;
                }
                if to == root || (self.mate[to] != NONE && self.parent[self.mate[to]] != NONE) {
                    // An odd cycle: shrink it into its base.
                    let cycle_base = self.common_ancestor(v, to);
                    self.in_blossom.iter_mut().for_each(|mark| *mark = false);
                    self.mark_path(v, cycle_base, to);
                    self.mark_path(to, cycle_base, v);
                    for u in 0..vertices {
                        if self.in_blossom[self.base[u]] {
                            self.base[u] = cycle_base;
                            if !self.in_queue[u] {
                                self.in_queue[u] = true;
                                self.queue.push(u);
                            }
                        }
                    }
                } else if self.parent[to] == NONE {
                    self.parent[to] = v;
                    if self.mate[to] == NONE {
                        return to;
                    }
                    let next = self.mate[to];
                    self.in_queue[next] = true;
                    self.queue.push(next);
                }
            }
        }
        NONE
    }

    /// The base of the blossom the paths from `a` and `b` to the root meet in.
    fn common_ancestor(&self, mut a: usize, mut b: usize) -> usize {
        let mut on_path = vec![false; self.mate.len()];
        loop {
            a = self.base[a];
            on_path[a] = true;
            if self.mate[a] == NONE {
                break;
            }
            a = self.parent[self.mate[a]];
        }
        loop {
            b = self.base[b];
            if on_path[b] {
                return b;
            }
            b = self.parent[self.mate[b]];
        }
    }

    /// Marks the blossom's vertices from `v` down to `cycle_base`, pointing
    /// their parents around the cycle.
    fn mark_path(&mut self, mut v: usize, cycle_base: usize, mut child: usize) {
        while self.base[v] != cycle_base {
            let mate = self.mate[v];
            self.in_blossom[self.base[v]] = true;
            self.in_blossom[self.base[mate]] = true;
            self.parent[v] = child;
            child = mate;
            v = self.parent[mate];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The size of a maximum matching, by trying everything (small graphs).
    fn brute_force(vertices: usize, edges: &[Vec<bool>], used: &mut Vec<bool>) -> usize {
        let Some(first) = (0..vertices).find(|&v| !used[v]) else {
            return 0;
        };
        used[first] = true;
        let mut best = brute_force(vertices, edges, used);
        for other in 0..vertices {
            if !used[other] && edges[first][other] {
                used[other] = true;
                best = best.max(1 + brute_force(vertices, edges, used));
                used[other] = false;
            }
        }
        used[first] = false;
        best
    }

    #[test]
    fn random_graphs_get_a_valid_maximum_matching() {
        let mut rng = fastrand::Rng::with_seed(29);
        for _ in 0..400 {
            let vertices = rng.usize(0..11);
            let density = rng.f64();
            let mut edges = vec![vec![false; vertices]; vertices];
            let pairs = (0..vertices).flat_map(|a| (a + 1..vertices).map(move |b| (a, b)));
            for (a, b) in pairs {
                let edge = rng.f64() < density;
                edges[a][b] = edge;
                edges[b][a] = edge;
            }
            let mate = maximum_matching(vertices, |a, b| edges[a][b]);
            for (v, partner) in mate.iter().enumerate() {
                if let Some(partner) = *partner {
                    assert!(edges[v][partner]);
                    assert_eq!(mate[partner], Some(v));
                }
            }
            let size = mate.iter().flatten().count() / 2;
            assert_eq!(
                size,
                brute_force(vertices, &edges, &mut vec![false; vertices])
            );
        }
    }

    #[test]
    fn an_odd_cycle_with_a_tail_is_matched_through_its_blossom() {
        // A pentagon 0-1-2-3-4 with tails 4-5 and 0-6-7: the perfect
        // matching 0-1, 2-3, 4-5, 6-7 is found only by shrinking the cycle.
        let edges = [
            (0, 1),
            (1, 2),
            (2, 3),
            (3, 4),
            (4, 0),
            (4, 5),
            (0, 6),
            (6, 7),
        ];
        let adjacent = |a: usize, b: usize| {
            edges
                .iter()
                .any(|&(x, y)| (x, y) == (a, b) || (y, x) == (a, b))
        };
        assert!(has_perfect_matching(8, adjacent));
        assert!(!has_perfect_matching(7, adjacent));
        assert!(!has_perfect_matching(4, |_, _| false));
        assert!(has_perfect_matching(0, |_, _| false));
    }
}
