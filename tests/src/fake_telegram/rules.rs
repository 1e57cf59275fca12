//! What the real Bot API refuses, with the answers it gives. Limits from the
//! Bot API reference (core.telegram.org/bots/api): `sendMessage` text
//! "1-4096 characters after entities parsing", captions "0-1024 characters
//! after entities parsing", `InlineKeyboardButton.callback_data` "1-64
//! bytes", `sendPhoto` "The photo must be at most 10 MB in size. The photo's
//! width and height must not exceed 10000 in total. Width and height ratio
//! must be at most 20", other files up to 50 MB, `BotCommand.command` "1-32
//! characters. Can contain only lowercase English letters, digits and
//! underscores", `description` "1-256 characters", `answerCallbackQuery`
//! text "0-200 characters", and the HTML formatting options (the tags and
//! the four named entities it knows).

use serde_json::Value;

use super::Upload;

/// A refusal: the HTTP status and Telegram's `description`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// 400 for bad requests.
    pub status: u16,
    /// What Telegram says.
    pub description: String,
}

fn bad_request(description: &str) -> Refusal {
    Refusal {
        status: 400,
        description: format!("Bad Request: {description}"),
    }
}

/// The most text a message may hold, in characters after entity parsing.
pub const MESSAGE_LIMIT: usize = 4096;
/// The most text a caption may hold, in characters after entity parsing.
pub const CAPTION_LIMIT: usize = 1024;
/// The most bytes of callback data a button may carry.
pub const CALLBACK_DATA_LIMIT: usize = 64;
/// The largest photo, in bytes.
pub const PHOTO_BYTES_LIMIT: usize = 10 * 1000 * 1000;
/// The largest other upload (animation, document), in bytes.
pub const FILE_BYTES_LIMIT: usize = 50 * 1000 * 1000;
/// The most width + height a photo may have.
pub const PHOTO_SIDES_LIMIT: u32 = 10_000;
/// The most characters of a callback answer.
pub const CALLBACK_ANSWER_LIMIT: usize = 200;

/// Checks a sending method's text or caption, formatting and keyboard.
pub fn check_send(method: &str, params: &Value, upload: Option<&Upload>) -> Result<(), Refusal> {
    let html = params["parse_mode"].as_str() == Some("HTML");
    if method == "sendMessage" {
        let text = params["text"].as_str().unwrap_or_default();
        let shown = visible_text(text, html)?;
        if shown.trim().is_empty() {
            return Err(bad_request("message text is empty"));
        }
        if shown.chars().count() > MESSAGE_LIMIT {
            return Err(bad_request("message is too long"));
        }
    } else {
        let caption = params["caption"].as_str().unwrap_or_default();
        if visible_text(caption, html)?.chars().count() > CAPTION_LIMIT {
            return Err(bad_request("message caption is too long"));
        }
        check_upload(method, upload)?;
    }
    check_keyboard(&params["reply_markup"])
}

/// Checks a keyboard's callback data (1–64 bytes) and that buttons say something.
pub fn check_keyboard(markup: &Value) -> Result<(), Refusal> {
    let rows = markup["inline_keyboard"].as_array().into_iter().flatten();
    for button in rows.filter_map(Value::as_array).flatten() {
        if button["text"].as_str().is_none_or(str::is_empty) {
            return Err(bad_request(
                "text buttons are unallowed in the inline keyboard",
            ));
        }
        if let Some(data) = button.get("callback_data") {
            let bytes = data.as_str().map_or(0, str::len);
            if bytes == 0 || bytes > CALLBACK_DATA_LIMIT {
                return Err(bad_request("BUTTON_DATA_INVALID"));
            }
        }
    }
    Ok(())
}

fn check_upload(method: &str, upload: Option<&Upload>) -> Result<(), Refusal> {
    let Some(upload) = upload else {
        return Err(bad_request("there is no file in the request"));
    };
    if method == "sendPhoto" {
        if upload.bytes.len() > PHOTO_BYTES_LIMIT {
            return Err(bad_request("PHOTO_SAVE_FILE_INVALID"));
        }
        let fits = image_size(&upload.bytes).is_some_and(|(width, height)| {
            let (long, short) = (width.max(height), width.min(height).max(1));
            width + height <= PHOTO_SIDES_LIMIT && long / short <= 20
        });
        if !fits {
            return Err(bad_request("PHOTO_INVALID_DIMENSIONS"));
        }
    } else if upload.bytes.len() > FILE_BYTES_LIMIT {
        return Err(Refusal {
            status: 413,
            description: "Request Entity Too Large".to_owned(),
        });
    }
    Ok(())
}

pub use crate::image_header::image_size;

/// `setMyCommands`: at most 100 commands, names `[a-z0-9_]{1,32}`,
/// descriptions of 1–256 characters.
pub fn check_commands(params: &Value) -> Result<(), Refusal> {
    let commands = params["commands"].as_array().cloned().unwrap_or_default();
    if commands.len() > 100 {
        return Err(bad_request("BOT_COMMANDS_TOO_MUCH"));
    }
    for command in &commands {
        let name = command["command"].as_str().unwrap_or_default();
        let name_ok = (1..=32).contains(&name.len())
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
        if !name_ok {
            return Err(bad_request("BOT_COMMAND_INVALID"));
        }
        let description = command["description"].as_str().unwrap_or_default();
        if !(1..=256).contains(&description.chars().count()) {
            return Err(bad_request("BOT_COMMAND_DESCRIPTION_INVALID"));
        }
    }
    Ok(())
}

/// `answerCallbackQuery`'s text: at most 200 characters.
pub fn check_callback_answer(params: &Value) -> Result<(), Refusal> {
    let text = params["text"].as_str().unwrap_or_default();
    if text.chars().count() > CALLBACK_ANSWER_LIMIT {
        return Err(bad_request("MESSAGE_TOO_LONG"));
    }
    Ok(())
}

/// The answer for a callback query answered too late, twice, or never sent.
pub fn query_too_old() -> Refusal {
    bad_request("query is too old and response timeout expired or query ID is invalid")
}

/// The actions `sendChatAction` takes (Bot API reference).
pub const CHAT_ACTIONS: [&str; 11] = [
    "typing",
    "upload_photo",
    "record_video",
    "upload_video",
    "record_voice",
    "upload_voice",
    "upload_document",
    "choose_sticker",
    "find_location",
    "record_video_note",
    "upload_video_note",
];

/// Checks `sendChatAction`'s action: one of [`CHAT_ACTIONS`].
pub fn check_chat_action(params: &Value) -> Result<(), Refusal> {
    match params["action"].as_str() {
        Some(action) if CHAT_ACTIONS.contains(&action) => Ok(()),
        Some(_) => Err(bad_request("wrong parameter action in request")),
        None => Err(bad_request("parameter \"action\" is required")),
    }
}

/// `editMessageMedia` of a message in a chat (inline messages are not
/// served): `chat_id` and `message_id`, a `media` object of a kind Telegram
/// edits into (`photo`, `document`, `animation`, `video`, `audio`) whose
/// `media` attaches the uploaded file (`attach://<part>`), its caption
/// within the limit as its `parse_mode` reads it, the photo within a
/// photo's limits, and a valid keyboard.
pub fn check_edit_media(params: &Value, upload: Option<&Upload>) -> Result<(), Refusal> {
    if params["chat_id"].is_null() || params["message_id"].is_null() {
        return Err(bad_request("message identifier is not specified"));
    }
    let media = &params["media"];
    if !media.is_object() {
        return Err(bad_request(
            "can't parse InputMedia: media is not an object",
        ));
    }
    let kind = media["type"].as_str().unwrap_or_default();
    let method = match kind {
        "photo" => "sendPhoto",
        "document" => "sendDocument",
        "animation" => "sendAnimation",
        "video" | "audio" => "sendDocument",
        _ => return Err(bad_request("can't parse InputMedia: media type is invalid")),
    };
    let attached = media["media"]
        .as_str()
        .and_then(|media| media.strip_prefix("attach://"));
    let Some(part) = attached else {
        return Err(bad_request("wrong file identifier/HTTP URL specified"));
    };
    if upload.is_none_or(|upload| upload.part != part) {
        return Err(bad_request("there is no file in the request"));
    }
    let html = media["parse_mode"].as_str() == Some("HTML");
    let caption = media["caption"].as_str().unwrap_or_default();
    if visible_text(caption, html)?.chars().count() > CAPTION_LIMIT {
        return Err(bad_request("message caption is too long"));
    }
    check_upload(method, upload)?;
    check_keyboard(&params["reply_markup"])
}

/// The answer for an edit of a message that is not there (any more).
pub fn message_to_edit_not_found() -> Refusal {
    bad_request("message to edit not found")
}

/// The answer for an edit of someone else's message.
pub fn message_cant_be_edited() -> Refusal {
    bad_request("message can't be edited")
}

/// The answer for an edit that changes nothing.
pub fn not_modified() -> Refusal {
    bad_request(
        "message is not modified: specified new message content and reply markup are \
         exactly the same as a current content and reply markup of the message",
    )
}

/// The answer for a chat the bot does not know.
pub fn chat_not_found() -> Refusal {
    bad_request("chat not found")
}

/// The answer for a group that became a supergroup.
pub fn group_migrated() -> Refusal {
    bad_request("group chat was upgraded to a supergroup chat")
}

/// The answer for a group the bot was removed from.
pub fn kicked() -> Refusal {
    Refusal {
        status: 403,
        description: "Forbidden: bot was kicked from the supergroup chat".to_owned(),
    }
}

/// The answer to `getChatMember` for someone Telegram does not know.
pub fn user_not_found() -> Refusal {
    bad_request("user not found")
}

/// The answer to `deleteMessage` for a message that is not there (any more).
pub fn message_to_delete_not_found() -> Refusal {
    bad_request("message to delete not found")
}

/// The answer to `deleteMessage` for someone else's message in a group where
/// the bot is no administrator with the right to delete messages.
pub fn message_cant_be_deleted() -> Refusal {
    bad_request("message can't be deleted")
}

/// The text a reader sees: with `html`, tags removed and entities decoded,
/// as Telegram parses them (only its tags, properly nested, and the four
/// named entities or numeric ones).
pub fn visible_text(text: &str, html: bool) -> Result<String, Refusal> {
    if !html {
        return Ok(text.to_owned());
    }
    const TAGS: [&str; 16] = [
        "b",
        "strong",
        "i",
        "em",
        "u",
        "ins",
        "s",
        "strike",
        "del",
        "span",
        "tg-spoiler",
        "a",
        "code",
        "pre",
        "blockquote",
        "tg-emoji",
    ];
    let parse_error = |what: String, at: usize| {
        bad_request(&format!("can't parse entities: {what} at byte offset {at}"))
    };
    let mut shown = String::with_capacity(text.len());
    let mut open: Vec<String> = Vec::new();
    let mut index = 0;
    while index < text.len() {
        let rest = &text[index..];
        let Some(c) = rest.chars().next() else { break };
        match c {
            '<' => {
                let Some(end) = rest.find('>') else {
                    return Err(parse_error("Unclosed start tag".to_owned(), index));
                };
                let inside = &rest[1..end];
                let closing = inside.starts_with('/');
                let name: String = inside
                    .trim_start_matches('/')
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                    .collect::<String>()
                    .to_ascii_lowercase();
                if !TAGS.contains(&name.as_str()) {
                    let kind = if closing { "end" } else { "start" };
                    return Err(parse_error(
                        format!("Unsupported {kind} tag \"{name}\""),
                        index,
                    ));
                }
                if closing {
                    if open.pop().as_deref() != Some(name.as_str()) {
                        return Err(parse_error(format!("Unmatched end tag \"{name}\""), index));
                    }
                } else {
                    open.push(name);
                }
                index += end + 1;
            }
            '&' => {
                let end = rest.find(';').filter(|end| *end <= 10);
                let entity = end.map(|end| &rest[1..end]);
                let decoded = match entity {
                    Some("lt") => Some('<'),
                    Some("gt") => Some('>'),
                    Some("amp") => Some('&'),
                    Some("quot") => Some('"'),
                    Some(number) if number.starts_with('#') => {
                        let digits = &number[1..];
                        let value = match digits.strip_prefix(['x', 'X']) {
                            Some(hex) => u32::from_str_radix(hex, 16).ok(),
                            None => digits.parse().ok(),
                        };
                        value.and_then(char::from_u32)
                    }
                    _ => None,
                };
                match (decoded, end) {
                    (Some(decoded), Some(end)) => {
                        shown.push(decoded);
                        index += end + 1;
                    }
                    // An unknown `&name;` is an error; a lone `&` is text.
                    _ if entity.is_some_and(|name| {
                        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric())
                    }) =>
                    {
                        return Err(parse_error(
                            format!("Unsupported entity \"{}\"", entity.unwrap_or_default()),
                            index,
                        ));
                    }
                    _ => {
                        shown.push('&');
                        index += 1;
                    }
                }
            }
            c => {
                shown.push(c);
                index += c.len_utf8();
            }
        }
    }
    if let Some(unclosed) = open.pop() {
        return Err(parse_error(
            format!("Can't find end tag corresponding to start tag \"{unclosed}\""),
            text.len(),
        ));
    }
    Ok(shown)
}

/// Someone a message mentions, as Telegram's entities say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mentioned {
    /// A `mention` entity: `@username` (without the `@`, as written).
    Username(String),
    /// A `text_mention` entity: a link to `tg://user?id=<id>` (HTML).
    User(i64),
}

/// The mentions Telegram finds in `text`: `@username` (up to 32 letters,
/// digits, `_` after the `@`, not inside a word) in what a reader
/// sees, and with `html` the `<a href="tg://user?id=N">` links. A text
/// that does not parse mentions nobody.
pub fn mentions(text: &str, html: bool) -> Vec<Mentioned> {
    let Ok(shown) = visible_text(text, html) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    if html {
        let mut rest = text;
        while let Some(at) = rest.find("<a ") {
            rest = &rest[at + 3..];
            let Some(end) = rest.find('>') else { break };
            let attributes = &rest[..end];
            if let Some(id) = attributes
                .split_once("href=\"tg://user?id=")
                .and_then(|(_, id)| id.split('"').next())
                .and_then(|id| id.parse().ok())
            {
                found.push(Mentioned::User(id));
            }
        }
    }
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let chars: Vec<char> = shown.chars().collect();
    for (index, c) in chars.iter().enumerate() {
        if *c != '@' || (index > 0 && word(chars[index - 1])) {
            continue;
        }
        let name: String = chars[index + 1..]
            .iter()
            .take_while(|c| word(**c))
            .collect();
        if (1..=32).contains(&name.len()) {
            found.push(Mentioned::Username(name));
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentions_are_found_as_telegram_does() {
        assert_eq!(
            mentions("hi @alice and <a href=\"tg://user?id=44\">Dave</a>", true),
            vec![Mentioned::User(44), Mentioned::Username("alice".into())]
        );
        assert_eq!(mentions("mail a@bob.org", false), Vec::new());
        assert_eq!(
            mentions("<a href=\"tg://user?id=44\">Dave</a>", false),
            Vec::new(),
            "a link only in HTML"
        );
        assert_eq!(mentions("<b>@alice", true), Vec::new(), "broken HTML");
    }

    #[test]
    fn html_is_parsed_as_telegram_does() {
        assert_eq!(
            visible_text("a &lt;b&gt; <pre>x</pre>", true).as_deref(),
            Ok("a <b> x")
        );
        assert!(visible_text("<div>x</div>", true).is_err());
        assert!(visible_text("<b>x", true).is_err());
        assert!(visible_text("<b>x</i>", true).is_err());
        assert!(visible_text("&nbsp;", true).is_err());
        assert_eq!(visible_text("<b>x", false).as_deref(), Ok("<b>x"));
    }
}
