//! Ratings and results: `/rating [@user]`, `/leaderboard [variant] [global]
//! [page]` and `/stats [@user]`. Ratings change only where a rated game
//! ends (`Store::save`, see `store/ratings.rs`); these commands read them,
//! each answered to the person who asked, in their language.

use crate::api::UserRef;
use crate::rating::PROVISIONAL_RD;
use crate::service::kernel::players::stored_user_id;
use crate::service::kernel::{Ctx, Msg, Outcome, Service};

/// Players on one page of a leaderboard.
pub(crate) const LEADERBOARD_PAGE: usize = 10;

impl Service {
    /// `/rating [@user]`: each variant's rating (RD, or `?` while
    /// provisional), rated games, wins, draws and losses, and the best.
    pub(crate) async fn rating(&self, ctx: &Ctx, user: Option<UserRef>) -> Outcome {
        let (id, name) = self.person(ctx, user).await?;
        let ratings = self.inner.store.ratings_of(ctx.platform(), &id).await?;
        let name = ratings
            .first()
            .map_or(name, |row| shown_name(&row.user_name));
        if ratings.is_empty() {
            let msg = Msg::new("rating-none").arg("player", name);
            return Ok(vec![self.reply(ctx, &msg)]);
        }
        let now = self.now();
        let lang = ctx.lang;
        let mut lines = vec![self.text(lang, &Msg::new("rating-header").arg("player", name))];
        for row in &ratings {
            let current = row.current(now);
            let rd = if current.provisional() {
                "?".to_owned()
            } else {
                format!("{}", current.rd.round() as i64)
            };
            let best = row
                .best
                .map_or_else(|| "—".to_owned(), |best| format!("{}", best.round() as i64));
            lines.push(
                self.text(
                    lang,
                    &Msg::new("rating-line")
                        .arg("variant", self.variant_name(lang, &row.variant))
                        .arg("rating", current.shown())
                        .arg("rd", rd)
                        .arg("games", row.games)
                        .arg("wins", row.wins)
                        .arg("draws", row.draws)
                        .arg("losses", row.losses)
                        .arg("best", best),
                ),
            );
        }
        Ok(vec![self.note(ctx, lines.join("\n"))])
    }

    /// `/leaderboard [variant] [global] [page]`: the settled ratings of a
    /// variant (chess without one), highest first, ten to a page — of the
    /// players of rated games in this chat, or (`global`, and in a private
    /// chat) of the whole platform.
    pub(crate) async fn leaderboard(
        &self,
        ctx: &Ctx,
        variant: Option<String>,
        global: bool,
        page: u32,
    ) -> Outcome {
        let typed = variant.unwrap_or_else(|| "chess".to_owned());
        let variant = self.known_variant(&typed)?;
        let global = global || ctx.req.private;
        let chat = (!global).then_some(ctx.req.chat.id.as_str());
        let now = self.now();
        let mut rows: Vec<_> = self
            .inner
            .store
            .ratings_in(ctx.platform(), variant.id(), chat, PROVISIONAL_RD)
            .await?
            .into_iter()
            .map(|row| (row.current(now), row))
            .filter(|(current, _)| !current.provisional())
            .collect();
        rows.sort_by(|a, b| b.0.rating.total_cmp(&a.0.rating));
        let lang = ctx.lang;
        let name = variant.name(lang.code()).to_owned();
        if rows.is_empty() {
            let key = if global {
                "leaderboard-empty-global"
            } else {
                "leaderboard-empty"
            };
            return Ok(vec![self.reply(ctx, &Msg::new(key).arg("variant", name))]);
        }
        let pages = rows.len().div_ceil(LEADERBOARD_PAGE);
        let page = page as usize;
        if page > pages {
            return Err(Msg::new("error-leaderboard-page")
                .arg("page", page as i64)
                .arg("pages", pages as i64)
                .into());
        }
        let key = if global {
            "leaderboard-header-global"
        } else {
            "leaderboard-header"
        };
        let mut lines = vec![self.text(
            lang,
            &Msg::new(key)
                .arg("variant", name)
                .arg("page", page as i64)
                .arg("pages", pages as i64),
        )];
        let first = (page - 1) * LEADERBOARD_PAGE;
        for (place, (current, row)) in rows.iter().enumerate().skip(first).take(LEADERBOARD_PAGE) {
            lines.push(
                self.text(
                    lang,
                    &Msg::new("leaderboard-line")
                        .arg("place", (place + 1) as i64)
                        .arg("player", shown_name(&row.user_name))
                        .arg("rating", current.shown())
                        .arg("games", row.games),
                ),
            );
        }
        if page < pages {
            let mut next = format!("{} {}", variant.id(), page + 1);
            if global && !ctx.req.private {
                next = format!("{} global {}", variant.id(), page + 1);
            }
            lines.push(self.text(lang, &Msg::new("leaderboard-next").arg("next", next)));
        }
        Ok(vec![self.note(ctx, lines.join("\n"))])
    }

    /// `/stats [@user]`: finished games (rated or not, the computer's
    /// too), results by variant, and the current and best winning streaks.
    pub(crate) async fn stats(&self, ctx: &Ctx, user: Option<UserRef>) -> Outcome {
        let (id, name) = self.person(ctx, user).await?;
        let games = self
            .inner
            .store
            .finished_games_of(ctx.platform(), &id)
            .await?;
        if games.is_empty() {
            let msg = Msg::new("stats-none").arg("player", name);
            return Ok(vec![self.reply(ctx, &msg)]);
        }
        let lang = ctx.lang;
        let total = tally(games.iter().map(|game| game.outcome));
        let mut lines = vec![self.text(
            lang,
            &Msg::new("stats-header")
                .arg("player", name)
                .arg("games", games.len() as i64)
                .arg("wins", total.0)
                .arg("draws", total.1)
                .arg("losses", total.2),
        )];
        // By variant, most played first (then by id).
        let mut variants: Vec<&str> = games.iter().map(|game| game.variant.as_str()).collect();
        variants.sort_unstable();
        variants.dedup();
        let count = |variant: &str| games.iter().filter(|g| g.variant == variant).count();
        variants.sort_by_key(|variant| std::cmp::Reverse(count(variant)));
        for variant in variants {
            let of = games.iter().filter(|game| game.variant == variant);
            let (wins, draws, losses) = tally(of.map(|game| game.outcome));
            lines.push(
                self.text(
                    lang,
                    &Msg::new("stats-variant")
                        .arg("variant", self.variant_name(lang, variant))
                        .arg("games", count(variant) as i64)
                        .arg("wins", wins)
                        .arg("draws", draws)
                        .arg("losses", losses),
                ),
            );
        }
        let (current, best) = streaks(games.iter().map(|game| game.outcome));
        lines.push(
            self.text(
                lang,
                &Msg::new("stats-streak")
                    .arg("current", current)
                    .arg("best", best),
            ),
        );
        Ok(vec![self.note(ctx, lines.join("\n"))])
    }

    /// Whom a `/rating` or `/stats` is about: the caller, or the person
    /// named — by id, or (an `@name` the platform has not resolved) the
    /// rated player of that name.
    async fn person(&self, ctx: &Ctx, user: Option<UserRef>) -> Outcome<(String, String)> {
        let Some(user) = user else {
            return Ok((ctx.actor().id.clone(), shown_name(&ctx.actor().name)));
        };
        let id = stored_user_id(&user.id);
        if let Some(name) = id.strip_prefix('@') {
            if let Some(found) = self
                .inner
                .store
                .rated_user_named(ctx.platform(), name)
                .await?
            {
                return Ok(found);
            }
        }
        Ok((id, shown_name(&user.name)))
    }
}

/// A person's name as these answers show it: at most 64 characters.
fn shown_name(name: &str) -> String {
    name.chars().take(64).collect()
}

/// Wins, draws and losses among `outcomes` (1, 0, −1; `None` counts as none).
fn tally(outcomes: impl Iterator<Item = Option<i8>>) -> (i64, i64, i64) {
    outcomes.fold((0, 0, 0), |(w, d, l), outcome| match outcome {
        Some(1) => (w + 1, d, l),
        Some(0) => (w, d + 1, l),
        Some(_) => (w, d, l + 1),
        None => (w, d, l),
    })
}

/// The winning streak at the end of `outcomes` (oldest first) and the
/// longest one: wins in a row, broken by a draw or a loss.
fn streaks(outcomes: impl Iterator<Item = Option<i8>>) -> (i64, i64) {
    let (mut current, mut best) = (0, 0);
    for outcome in outcomes {
        match outcome {
            Some(1) => {
                current += 1;
                best = best.max(current);
            }
            Some(_) => current = 0,
            None => {}
        }
    }
    (current, best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streaks_count_wins_in_a_row() {
        let games = [1, 1, 0, 1, 1, 1, -1, 1].map(Some);
        assert_eq!(streaks(games.into_iter()), (1, 3));
        assert_eq!(streaks([Some(1), None, Some(1)].into_iter()), (2, 2));
        assert_eq!(streaks(std::iter::empty()), (0, 0));
        assert_eq!(tally(games.into_iter()), (6, 1, 1));
    }
}
