//! What the real Discord API refuses, with its JSON error codes, from
//! discord-api-docs: application commands (names match
//! `^[-_\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$` and are lowercase where
//! the letter has a lowercase form; descriptions 1–100 characters; at most
//! 25 options and 25 choices; required options before optional ones),
//! messages (content at most 2000 characters; not empty unless it carries
//! embeds, files or components — 50006; at most 5 action rows of at most 5
//! buttons; `custom_id` 1–100 characters and unique in the message; labels at
//! most 80 characters), uploads (10 MiB per request for bots; 40005 above),
//! embeds (title ≤ 256, description ≤ 4096, ≤ 25 fields of name ≤ 256 and
//! value ≤ 1024, ≤ 6000 characters in all), thread names (1–100
//! characters), and autocomplete answers (at most 25 choices, names 1–100
//! and values at most 100 characters). Form errors are 50035 "Invalid Form
//! Body" with an `errors` object naming the field.

use serde_json::{json, Value};

/// The largest upload a bot may send in one message, in bytes.
pub const UPLOAD_LIMIT: usize = 10 * 1024 * 1024;
/// The longest message content, in characters.
pub const CONTENT_LIMIT: usize = 2000;

/// A refusal: HTTP status and Discord's JSON error body.
pub type Refusal = (u16, Value);

/// Discord's error body.
pub fn error(status: u16, code: u32, message: &str) -> Refusal {
    (status, json!({ "code": code, "message": message }))
}

/// 50035 with the offending field and Discord's error code for it.
pub fn invalid_form(field: &str, code: &str, message: &str) -> Refusal {
    (
        400,
        json!({
            "code": 50035,
            "message": "Invalid Form Body",
            "errors": { field: { "_errors": [{ "code": code, "message": message }] } },
        }),
    )
}

/// Whether a name fits the command/option name pattern and is lowercase.
pub fn valid_command_name(name: &str) -> bool {
    let in_script = |c: char| matches!(c, '\u{0900}'..='\u{097F}' | '\u{0E00}'..='\u{0E7F}');
    let length = name.chars().count();
    (1..=32).contains(&length)
        && name.chars().all(|c| {
            (c.is_alphabetic() || c.is_numeric() || c == '-' || c == '_' || in_script(c))
                && !c.is_uppercase()
        })
}

/// `Ok` when `valid`, else 50035 for `field` with Discord's `code` and `message`.
fn require(valid: bool, field: &str, code: &str, message: &str) -> Result<(), Refusal> {
    if valid {
        Ok(())
    } else {
        Err(invalid_form(field, code, message))
    }
}

fn check_description(field: &str, description: &Value) -> Result<(), Refusal> {
    let length = description.as_str().map_or(0, |text| text.chars().count());
    require(
        (1..=100).contains(&length),
        field,
        "BASE_TYPE_BAD_LENGTH",
        "Must be between 1 and 100 in length.",
    )
}

fn check_name(field: &str, name: &Value) -> Result<(), Refusal> {
    require(
        name.as_str().is_some_and(valid_command_name),
        field,
        "APPLICATION_COMMAND_INVALID_NAME",
        "Command name is invalid",
    )
}

fn check_localized(field: &str, command: &Value) -> Result<(), Refusal> {
    check_name(&format!("{field}.name"), &command["name"])?;
    if let Some(names) = command["name_localizations"].as_object() {
        for (locale, name) in names {
            check_name(&format!("{field}.name_localizations.{locale}"), name)?;
        }
    }
    if command["type"].as_u64().unwrap_or(1) == 1 {
        check_description(&format!("{field}.description"), &command["description"])?;
        if let Some(descriptions) = command["description_localizations"].as_object() {
            for (locale, text) in descriptions {
                check_description(&format!("{field}.description_localizations.{locale}"), text)?;
            }
        }
    }
    Ok(())
}

/// Checks a bulk command registration.
/// The fields the OpenAPI specification gives an application command
/// option of each type; anything else (an `options` list on a string
/// option, a `min_value` on a user option) is not of that shape.
fn option_fields(kind: u64) -> &'static [&'static str] {
    match kind {
        1 | 2 => &["options"],
        3 => &["autocomplete", "choices", "min_length", "max_length"],
        4 | 10 => &["autocomplete", "choices", "min_value", "max_value"],
        7 => &["channel_types"],
        _ => &[],
    }
}

/// An option carries only its type's fields (see [`option_fields`]).
fn check_option_shape(field: &str, option: &Value) -> Result<(), Refusal> {
    const COMMON: [&str; 6] = [
        "type",
        "name",
        "name_localizations",
        "description",
        "description_localizations",
        "required",
    ];
    let kind = option["type"].as_u64().unwrap_or_default();
    let Some(fields) = option.as_object() else {
        return Err(invalid_form(
            field,
            "MODEL_TYPE_CONVERT",
            "Only dictionaries may be used in a ModelType",
        ));
    };
    for key in fields.keys() {
        if !COMMON.contains(&key.as_str()) && !option_fields(kind).contains(&key.as_str()) {
            return Err(invalid_form(
                &format!("{field}.{key}"),
                "UNKNOWN_FIELD",
                &format!("Not a field of an option of type {kind}"),
            ));
        }
    }
    Ok(())
}

pub fn check_commands(commands: &[Value]) -> Result<(), Refusal> {
    if commands.len() > 100 {
        return Err(invalid_form(
            "_",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 100 or fewer in length.",
        ));
    }
    for (index, command) in commands.iter().enumerate() {
        check_localized(&index.to_string(), command)?;
        check_options(&format!("{index}.options"), &command["options"])?;
    }
    Ok(())
}

fn check_options(field: &str, options: &Value) -> Result<(), Refusal> {
    let options = options.as_array().cloned().unwrap_or_default();
    if options.len() > 25 {
        return Err(invalid_form(
            field,
            "BASE_TYPE_MAX_LENGTH",
            "Must be 25 or fewer in length.",
        ));
    }
    let mut seen_optional = false;
    for (index, option) in options.iter().enumerate() {
        let here = format!("{field}.{index}");
        check_localized(&here, option)?;
        check_option_shape(&here, option)?;
        let required = option["required"].as_bool().unwrap_or(false);
        if required && seen_optional {
            return Err(invalid_form(
                &here,
                "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                "Required options must be placed before non-required options",
            ));
        }
        seen_optional |= !required;
        let choices = option["choices"].as_array().cloned().unwrap_or_default();
        if choices.len() > 25 {
            return Err(invalid_form(
                &format!("{here}.choices"),
                "BASE_TYPE_MAX_LENGTH",
                "Must be 25 or fewer in length.",
            ));
        }
        for (number, choice) in choices.iter().enumerate() {
            let length = choice["name"]
                .as_str()
                .map_or(0, |name| name.chars().count());
            if !(1..=100).contains(&length) {
                return Err(invalid_form(
                    &format!("{here}.choices.{number}.name"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 100 in length.",
                ));
            }
        }
        check_options(&format!("{here}.options"), &option["options"])?;
    }
    Ok(())
}

/// Checks a message the bot sends (channel message, interaction response,
/// followup, or an edit when `edit` is set: an edit may leave content out).
/// The longest message nonce Discord takes (as a string).
const NONCE_LIMIT: usize = 25;

pub fn check_message(json: &Value, file_bytes: &[usize], edit: bool) -> Result<(), Refusal> {
    if file_bytes.iter().sum::<usize>() > UPLOAD_LIMIT {
        return Err(error(413, 40005, "Request entity too large"));
    }
    let content = json["content"].as_str().unwrap_or_default();
    if content.chars().count() > CONTENT_LIMIT {
        return Err(invalid_form(
            "content",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 2000 or fewer in length.",
        ));
    }
    if json["nonce"]
        .as_str()
        .is_some_and(|nonce| nonce.chars().count() > NONCE_LIMIT)
    {
        return Err(invalid_form(
            "nonce",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 25 or fewer in length.",
        ));
    }
    let rows = json["components"].as_array().cloned().unwrap_or_default();
    let has_embeds = json["embeds"].as_array().is_some_and(|e| !e.is_empty());
    let empty =
        content.trim().is_empty() && file_bytes.is_empty() && rows.is_empty() && !has_embeds;
    let touches_nothing = edit && json.get("content").is_none();
    if empty && !touches_nothing {
        return Err(error(400, 50006, "Cannot send an empty message"));
    }
    check_embeds(
        json["embeds"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default(),
    )?;
    check_allowed_mentions(&json["allowed_mentions"])?;
    check_components(&rows)
}

/// The most users (and roles) allowed mentions may list.
pub const ALLOWED_MENTIONS_LIMIT: usize = 100;

/// Checks a message's `allowed_mentions` as Discord does: `parse` holds
/// only `users`, `roles`, `everyone`, each once; `users` and `roles` at
/// most 100 snowflakes each, each once; and `parse: ["users"]` with a
/// `users` list (or `roles` with `roles`) is refused as mutually exclusive.
fn check_allowed_mentions(allowed: &Value) -> Result<(), Refusal> {
    if allowed.is_null() {
        return Ok(());
    }
    let Some(allowed) = allowed.as_object() else {
        return Err(invalid_form(
            "allowed_mentions",
            "MODEL_TYPE_CONVERT",
            "Only dictionaries may be used in a ModelType",
        ));
    };
    let list = |field: &str| -> Result<Vec<String>, Refusal> {
        match allowed.get(field) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(items)) => items
                .iter()
                .map(|item| match item {
                    Value::String(text) => Ok(text.clone()),
                    Value::Number(number) => Ok(number.to_string()),
                    _ => Err(invalid_form(
                        &format!("allowed_mentions.{field}"),
                        "BASE_TYPE_CHOICES",
                        "Value must be one of the listed choices.",
                    )),
                })
                .collect(),
            Some(_) => Err(invalid_form(
                &format!("allowed_mentions.{field}"),
                "LIST_TYPE_CONVERT",
                "Only iterables may be used in a ListType",
            )),
        }
    };
    let parse = list("parse")?;
    for kind in &parse {
        require(
            ["users", "roles", "everyone"].contains(&kind.as_str()),
            "allowed_mentions.parse",
            "BASE_TYPE_CHOICES",
            "Value must be one of ('roles', 'users', 'everyone').",
        )?;
    }
    let unique = |items: &[String]| {
        let set: std::collections::HashSet<&String> = items.iter().collect();
        set.len() == items.len()
    };
    require(
        unique(&parse),
        "allowed_mentions.parse",
        "SET_TYPE_ALREADY_CONTAINS_VALUE",
        "The set already contains this value.",
    )?;
    for field in ["users", "roles"] {
        let ids = list(field)?;
        let path = format!("allowed_mentions.{field}");
        require(
            ids.len() <= ALLOWED_MENTIONS_LIMIT,
            &path,
            "BASE_TYPE_MAX_LENGTH",
            "Must be 100 or fewer in length.",
        )?;
        require(
            unique(&ids),
            &path,
            "SET_TYPE_ALREADY_CONTAINS_VALUE",
            "The set already contains this value.",
        )?;
        require(
            ids.iter()
                .all(|id| id.parse::<u64>().is_ok_and(|id| id > 0)),
            &path,
            "NUMBER_TYPE_COERCE",
            "Value is not snowflake.",
        )?;
        require(
            ids.is_empty() || !parse.iter().any(|kind| kind == field),
            "allowed_mentions",
            "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
            &format!("parse:[\"{field}\"] and {field}: [ids...] are mutually exclusive."),
        )?;
    }
    Ok(())
}

/// The most embeds in one message.
pub const EMBEDS_LIMIT: usize = 10;
/// The most characters in all of a message's embeds together (titles,
/// descriptions, field names and values, footer texts, author names).
pub const EMBED_TOTAL_LIMIT: usize = 6000;

/// Checks a message's embeds against Discord's limits: title ≤ 256,
/// description ≤ 4096, ≤ 25 fields, field name 1–256 and value 1–1024,
/// footer text ≤ 2048, author name ≤ 256, all together ≤ 6000.
fn check_embeds(embeds: &[Value]) -> Result<(), Refusal> {
    if embeds.len() > EMBEDS_LIMIT {
        return Err(invalid_form(
            "embeds",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 10 or fewer in length.",
        ));
    }
    let length = |value: &Value| value.as_str().map_or(0, |text| text.chars().count());
    let at_most = |field: String, value: &Value, limit: usize| {
        require(
            length(value) <= limit,
            &field,
            "BASE_TYPE_MAX_LENGTH",
            &format!("Must be {limit} or fewer in length."),
        )
    };
    let mut total = 0;
    for (index, embed) in embeds.iter().enumerate() {
        let field = |name: &str| format!("embeds.{index}.{name}");
        at_most(field("title"), &embed["title"], 256)?;
        at_most(field("description"), &embed["description"], 4096)?;
        at_most(field("footer.text"), &embed["footer"]["text"], 2048)?;
        at_most(field("author.name"), &embed["author"]["name"], 256)?;
        total += length(&embed["title"])
            + length(&embed["description"])
            + length(&embed["footer"]["text"])
            + length(&embed["author"]["name"]);
        let fields = embed["fields"].as_array().cloned().unwrap_or_default();
        if fields.len() > 25 {
            return Err(invalid_form(
                &field("fields"),
                "BASE_TYPE_MAX_LENGTH",
                "Must be 25 or fewer in length.",
            ));
        }
        for (number, entry) in fields.iter().enumerate() {
            for (part, limit) in [("name", 256), ("value", 1024)] {
                let here = field(&format!("fields.{number}.{part}"));
                let chars = length(&entry[part]);
                if chars == 0 {
                    return Err(invalid_form(
                        &here,
                        "BASE_TYPE_REQUIRED",
                        "This field is required",
                    ));
                }
                at_most(here, &entry[part], limit)?;
                total += chars;
            }
        }
    }
    require(
        total <= EMBED_TOTAL_LIMIT,
        "embeds",
        "MAX_EMBED_SIZE_EXCEEDED",
        "Embed size exceeds maximum size of 6000",
    )
}

fn check_components(rows: &[Value]) -> Result<(), Refusal> {
    if rows.len() > 5 {
        return Err(invalid_form(
            "components",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 5 or fewer in length.",
        ));
    }
    let mut custom_ids = std::collections::HashSet::new();
    for (row_index, row) in rows.iter().enumerate() {
        let buttons = row["components"].as_array().cloned().unwrap_or_default();
        if row["type"] != 1 || buttons.is_empty() || buttons.len() > 5 {
            return Err(invalid_form(
                &format!("components.{row_index}.components"),
                "BASE_TYPE_BAD_LENGTH",
                "Must be between 1 and 5 in length.",
            ));
        }
        for (index, button) in buttons.iter().enumerate() {
            let field = format!("components.{row_index}.components.{index}");
            let label = button["label"].as_str().map_or(0, |l| l.chars().count());
            if label == 0 && button.get("emoji").is_none_or(Value::is_null) {
                return Err(invalid_form(
                    &format!("{field}.label"),
                    "BUTTON_COMPONENT_INVALID",
                    "A button needs a label or an emoji.",
                ));
            }
            if label > 80 {
                return Err(invalid_form(
                    &format!("{field}.label"),
                    "BASE_TYPE_MAX_LENGTH",
                    "Must be 80 or fewer in length.",
                ));
            }
            if button["style"] == 5 {
                continue;
            }
            let custom_id = button["custom_id"].as_str().unwrap_or_default();
            if !(1..=100).contains(&custom_id.chars().count()) {
                return Err(invalid_form(
                    &format!("{field}.custom_id"),
                    "BASE_TYPE_BAD_LENGTH",
                    "Must be between 1 and 100 in length.",
                ));
            }
            if !custom_ids.insert(custom_id.to_owned()) {
                return Err(invalid_form(
                    &format!("{field}.custom_id"),
                    "COMPONENT_CUSTOM_ID_DUPLICATED",
                    "Component custom id cannot be duplicated",
                ));
            }
        }
    }
    Ok(())
}

/// Checks an autocomplete answer (interaction response type 8): at most 25
/// choices, each with a name of 1–100 characters and a value (a string of
/// at most 100 characters, or a number).
pub fn check_autocomplete(data: &Value) -> Result<(), Refusal> {
    let choices = data["choices"].as_array().cloned().unwrap_or_default();
    if choices.len() > 25 {
        return Err(invalid_form(
            "data.choices",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 25 or fewer in length.",
        ));
    }
    for (index, choice) in choices.iter().enumerate() {
        let name = choice["name"]
            .as_str()
            .map_or(0, |name| name.chars().count());
        require(
            (1..=100).contains(&name),
            &format!("data.choices.{index}.name"),
            "BASE_TYPE_BAD_LENGTH",
            "Must be between 1 and 100 in length.",
        )?;
        let value = &choice["value"];
        let fits = match value {
            Value::String(text) => text.chars().count() <= 100,
            Value::Number(_) => true,
            _ => false,
        };
        require(
            fits,
            &format!("data.choices.{index}.value"),
            "BASE_TYPE_MAX_LENGTH",
            "Must be 100 or fewer in length.",
        )?;
    }
    Ok(())
}

/// Checks a new thread's name (1–100 characters).
pub fn check_thread_name(json: &Value) -> Result<(), Refusal> {
    let length = json["name"].as_str().map_or(0, |name| name.chars().count());
    require(
        (1..=100).contains(&length),
        "name",
        "BASE_TYPE_BAD_LENGTH",
        "Must be between 1 and 100 in length.",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_names_follow_discords_pattern() {
        assert!(valid_command_name("play"));
        assert!(valid_command_name("ход"));
        assert!(valid_command_name("take-back_2"));
        assert!(!valid_command_name("Play"));
        assert!(!valid_command_name("play now"));
        assert!(!valid_command_name(""));
        assert!(!valid_command_name(&"a".repeat(33)));
    }

    #[test]
    fn empty_and_oversized_messages_are_refused() {
        assert_eq!(
            check_message(&json!({"content": " "}), &[], false)
                .unwrap_err()
                .1["code"],
            50006
        );
        assert!(check_message(&json!({"components": []}), &[], true).is_ok());
        let long = json!({"content": "x".repeat(2001)});
        assert_eq!(
            check_message(&long, &[], false).unwrap_err().1["code"],
            50035
        );
        let choice = |name: &str, value: &str| {
            check_autocomplete(&json!({"choices": [{"name": name, "value": value}]}))
        };
        assert!(choice("e4", "e4").is_ok());
        assert!(choice("", "e4").is_err());
        assert!(choice(&"n".repeat(101), "e4").is_err());
        assert!(choice("e4", &"v".repeat(101)).is_err());
        let many: Vec<Value> = (0..26).map(|i| json!({"name": "n", "value": i})).collect();
        assert!(check_autocomplete(&json!({ "choices": many })).is_err());
        let embed = |embed: Value| check_message(&json!({"embeds": [embed]}), &[], false);
        assert!(embed(json!({"title": "t", "description": "d"})).is_ok());
        for oversized in [
            json!({"title": "t".repeat(257)}),
            json!({"description": "d".repeat(4097)}),
            json!({"fields": vec![json!({"name": "n", "value": "v"}); 26]}),
            json!({"fields": [{"name": "n".repeat(257), "value": "v"}]}),
            json!({"fields": [{"name": "n", "value": "v".repeat(1025)}]}),
            json!({"fields": [{"name": "", "value": "v"}]}),
            json!({"description": "d".repeat(4000), "fields": [{"name": "n", "value": "v".repeat(1000)}, {"name": "n", "value": "v".repeat(1000)}]}),
        ] {
            assert_eq!(embed(oversized).unwrap_err().1["code"], 50035);
        }
        assert_eq!(
            check_message(&json!({"content": "x"}), &[UPLOAD_LIMIT + 1], false)
                .unwrap_err()
                .1["code"],
            40005
        );
    }
}
