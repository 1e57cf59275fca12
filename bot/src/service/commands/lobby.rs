//! The lobby: `/lobby`, `/playnow`, `/invite` and `/join` — offers beyond
//! one chat.
//!
//! A *public seek* (`/play … public`, or a `/playnow` that found nothing to
//! join) is an open challenge anyone on the platform may take, from any
//! chat. An *invitation* (`/invite`) is a challenge only its one-time code
//! takes (`/join <code>`, or on Telegram the link `t.me/<bot>?start=join_<code>`).
//! Either one taken in another chat makes a game of two chats
//! ([`GameRow::guest_chat_id`]): each chat hears its public messages, and
//! moves may be typed in either. Both are stored challenges, so they expire
//! like one and outlive a restart.

use crate::api::{Button, ButtonAction, Delivery, Platform, Target};
use crate::clock::TimeControl;
use crate::i18n::Lang;
use crate::rating::Rating;
use crate::service::kernel::ids::new_game_id;
use crate::service::kernel::terms::{is_team_variant, rated_choice, ColorChoice};
use crate::service::kernel::{Ctx, Msg, Outcome, Service};
use crate::store::{GameRow, Status};
use crate::time::Millis;

/// The most offers one `/lobby` answer lists, each with its Accept button.
pub(crate) const LOBBY_SHOWN: usize = 10;

/// The most public seeks read for one `/lobby` or `/playnow`.
const SEEKS_READ: usize = 200;

/// The variant and clock of the seek `/playnow` publishes when none is named.
const SEEK_VARIANT: &str = "chess";
const SEEK_CLOCK: &str = "5+3";

/// How far apart two ratings may be for `/playnow` to pair them, for an
/// offer that has waited `waited` ms: 300 at first, 100 more each minute it
/// waits, so that nobody waits for good for a near opponent.
pub(crate) fn rating_window(waited: Millis) -> f64 {
    300.0 + 100.0 * (waited.max(0) as f64 / 60_000.0)
}

/// Whether `row` is an offer anyone but its challenger may take: an open
/// two-player challenge, named to nobody, no invitation.
fn open_offer(row: &GameRow) -> bool {
    row.status == Status::Challenge
        && row.opponent_id.is_none()
        && row.invite_code.is_none()
        && row.seats.is_empty()
}

impl Service {
    /// The variant id a lobby command names (`None`: any), or the refusal
    /// naming an unknown one.
    fn lobby_variant(&self, typed: Option<&str>) -> Outcome<Option<String>> {
        let Some(typed) = typed.map(str::trim).filter(|t| !t.is_empty()) else {
            return Ok(None);
        };
        Ok(Some(self.known_variant(typed)?.id().to_owned()))
    }

    /// The offers the request's chat sees: its own open challenges first,
    /// then the platform's public seeks of other chats, each oldest first,
    /// of `variant` when given. Each with whether it is this chat's.
    async fn offers(&self, ctx: &Ctx, variant: Option<&str>) -> Outcome<Vec<(GameRow, bool)>> {
        let store = &self.inner.store;
        let here = &ctx.req.chat.id;
        let mut offers: Vec<(GameRow, bool)> = Vec::new();
        if !ctx.req.private {
            for row in store.challenges_in(ctx.platform(), here).await? {
                offers.push((row, true));
            }
        }
        for row in store.public_seeks(ctx.platform(), SEEKS_READ).await? {
            if row.chat_id != *here {
                offers.push((row, false));
            }
        }
        offers.retain(|(row, _)| {
            open_offer(row) && variant.is_none_or(|variant| row.variant == variant)
        });
        Ok(offers)
    }

    /// `user`'s rating in `variant` now (a new player's when they have none).
    async fn rating_now(&self, platform: &str, user: &str, variant: &str) -> Outcome<Rating> {
        let row = self.inner.store.rating_of(platform, user, variant).await?;
        Ok(row.map_or_else(Rating::default, |row| row.current(self.now())))
    }

    /// `/lobby [variant]`: the open challenges of this chat and the public
    /// seeks of the platform, each with its variant, clock, whether it is
    /// rated and the challenger's rating, and an Accept button (not on the
    /// caller's own).
    pub(crate) async fn lobby(&self, ctx: &Ctx, variant: Option<String>) -> Outcome {
        let variant = self.lobby_variant(variant.as_deref())?;
        let offers = self.offers(ctx, variant.as_deref()).await?;
        let lang = ctx.chat_lang;
        let mut lines = Vec::new();
        if offers.is_empty() {
            lines.push(self.text(lang, &Msg::new("lobby-empty")));
        } else {
            lines.push(self.text(
                lang,
                &Msg::new("lobby-header").arg("count", offers.len() as i64),
            ));
        }
        let mut buttons = Vec::new();
        for (row, here) in offers.iter().take(LOBBY_SHOWN) {
            lines.push(self.offer_line(lang, row, *here).await?);
            if row.challenger_id != ctx.actor().id {
                buttons.push(Button::new(
                    self.text(
                        lang,
                        &Msg::new("button-accept-offer").arg("id", row.id.clone()),
                    ),
                    &ButtonAction::Accept {
                        game: row.id.clone(),
                    },
                ));
            }
        }
        if offers.len() > LOBBY_SHOWN {
            lines.push(self.text(
                lang,
                &Msg::new("lobby-more").arg("count", (offers.len() - LOBBY_SHOWN) as i64),
            ));
        }
        if !offers.is_empty() {
            lines.push(self.text(lang, &Msg::new("lobby-how")));
        }
        // The lobby is for the chat: anyone in it may take an offer.
        Ok(vec![Delivery {
            notify: Vec::new(),
            target: Target::Chat(ctx.req.chat.clone()),
            text: lines.join("\n"),
            image: None,
            buttons,
            game: None,
        }])
    }

    /// "rated" or "casual", as an offer's terms say it.
    fn offer_rated(&self, lang: Lang, row: &GameRow) -> String {
        let key = if row.rated {
            "offer-rated"
        } else {
            "offer-casual"
        };
        self.text(lang, &Msg::new(key))
    }

    /// An invitation's terms: "chess, 5+3, rated".
    fn invite_terms(&self, lang: Lang, row: &GameRow) -> String {
        self.text(
            lang,
            &Msg::new("invite-terms")
                .arg("variant", self.variant_name(lang, &row.variant))
                .arg("clock", self.clock_name(lang, row.time_control))
                .arg("rated", self.offer_rated(lang, row)),
        )
    }

    /// One offer of the lobby: "`k7m2` chess · 5+3 · rated · alice 1523
    /// (here)".
    async fn offer_line(&self, lang: Lang, row: &GameRow, here: bool) -> Outcome<String> {
        let variant = self.variant_name(lang, &row.variant);
        let rating = self
            .rating_now(&row.platform, &row.challenger_id, &row.variant)
            .await?;
        let key = if here {
            "lobby-line-here"
        } else {
            "lobby-line"
        };
        Ok(self.text(
            lang,
            &Msg::new(key)
                .arg("id", row.id.clone())
                .arg("variant", variant)
                .arg("clock", self.clock_name(lang, row.time_control))
                .arg("rated", self.offer_rated(lang, row))
                .arg("player", row.challenger_name.clone())
                .arg("rating", rating.shown()),
        ))
    }

    /// `/playnow [variant] [clock]`: takes the best offer that fits — this
    /// chat's first, then the platform's public seeks, the nearest rating
    /// first, within a distance that widens as the offer waits — or
    /// publishes a seek (chess 5+3 unless named) and tells the caller that
    /// they will hear here when it is taken.
    pub(crate) async fn play_now(
        &self,
        ctx: &Ctx,
        variant: Option<String>,
        clock: Option<String>,
    ) -> Outcome {
        let variant = self.lobby_variant(variant.as_deref())?;
        let wanted_clock = match clock.as_deref() {
            None => None,
            Some(text) => Some(TimeControl::parse(text).map_err(|_| {
                let shown: String = text.chars().take(32).collect();
                Msg::new("error-bad-clock").arg("clock", shown)
            })?),
        };
        let now = self.now();
        let mut best: Option<(bool, f64, GameRow)> = None;
        // The caller's rating in each variant on offer, read once.
        let mut mine: Vec<(String, Rating)> = Vec::new();
        for (row, here) in self.offers(ctx, variant.as_deref()).await? {
            if row.challenger_id == ctx.actor().id
                || wanted_clock.is_some_and(|clock| clock != row.time_control)
            {
                continue;
            }
            let theirs = self
                .rating_now(&row.platform, &row.challenger_id, &row.variant)
                .await?;
            let my = match mine.iter().find(|(variant, _)| *variant == row.variant) {
                Some((_, rating)) => *rating,
                None => {
                    let rating = self
                        .rating_now(ctx.platform(), &ctx.actor().id, &row.variant)
                        .await?;
                    mine.push((row.variant.clone(), rating));
                    rating
                }
            };
            let distance = (theirs.rating - my.rating).abs();
            if distance > rating_window(now - row.created_at) {
                continue;
            }
            // This chat's first, then the nearest; the oldest among equals
            // (offers come oldest first).
            let better = best.as_ref().is_none_or(|(best_here, best_distance, _)| {
                (here, -distance) > (*best_here, -*best_distance)
            });
            if better {
                best = Some((here, distance, row));
            }
        }
        if let Some((_, _, row)) = best {
            self.check_limits(ctx, false).await?;
            tracing::info!(game = %row.id, "play now takes an offer");
            return self.take_challenge(ctx, &row).await;
        }
        self.publish_seek(ctx, variant, clock).await
    }

    /// The seek of a `/playnow` that found nothing to take.
    async fn publish_seek(
        &self,
        ctx: &Ctx,
        variant: Option<String>,
        clock: Option<String>,
    ) -> Outcome {
        let variant = variant.unwrap_or_else(|| SEEK_VARIANT.to_owned());
        let clock = clock.unwrap_or_else(|| SEEK_CLOCK.to_owned());
        let terms = self.game_terms(ctx, &variant, Some(clock), None)?;
        if is_team_variant(&terms.variant) {
            return Err(Msg::new("error-public-open-only").into());
        }
        let rated = rated_choice(None, false, false, terms.time_control)?;
        self.check_limits(ctx, true).await?;
        self.check_seek_limit(ctx).await?;
        let mut row = self.challenge_row(ctx, &terms.variant, &terms.time_control, terms.color);
        row.rated = rated;
        row.public = true;
        self.insert_challenge(&mut row).await?;
        tracing::info!(game = %row.id, variant = %row.variant, "seek published");
        let mut message = self.challenge_message(
            ctx.req.chat.clone(),
            ctx.chat_lang,
            &row,
            &terms.variant,
            terms.color,
            Msg::new("seek-published"),
        );
        // Only the seeker may withdraw it; anyone else takes it.
        message.buttons.retain(|button| {
            ButtonAction::decode(&button.data)
                .is_some_and(|a| matches!(a, ButtonAction::Accept { .. }))
        });
        message.buttons.push(Button::new(
            self.text(ctx.chat_lang, &Msg::new("button-withdraw")),
            &ButtonAction::Decline {
                game: row.id.clone(),
            },
        ));
        Ok(vec![message])
    }

    /// `/invite [variant] [clock] [colour] [rated|casual]`: an invitation
    /// answered privately with its one-time code — on Telegram a link that
    /// opens a private chat with the bot — which the first person to use it
    /// takes, in that chat or any other the bot is in.
    pub(crate) async fn invite(
        &self,
        ctx: &Ctx,
        variant: Option<String>,
        clock: Option<String>,
        color: Option<ColorChoice>,
        rated: Option<bool>,
    ) -> Outcome {
        let variant = variant.unwrap_or_else(|| SEEK_VARIANT.to_owned());
        let terms = self.game_terms(ctx, &variant, clock, color)?;
        if is_team_variant(&terms.variant) {
            return Err(Msg::new("error-invite-two-players").into());
        }
        let rated = rated_choice(rated, false, false, terms.time_control)?;
        self.check_limits(ctx, true).await?;
        let max = self.inner.settings.max_invites;
        let invites = self
            .open_games(ctx)
            .await?
            .iter()
            .filter(|row| row.invite_code.is_some() && row.challenger_id == ctx.actor().id)
            .count();
        if invites >= max {
            return Err(Msg::new("error-too-many-invites")
                .arg("max", max as i64)
                .into());
        }
        let mut row = self.challenge_row(ctx, &terms.variant, &terms.time_control, terms.color);
        row.rated = rated;
        let Some(code) = new_game_id() else {
            tracing::error!("the secure random source failed; no invitation code");
            return Err(Msg::new("error-internal").into());
        };
        row.invite_code = Some(code.clone());
        self.insert_challenge(&mut row).await?;
        tracing::info!(game = %row.id, "invitation made");
        let lang = ctx.lang;
        let minutes = (self.inner.settings.challenge_expiry / 60_000).max(1);
        let terms_text = self.invite_terms(lang, &row);
        let msg = match (ctx.platform(), self.bot_handle(Platform::Telegram)) {
            ("telegram", Some(bot)) => Msg::new("invite-link").arg(
                "link",
                format!(
                    "https://t.me/{bot}?start={}{code}",
                    crate::command::JOIN_PREFIX
                ),
            ),
            _ => Msg::new("invite-code"),
        };
        let msg = msg
            .arg("code", code)
            .arg("terms", terms_text)
            .arg("minutes", minutes);
        let mut answer = self.reply(ctx, &msg);
        if ctx.platform() == Platform::Telegram.key() {
            // A Telegram group has no message for one person only: the
            // code goes to the private chat (or a link to open it).
            answer.target = Target::Private(ctx.actor().clone());
        } else if !ctx.req.private {
            // Elsewhere the answer is seen in the chat it was asked in, by
            // the inviter alone: it may be posted there for anyone to take.
            answer.buttons.push(Button::new(
                self.text(lang, &Msg::new("button-share-invite")),
                &ButtonAction::ShareInvite {
                    game: row.id.clone(),
                },
            ));
        }
        // The inviter may take it back.
        answer.buttons.push(Button::new(
            self.text(lang, &Msg::new("button-withdraw")),
            &ButtonAction::Decline {
                game: row.id.clone(),
            },
        ));
        Ok(vec![answer])
    }

    /// The *Post here* button of an invitation: its inviter posts it in
    /// the chat the button was pressed in, with a Join button; the first
    /// person to press it plays.
    pub(crate) async fn share_invite(&self, ctx: &Ctx, id: &str) -> Outcome {
        let row = self
            .inner
            .store
            .get(ctx.platform(), id)
            .await?
            .filter(|row| row.challenger_id == ctx.actor().id)
            .ok_or_else(|| Msg::new("error-stale-button"))?;
        let Some(code) = row
            .invite_code
            .clone()
            .filter(|_| row.status == Status::Challenge)
        else {
            return Err(Msg::new("error-invitation-used")
                .arg("code", row.id.clone())
                .into());
        };
        let lang = ctx.chat_lang;
        let terms = self.invite_terms(lang, &row);
        let text = self.text(
            lang,
            &Msg::new("invite-posted")
                .arg("player", row.challenger_name.clone())
                .arg("terms", terms)
                .arg("code", code.clone()),
        );
        Ok(vec![Delivery {
            notify: Vec::new(),
            target: Target::Chat(ctx.req.chat.clone()),
            text,
            image: None,
            buttons: vec![Button::new(
                self.text(lang, &Msg::new("button-join")),
                &ButtonAction::Join { code },
            )],
            game: None,
        }])
    }

    /// `/join <code>`: takes the invitation of `code`, here; the game is
    /// played here and where the invitation was made.
    pub(crate) async fn join(&self, ctx: &Ctx, code: &str) -> Outcome {
        let code = code.trim().trim_start_matches(crate::command::JOIN_PREFIX);
        if code.is_empty() {
            return Err(Msg::new("error-join-usage").into());
        }
        let shown: String = code.chars().take(16).collect();
        let code = code.to_lowercase();
        let found = self
            .inner
            .store
            .invitation(ctx.platform(), &code)
            .await?
            .ok_or_else(|| Msg::new("error-no-invitation").arg("code", shown.clone()))?;
        if found.challenger_id == ctx.actor().id {
            return Err(Msg::new("error-own-invitation").into());
        }
        if found.status != Status::Challenge {
            return Err(Msg::new("error-invitation-used").arg("code", shown).into());
        }
        self.check_limits(ctx, false).await?;
        tracing::info!(game = %found.id, "invitation taken");
        self.take_challenge(ctx, &found).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rating_window_widens_as_an_offer_waits() {
        assert_eq!(rating_window(0), 300.0);
        assert_eq!(rating_window(-5), 300.0);
        assert_eq!(rating_window(60_000), 400.0);
        assert!(rating_window(10 * 60_000) >= 1300.0);
        assert!(rating_window(30_000) > rating_window(0));
    }
}
