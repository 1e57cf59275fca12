//! The personal ticker (`/notify on|off`, on by default): news of a
//! person's games said in a chat other than the one they last wrote in — a
//! challenge to them, an offer they are asked to answer, an opponent's move
//! in a correspondence game — reaches them privately too, with the
//! message's buttons, so that they can answer from where they are.
//!
//! Only what a chat was told is forwarded (never a private board), and
//! only to the people the message asks to act ([`Delivery::notify`]). On
//! Telegram a bot may write only to people who started it: the ticker
//! writes only to people who once wrote to the bot privately.

use crate::api::{Delivery, Platform, Target, UserRef};
use crate::clock::TimeControl;
use crate::service::kernel::players::is_computer;
use crate::service::kernel::{Ctx, Msg, Outcome, Service};

/// The most characters of a chat's message a ticker note repeats.
const NEWS_CHARS: usize = 1_000;

/// People whose last chat one process keeps in memory (to write only when
/// it changes) before it forgets them all.
const PRESENCE_CACHE: usize = 50_000;

impl Service {
    /// `/notify on|off` (without a word: says which).
    pub(crate) async fn set_ticker(&self, ctx: &Ctx, on: Option<bool>) -> Outcome {
        let platform = ctx.platform();
        let user = &ctx.actor().id;
        let on = match on {
            Some(on) => {
                self.inner
                    .store
                    .set_notify(platform, user, on, self.now())
                    .await?;
                on
            }
            None => self.inner.store.presence(platform, user).await?.notify,
        };
        let key = if on { "ticker-on" } else { "ticker-off" };
        let mut msg = Msg::new(key);
        if on && platform == Platform::Telegram.key() && !ctx.req.private {
            msg = Msg::new("ticker-on-telegram");
        }
        Ok(vec![self.reply(ctx, &msg)])
    }

    /// Remembers the chat the actor wrote in (written only when it changed).
    pub(crate) async fn note_presence(&self, ctx: &Ctx) {
        let actor = ctx.actor();
        if actor.computer_level().is_some()
            || matches!(ctx.req.action, crate::api::Action::Relocate { .. })
        {
            return;
        }
        let key = (ctx.platform().to_owned(), actor.id.clone());
        let seen = (ctx.req.chat.id.clone(), ctx.req.private);
        {
            let Ok(mut cache) = self.inner.presence.lock() else {
                return;
            };
            // Private once is private for good: a later group message
            // changes the chat, not that.
            if let Some((chat, private)) = cache.get(&key) {
                if *chat == seen.0 && (*private || !seen.1) {
                    return;
                }
            }
            if cache.len() >= PRESENCE_CACHE {
                cache.clear();
            }
            cache.insert(key, seen.clone());
        }
        if let Err(e) = self
            .inner
            .store
            .seen_in(ctx.platform(), &actor.id, &seen.0, seen.1, self.now())
            .await
        {
            tracing::warn!(error = %e, "cannot remember where someone wrote");
        }
        // Another process that kept where they wrote before reads it again.
        self.tell_processes(crate::service::kernel::changes::Change::Presence(
            ctx.platform().to_owned(),
            actor.id.clone(),
        ))
        .await;
    }

    /// The ticker's private notes for `deliveries`, the answer to `ctx`:
    /// for each person a chat's message asks to act (not the actor, who is
    /// there), when they last wrote in another chat, want the ticker, and
    /// the bot may write to them; a turn only in a correspondence game.
    pub(crate) async fn ticker_notes(&self, ctx: &Ctx, deliveries: &[Delivery]) -> Vec<Delivery> {
        let mut notes: Vec<Delivery> = Vec::new();
        let mut told: Vec<(String, String)> = Vec::new();
        for delivery in deliveries {
            let (Target::Chat(chat), Some(game)) = (&delivery.target, &delivery.game) else {
                continue;
            };
            for person in &delivery.notify {
                if person.id == ctx.actor().id
                    || is_computer(&person.id)
                    || person.id.starts_with('@')
                    || told.contains(&(person.id.clone(), game.id.clone()))
                {
                    continue;
                }
                let platform = chat.platform.key();
                // Most news asks someone who wrote here last (this process
                // saw it): nothing to read then. A turn counts only in a
                // correspondence game.
                if self.last_seen_in(platform, &person.id).as_deref() == Some(chat.id.as_str())
                    || (game.turn.is_some()
                        && !self.is_correspondence(ctx, platform, &game.id).await)
                {
                    continue;
                }
                let presence = match self.inner.store.presence(platform, &person.id).await {
                    Ok(presence) => presence,
                    Err(e) => {
                        tracing::warn!(error = %e, "cannot read the ticker's settings");
                        continue;
                    }
                };
                let Some(last) = presence.last_chat.as_deref() else {
                    continue;
                };
                // Told where they are already: this chat, or the game's
                // other chat when the answer says it there too.
                let heard_there = deliveries.iter().any(|d| {
                    matches!(&d.target, Target::Chat(c) if c.id == last)
                        && d.game.as_ref().is_some_and(|g| g.id == game.id)
                });
                if !presence.notify
                    || last == chat.id
                    || heard_there
                    || (chat.platform == Platform::Telegram && !presence.private_ok)
                {
                    continue;
                }
                told.push((person.id.clone(), game.id.clone()));
                notes.push(self.ticker_note(person, &game.id, delivery).await);
            }
        }
        notes
    }

    /// The chat `user` last wrote in, as this process last stored it.
    fn last_seen_in(&self, platform: &str, user: &str) -> Option<String> {
        let cache = self.inner.presence.lock().ok()?;
        cache
            .get(&(platform.to_owned(), user.to_owned()))
            .map(|(chat, _)| chat.clone())
    }

    /// Whether game `id` is played at days per move: from the rows the
    /// request already read when it has it, else from the store.
    async fn is_correspondence(&self, ctx: &Ctx, platform: &str, id: &str) -> bool {
        let per_move =
            |row: &crate::store::GameRow| matches!(row.time_control, TimeControl::PerMove { .. });
        if let Some(row) = ctx
            .open_games
            .get()
            .and_then(|rows| rows.iter().find(|r| r.id == id))
        {
            return per_move(row);
        }
        matches!(self.inner.store.get(platform, id).await, Ok(Some(row)) if per_move(&row))
    }

    /// The private note telling `person` what a chat was told of game `id`.
    async fn ticker_note(&self, person: &UserRef, id: &str, news: &Delivery) -> Delivery {
        let lang = self.user_lang(person.platform.key(), &person.id).await;
        let mut text: String = news.text.chars().take(NEWS_CHARS).collect();
        if text.len() < news.text.len() {
            text.push('…');
        }
        let text = self.text(
            lang,
            &Msg::new("ticker-news")
                .arg("id", id.to_owned())
                .arg("news", text),
        );
        Delivery {
            notify: Vec::new(),
            target: Target::Private(person.clone()),
            text,
            image: None,
            buttons: news.buttons.clone(),
            game: None,
        }
    }
}
