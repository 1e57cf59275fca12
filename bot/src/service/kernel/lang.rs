//! Languages: who reads what in which language (a person's choice, the
//! platform's locale, the chat's choice, the default), cached in memory.

use super::request::Ctx;
use super::service::Service;
use crate::api::Request;
use crate::i18n::Lang;
use crate::store::{GameRow, StoreError};

pub(crate) use crate::store::LangOwner;

impl Service {
    /// A user's or chat's chosen language. Choices are cached in memory: they
    /// change only through `/lang`, in this process or in another on the same
    /// PostgreSQL database, which announces it (see `changes.rs`).
    pub(crate) async fn chosen_lang(
        &self,
        owner: LangOwner,
        platform: &str,
        id: &str,
    ) -> Option<Lang> {
        let key = (owner, platform.to_owned(), id.to_owned());
        if let Some(hit) = self
            .inner
            .lang_choices
            .lock()
            .ok()
            .and_then(|cache| cache.get(&key).copied())
        {
            return hit;
        }
        let stored = self.inner.store.lang(owner, platform, id).await;
        match stored {
            Ok(code) => {
                let lang = code.as_deref().and_then(Lang::parse);
                if let Ok(mut cache) = self.inner.lang_choices.lock() {
                    cache.insert(key, lang);
                }
                lang
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot read a language choice");
                None
            }
        }
    }

    /// Stores a language choice and updates the cache.
    pub(crate) async fn choose_lang(
        &self,
        owner: LangOwner,
        platform: &str,
        id: &str,
        lang: Lang,
    ) -> Result<(), StoreError> {
        self.inner
            .store
            .set_lang(owner, platform, id, lang.code())
            .await?;
        if let Ok(mut cache) = self.inner.lang_choices.lock() {
            cache.insert((owner, platform.to_owned(), id.to_owned()), Some(lang));
        }
        self.tell_processes(super::changes::Change::Lang(
            owner,
            platform.to_owned(),
            id.to_owned(),
        ))
        .await;
        Ok(())
    }

    pub(crate) async fn user_lang(&self, platform: &str, user: &str) -> Lang {
        self.chosen_lang(LangOwner::User, platform, user)
            .await
            .unwrap_or(self.inner.settings.default_lang)
    }

    /// A chat's language: `/lang chat`, else the platform's locale of the
    /// chat (a Discord guild's, as last seen), else the default.
    pub(crate) async fn chat_lang(&self, platform: &str, chat: &str) -> Lang {
        if let Some(lang) = self.chosen_lang(LangOwner::Chat, platform, chat).await {
            return lang;
        }
        self.inner
            .chat_locales
            .lock()
            .ok()
            .and_then(|seen| seen.get(&(platform.to_owned(), chat.to_owned())).copied())
            .unwrap_or(self.inner.settings.default_lang)
    }

    /// The language of a public message about `row` in its chat: the
    /// request's chat language when the game lives there.
    pub(crate) async fn game_chat_lang(&self, ctx: &Ctx, row: &GameRow) -> Lang {
        if row.chat_id == ctx.req.chat.id && row.platform == ctx.platform() {
            ctx.chat_lang
        } else {
            self.chat_lang(&row.platform, &row.chat_id).await
        }
    }

    /// The language of what is posted in the request's chat; remembers the
    /// chat's platform locale for messages sent later (flags, expiries).
    pub(crate) async fn request_chat_lang(&self, req: &Request, actor_lang: Lang) -> Lang {
        if req.private {
            return actor_lang;
        }
        let platform = req.chat.platform.key();
        if let Some(lang) = req.chat_locale.as_deref().and_then(Lang::parse) {
            if let Ok(mut seen) = self.inner.chat_locales.lock() {
                seen.insert((platform.to_owned(), req.chat.id.clone()), lang);
            }
        }
        self.chat_lang(platform, &req.chat.id).await
    }

    /// The actor's choice, else the platform locale, else the chat's, else the default.
    pub(crate) async fn actor_lang(&self, req: &Request) -> Lang {
        let platform = req.chat.platform.key();
        if let Some(lang) = self
            .chosen_lang(LangOwner::User, platform, &req.actor.id)
            .await
        {
            return lang;
        }
        if let Some(lang) = req.locale.as_deref().and_then(Lang::parse) {
            return lang;
        }
        self.chat_lang(platform, &req.chat.id).await
    }
}
