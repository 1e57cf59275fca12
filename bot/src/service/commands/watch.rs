//! Spectators: `/watch <game>` makes the request's chat (a group or channel,
//! or the person in a private chat; the *Watch* button: the person who
//! pressed it) hear a game's public messages — exactly what the game's own
//! chat hears, so a hidden-information game shows them no more than its
//! public view, and its record only once it is over. Stored, so watching
//! survives a restart; forgotten when the game ends or on `/unwatch`.

use crate::api::{ChatRef, Delivery, Target, UserRef};
use crate::i18n::Lang;
use crate::service::kernel::apply::Event;
use crate::service::kernel::{Ctx, Msg, Outcome, Service};
use crate::service::present::chat_of;
use crate::store::{GameRow, Status, Watcher};
use kodex_engine::{Audience, Game};

/// The most games one chat or person watches at once.
pub const MAX_WATCHED: usize = 5;

impl Service {
    /// `/watch <game>` (`privately`: the Watch button, for the presser alone).
    pub(crate) async fn watch(&self, ctx: &Ctx, game: Option<String>, privately: bool) -> Outcome {
        let row = self.watched_game(ctx, game).await?;
        // Nobody starts watching a game refused for its definition.
        self.variant(&row)?;
        if !matches!(
            row.status,
            Status::Challenge | Status::Setup | Status::Active
        ) {
            return Err(Msg::new("error-watch-over")
                .arg("id", row.id.clone())
                .into());
        }
        let watcher = self.watcher_of(ctx, privately);
        let here = |chat: &String| *chat == row.chat_id || row.home_chat_id.as_ref() == Some(chat);
        // A Watch button from before Discord boards lost it, pressed in the
        // game's channel: the channel shows it all already.
        let copies_here = privately
            && ctx.req.chat.platform == crate::api::Platform::Discord
            && here(&ctx.req.chat.id);
        if matches!(&watcher, Watcher::Chat(chat) if here(chat)) || copies_here {
            return Err(Msg::new("error-watch-here")
                .arg("id", row.id.clone())
                .into());
        }
        let store = &self.inner.store;
        if store.watched_by(ctx.platform(), &watcher).await? >= MAX_WATCHED {
            return Err(Msg::new("error-watch-limit")
                .arg("max", MAX_WATCHED as i64)
                .into());
        }
        if !store
            .add_watcher(ctx.platform(), &row.id, &watcher, self.now())
            .await?
        {
            return Err(Msg::new("error-watch-already")
                .arg("id", row.id.clone())
                .into());
        }
        tracing::info!(game = %row.id, "watched");
        let lang = match watcher {
            Watcher::Chat(_) => ctx.chat_lang,
            Watcher::User(_) => ctx.lang,
        };
        let msg = Msg::new("watch-started")
            .arg("id", row.id.clone())
            .arg("game", self.describe(lang, &row));
        let mut answer = self.watch_answer(ctx, &watcher, msg).await;
        if row.status == Status::Active {
            // Where the game stands now, as its chat sees it: whose turn,
            // and the board unless it is hidden.
            let game = self.replay(&row)?;
            answer.text.push('\n');
            answer.text.push_str(&self.turn_text(lang, &row, &game));
            if !game.variant().hidden_information() {
                let view = game.view(Audience::Full);
                let bottom = self.chat_bottom(&row, &game, false).await;
                let decor = self.public_decor(lang, &row, &game, bottom, &view);
                let file_name = format!("{}-{}.png", row.id, row.move_list().len());
                self.attach_board(&mut answer, view, decor, file_name).await;
            }
        }
        Ok(vec![answer])
    }

    /// `/unwatch <game>`.
    pub(crate) async fn unwatch(&self, ctx: &Ctx, game: Option<String>) -> Outcome {
        let row = self.watched_game(ctx, game).await?;
        let watcher = self.watcher_of(ctx, false);
        if !self
            .inner
            .store
            .remove_watcher(ctx.platform(), &row.id, &watcher)
            .await?
        {
            return Err(Msg::new("error-not-watching")
                .arg("id", row.id.clone())
                .into());
        }
        let msg = Msg::new("watch-stopped").arg("id", row.id.clone());
        Ok(vec![self.watch_answer(ctx, &watcher, msg).await])
    }

    /// The game a `/watch` names (an id is needed: the game is elsewhere).
    async fn watched_game(&self, ctx: &Ctx, game: Option<String>) -> Outcome<GameRow> {
        let Some(id) = game.filter(|id| !id.trim().is_empty()) else {
            return Err(Msg::new("error-watch-usage").into());
        };
        self.by_id(ctx, &id).await
    }

    /// Who watches: the person (in a private chat, or by the button), else
    /// the chat.
    fn watcher_of(&self, ctx: &Ctx, privately: bool) -> Watcher {
        if privately || ctx.req.private {
            Watcher::User(ctx.actor().id.clone())
        } else {
            Watcher::Chat(ctx.req.chat.id.clone())
        }
    }

    /// The confirmation: said in the chat that now watches (everyone there
    /// hears what follows), or to the person.
    async fn watch_answer(&self, ctx: &Ctx, watcher: &Watcher, msg: Msg) -> Delivery {
        match watcher {
            Watcher::Chat(_) => Delivery {
                notify: Vec::new(),
                target: Target::Chat(ctx.req.chat.clone()),
                text: self.text(ctx.chat_lang, &msg),
                image: None,
                buttons: Vec::new(),
                game: None,
            },
            Watcher::User(_) => self.reply(ctx, &msg),
        }
    }

    /// The game's last message ends the watching: forgets `row`'s
    /// spectators once it is over.
    async fn forget_watchers_when_over(&self, row: &GameRow) {
        if !row.status.is_over() {
            return;
        }
        if let Err(e) = self
            .inner
            .store
            .forget_watchers(&row.platform, &row.id)
            .await
        {
            tracing::warn!(game = %row.id, error = %e, "cannot forget the spectators");
        }
    }

    /// Where each spectator of `row` hears it, and in which language; the
    /// game's second chat (see [`GameRow::guest_chat_id`]) first, as a
    /// spectator that keeps the players' buttons.
    async fn spectators(&self, row: &GameRow) -> Vec<(Target, Lang)> {
        let mut spectators = Vec::new();
        let platform = chat_of(row).platform;
        if let Some(guest) = &row.guest_chat_id {
            spectators.push((
                Target::Chat(ChatRef {
                    platform,
                    id: guest.clone(),
                }),
                self.chat_lang(&row.platform, guest).await,
            ));
        }
        let watchers = match self.inner.store.watchers_of(&row.platform, &row.id).await {
            Ok(watchers) => watchers,
            Err(e) => {
                tracing::warn!(game = %row.id, error = %e, "cannot read the spectators");
                return Vec::new();
            }
        };
        for watcher in watchers {
            if matches!(&watcher, Watcher::Chat(id) if row.guest_chat_id.as_ref() == Some(id)) {
                continue;
            }
            spectators.push(match &watcher {
                Watcher::Chat(id) => (
                    Target::Chat(ChatRef {
                        platform,
                        id: id.clone(),
                    }),
                    self.chat_lang(&row.platform, id).await,
                ),
                Watcher::User(id) => (
                    Target::Private(UserRef {
                        platform,
                        id: id.clone(),
                        name: String::new(),
                        handle: None,
                    }),
                    self.user_lang(&row.platform, id).await,
                ),
            });
        }
        spectators
    }

    /// A public note about `row` that is no move (a hidden setup's "bob is
    /// ready", its start, an abort): for the game's chat in `chat_lang`, and
    /// the same words for each spectator in theirs. `lines` writes the note
    /// in a language.
    pub(crate) async fn public_note(
        &self,
        row: &GameRow,
        chat_lang: Lang,
        lines: impl Fn(Lang) -> Vec<String>,
    ) -> Vec<Delivery> {
        let mut deliveries = vec![self.setup_note(chat_lang, row, lines(chat_lang))];
        for (target, lang) in self.spectators(row).await {
            let mut copy = self.setup_note(lang, row, lines(lang));
            copy.target = target;
            deliveries.push(copy);
        }
        self.forget_watchers_when_over(row).await;
        deliveries
    }

    /// The public message about `event` for each spectator of `row`, in
    /// their language: built like the game chat's own public message (same
    /// texts, same public view, the same `notes` before them), without its
    /// buttons. The game's last message ends the watching.
    pub(crate) async fn spectator_copies(
        &self,
        row: &GameRow,
        game: &Game,
        event: &Event,
        chat_lang: Lang,
        public: &Delivery,
        notes: &[Msg],
    ) -> Vec<Delivery> {
        let spectators = self.spectators(row).await;
        if spectators.is_empty() {
            return Vec::new();
        }
        let mut by_lang: Vec<(Lang, Delivery)> = vec![(chat_lang, public.clone())];
        let mut copies = Vec::new();
        for (target, lang) in spectators {
            let known = by_lang.iter().find(|(known, _)| *known == lang);
            let mut copy = match known {
                Some((_, delivery)) => delivery.clone(),
                None => {
                    let delivery = self.public_message(row, game, event, lang, notes).await;
                    by_lang.push((lang, delivery.clone()));
                    delivery
                }
            };
            let guest = is_guest_chat(row, &target);
            copy.target = target;
            if let Some(game) = &mut copy.game {
                // A thread of its own is made for the game's own chat only.
                game.started = false;
                // Each chat's own choice of board messages.
                game.edit_board = match &copy.target {
                    Target::Chat(chat) if game.turn.is_some() => {
                        self.board_messages(chat.platform.key(), &chat.id).await
                            == crate::api::BoardMessages::Edit
                    }
                    _ => false,
                };
            }
            if !guest {
                copy.buttons.clear();
                // Spectators are told, not asked: nobody is pinged where they watch.
                copy.notify.clear();
                if let Some(card) = copy.game.as_mut().and_then(|game| game.turn.as_mut()) {
                    // Spectators get the turn, not the players' buttons.
                    card.buttons.clear();
                }
            }
            copies.push(copy);
        }
        self.forget_watchers_when_over(row).await;
        copies
    }
}

/// Whether `target` is the game's second chat, where its players are too.
fn is_guest_chat(row: &GameRow, target: &Target) -> bool {
    matches!(target, Target::Chat(chat) if row.guest_chat_id.as_ref() == Some(&chat.id))
}
