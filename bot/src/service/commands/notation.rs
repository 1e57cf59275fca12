//! How a person reads moves shown to them alone (`/notation`): SAN with
//! Russian piece letters (Кр Ф Л С К) or English ones (K Q R B N), or by
//! their language. What a chat hears follows the chat's language.

use crate::i18n::Lang;
use crate::service::kernel::{Ctx, Msg, Outcome, Service};

impl Service {
    /// The piece letters of moves shown privately to `user`, whose
    /// language is `lang`: their `/notation` choice, else their language.
    pub(crate) async fn notation_of(&self, platform: &str, user: &str, lang: Lang) -> Lang {
        match self.inner.store.notation(platform, user).await {
            Ok(choice) => choice.as_deref().and_then(Lang::parse).unwrap_or(lang),
            Err(e) => {
                tracing::warn!(error = %e, "cannot read a notation choice");
                lang
            }
        }
    }

    /// `/notation ru|en|auto` (nothing: the current choice).
    pub(crate) async fn set_notation(
        &self,
        ctx: &Ctx,
        notation: crate::api::NotationChoice,
    ) -> Outcome {
        use crate::api::NotationChoice;
        let platform = ctx.platform();
        let user = &ctx.actor().id;
        let choice = match notation {
            NotationChoice::Show => {
                let stored = self.inner.store.notation(platform, user).await?;
                let current = stored.as_deref().and_then(Lang::parse);
                return Ok(vec![
                    self.reply(ctx, &notation_msg("notation-current", current))
                ]);
            }
            NotationChoice::Auto => None,
            NotationChoice::Letters(lang) => Some(lang),
            NotationChoice::Unreadable => return Err(Msg::new("error-bad-notation").into()),
        };
        self.inner
            .store
            .set_notation(platform, user, choice.map(Lang::code))
            .await?;
        Ok(vec![self.reply(ctx, &notation_msg("notation-set", choice))])
    }
}

/// `key` with the notation named: `ru`, `en` or `auto`.
fn notation_msg(key: &'static str, choice: Option<Lang>) -> Msg {
    Msg::new(key).arg("notation", choice.map_or("auto", Lang::code))
}
