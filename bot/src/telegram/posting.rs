//! The Bot API calls that post into chats (texts, boards, animations,
//! files), and those the adapter awaits in a chat's queue (a button press
//! answered, a keyboard taken off), made by Kodex itself with the bot's HTTP
//! client. teloxide-core
//! sleeps ten seconds after any 5xx answer before it returns one (a private
//! constant), so one failure of Telegram's held up a chat's queue for that
//! long; here a 5xx is a failure like any other, which the courier tries
//! again soon, with backoff. Telegram's flood limits, which teloxide's
//! Throttle kept for these calls, are kept by [`Flood::admit`] before each.
//!
//! Requests and answers use teloxide's types (keyboards, reply parameters,
//! messages, errors), so the rest of the adapter sees no difference.

use std::sync::Arc;

use reqwest::multipart::{Form, Part};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use teloxide::types::{
    ChatId, InlineKeyboardMarkup, Message, MessageId, ReplyParameters, ResponseParameters,
};
use teloxide::{ApiError, Bot, RequestError};

use super::flood::Flood;
use crate::api::Image;

/// The multipart part an edited message's new file goes in.
const EDIT_PART: &str = "board";

/// A 5xx answer from the Bot API (or a proxy in front of it): Telegram's
/// failure, not the request's, worth trying again.
#[derive(Debug, thiserror::Error)]
#[error("the Bot API answered HTTP {status}")]
pub(super) struct ServerError {
    /// The HTTP status.
    pub status: u16,
}

/// The kind of a message carrying a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Media {
    /// `sendPhoto`: shown as a picture (Telegram recompresses it).
    Photo,
    /// `sendAnimation`: a GIF that plays.
    Animation,
    /// `sendDocument`: a file, pixel-exact.
    Document,
}

impl Media {
    /// The method that sends it.
    fn method(self) -> &'static str {
        match self {
            Media::Photo => "sendPhoto",
            Media::Animation => "sendAnimation",
            Media::Document => "sendDocument",
        }
    }

    /// The parameter that holds the file.
    fn field(self) -> &'static str {
        match self {
            Media::Photo => "photo",
            Media::Animation => "animation",
            Media::Document => "document",
        }
    }
}

/// What a message carries besides its text or file.
#[derive(Clone, Copy, Default)]
pub(super) struct Extras<'a> {
    /// Whether the text (or caption) is Telegram's HTML.
    pub html: bool,
    /// The inline keyboard.
    pub markup: Option<&'a InlineKeyboardMarkup>,
    /// The message it answers (still sent if that one is gone).
    pub reply_to: Option<MessageId>,
}

/// Posts into chats through the Bot API the bot talks to.
pub(super) struct Poster {
    client: reqwest::Client,
    api_url: url::Url,
    token: String,
    flood: Arc<Flood>,
}

impl Poster {
    /// Posting with `bot`'s client, server and token, within `flood`'s limits.
    pub fn new(bot: &Bot, flood: Arc<Flood>) -> Self {
        Poster {
            client: bot.client().clone(),
            api_url: bot.api_url(),
            token: bot.token().to_owned(),
            flood,
        }
    }

    /// `sendMessage`: `text` in `chat`. One attempt.
    pub async fn send_message(
        &self,
        chat: ChatId,
        text: &str,
        extras: Extras<'_>,
    ) -> Result<Message, RequestError> {
        let mut body = json!({ "chat_id": chat.0, "text": text });
        for (key, value) in extras.fields() {
            body[key] = value;
        }
        let request = self
            .client
            .post(self.method_url("sendMessage")?)
            .json(&body);
        self.post(chat, request).await
    }

    /// `sendPhoto`, `sendAnimation` or `sendDocument`: `image` in `chat`,
    /// with `caption`. One attempt.
    pub async fn send_media(
        &self,
        media: Media,
        chat: ChatId,
        image: &Image,
        caption: Option<&str>,
        extras: Extras<'_>,
    ) -> Result<Message, RequestError> {
        let mut form = Form::new().text("chat_id", chat.0.to_string());
        if let Some(caption) = caption {
            form = form.text("caption", caption.to_owned());
        }
        for (key, value) in extras.fields() {
            // A parse mode without a caption would apply to nothing.
            if key != "parse_mode" || caption.is_some() {
                form = form.text(key, text_of(value));
            }
        }
        let file = Part::bytes(image.bytes.clone()).file_name(image.file_name.clone());
        form = form.part(media.field(), file);
        let request = self
            .client
            .post(self.method_url(media.method())?)
            .multipart(form);
        self.post(chat, request).await
    }

    /// `editMessageMedia`: `message` in `chat` shows `image` (as `media`)
    /// with `caption` and the keyboard of `extras` (none without one) from
    /// now on. One attempt; counted as a message in the chat's limits.
    pub async fn edit_media(
        &self,
        media: Media,
        chat: ChatId,
        message: MessageId,
        image: &Image,
        caption: Option<&str>,
        extras: Extras<'_>,
    ) -> Result<Message, RequestError> {
        let mut input = json!({ "type": media.field(), "media": format!("attach://{EDIT_PART}") });
        if let Some(caption) = caption {
            input["caption"] = json!(caption);
            if extras.html {
                input["parse_mode"] = json!("HTML");
            }
        }
        let mut form = Form::new()
            .text("chat_id", chat.0.to_string())
            .text("message_id", message.0.to_string())
            .text("media", input.to_string());
        if let Some(markup) = extras
            .markup
            .and_then(|markup| serde_json::to_string(markup).ok())
        {
            form = form.text("reply_markup", markup);
        }
        let file = Part::bytes(image.bytes.clone()).file_name(image.file_name.clone());
        form = form.part(EDIT_PART, file);
        let request = self
            .client
            .post(self.method_url("editMessageMedia")?)
            .multipart(form);
        self.post(chat, request).await
    }

    /// A call that posts nothing into a chat (a button press answered, a
    /// keyboard taken off): `body` as JSON, outside the flood limits. One
    /// attempt; the result as JSON.
    pub async fn call(&self, method: &str, body: &Value) -> Result<Value, RequestError> {
        let request = self.client.post(self.method_url(method)?).json(body);
        match request.send().await {
            Ok(response) => answer(response).await,
            Err(error) => Err(RequestError::from(error)),
        }
    }

    /// Makes `request`, a message for `chat`, once the chat's limits allow.
    async fn post(
        &self,
        chat: ChatId,
        request: reqwest::RequestBuilder,
    ) -> Result<Message, RequestError> {
        let admitted = self.flood.admit(chat).await;
        let result = match request.send().await {
            Ok(response) => answer(response).await,
            Err(error) => Err(RequestError::from(error)),
        };
        // Refused, or failed on Telegram's side: nothing was posted. (A
        // network failure may have lost the answer to a message posted.)
        if matches!(&result, Err(error) if !matches!(error, RequestError::Network(_))) {
            self.flood.forget(chat, admitted);
        }
        result
    }

    /// `https://api.telegram.org/bot<token>/<method>`, on the bot's server.
    fn method_url(&self, method: &str) -> Result<url::Url, RequestError> {
        let mut url = self.api_url.clone();
        match url.path_segments_mut() {
            Ok(mut segments) => {
                segments.pop_if_empty();
                segments.push(&format!("bot{}", self.token));
                segments.push(method);
            }
            Err(()) => {
                return Err(RequestError::Io(Arc::new(std::io::Error::other(
                    "the Bot API's address cannot take a path",
                ))))
            }
        }
        Ok(url)
    }
}

impl Extras<'_> {
    /// The parameters these extras add, as JSON values.
    fn fields(&self) -> impl Iterator<Item = (&'static str, Value)> {
        let parse_mode = self.html.then(|| ("parse_mode", json!("HTML")));
        let markup = self
            .markup
            .and_then(|markup| serde_json::to_value(markup).ok())
            .map(|markup| ("reply_markup", markup));
        let reply = self
            .reply_to
            .map(|message| ReplyParameters::new(message).allow_sending_without_reply())
            .and_then(|reply| serde_json::to_value(reply).ok())
            .map(|reply| ("reply_parameters", reply));
        [parse_mode, markup, reply].into_iter().flatten()
    }
}

/// A multipart field's text: a string as is, anything else as JSON.
fn text_of(value: Value) -> String {
    match value {
        Value::String(text) => text,
        other => other.to_string(),
    }
}

/// The Bot API's envelope: `{"ok": true, "result": …}` or
/// `{"ok": false, "description": …, "parameters": …}`.
#[derive(Deserialize)]
struct Envelope<T> {
    ok: bool,
    result: Option<T>,
    description: Option<ApiError>,
    parameters: Option<ResponseParameters>,
}

/// Reads the Bot API's answer: the result, or the error as teloxide names
/// it; a 5xx is a [`ServerError`] whatever its body.
async fn answer<T: DeserializeOwned>(response: reqwest::Response) -> Result<T, RequestError> {
    let status = response.status();
    if status.is_server_error() {
        return Err(server_error(status.as_u16()));
    }
    let text: String = response.text().await?;
    let envelope: Envelope<T> =
        serde_json::from_str(&text).map_err(|source| RequestError::InvalidJson {
            source: Arc::new(source),
            raw: text.into_boxed_str(),
        })?;
    match envelope {
        Envelope {
            ok: true,
            result: Some(result),
            ..
        } => Ok(result),
        Envelope {
            parameters: Some(ResponseParameters::RetryAfter(wait)),
            ..
        } => Err(RequestError::RetryAfter(wait)),
        Envelope {
            parameters: Some(ResponseParameters::MigrateToChatId(chat)),
            ..
        } => Err(RequestError::MigrateToChatId(chat)),
        Envelope {
            description: Some(error),
            ..
        } => Err(RequestError::Api(error)),
        Envelope { .. } => Err(RequestError::Api(ApiError::Unknown(
            "an answer with neither a result nor an error".to_owned(),
        ))),
    }
}

/// A 5xx as a [`RequestError`]: an I/O failure (the courier tries such
/// again), caused by a [`ServerError`].
pub(super) fn server_error(status: u16) -> RequestError {
    RequestError::Io(Arc::new(std::io::Error::other(ServerError { status })))
}

/// The HTTP status of a 5xx answer `error` stands for, if it is one.
pub(super) fn server_status(error: &RequestError) -> Option<u16> {
    match error {
        RequestError::Io(io) => io
            .get_ref()
            .and_then(|inner| inner.downcast_ref::<ServerError>())
            .map(|server| server.status),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_server_error_is_told_apart_from_other_failures() {
        assert_eq!(server_status(&server_error(502)), Some(502));
        let io = RequestError::Io(Arc::new(std::io::Error::other("disk")));
        assert_eq!(server_status(&io), None);
        assert_eq!(
            server_status(&RequestError::Api(ApiError::BotBlocked)),
            None
        );
    }

    #[test]
    fn the_method_url_follows_the_bot_apis_own() {
        let bot =
            Bot::new("123:ABC").set_api_url(url::Url::parse("http://127.0.0.1:9/").expect("a URL"));
        let poster = Poster::new(&bot, Arc::new(Flood::new(Default::default())));
        assert_eq!(
            poster.method_url("sendPhoto").expect("a URL").as_str(),
            "http://127.0.0.1:9/bot123:ABC/sendPhoto"
        );
    }
}
