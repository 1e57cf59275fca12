//! Registering the slash commands at start, off the event path and only
//! when they changed.
//!
//! Poise holds every event until its setup returns, so a registration done
//! there (a `PUT` Discord may take seconds to answer) once left an
//! interaction unanswered past Discord's three seconds. The registration
//! runs in a task of its own instead: it lists what Discord has, compares it
//! with what this build offers, and sends the commands only when they differ
//! (a restart of the same build sends nothing; each `PUT` also counts toward
//! Discord's daily command-creation limit).

use std::sync::Arc;

use poise::serenity_prelude as serenity;
use serde_json::Value;

/// Registers `wanted` (globally, or in `guild` for development) unless
/// Discord already has exactly these commands. Never fails the bot: a
/// failure is logged, and commands registered earlier keep working.
pub(crate) async fn register(
    http: Arc<serenity::Http>,
    wanted: Vec<serenity::CreateCommand>,
    guild: Option<serenity::GuildId>,
) {
    let existing = match guild {
        Some(guild) => http.get_guild_commands_with_localizations(guild).await,
        None => http.get_global_commands_with_localizations().await,
    };
    match existing {
        Ok(existing) if same_commands(&wanted, &existing) => {
            tracing::info!("the slash commands are registered already; not sent again");
            return;
        }
        Ok(_) => {}
        Err(error) => {
            tracing::warn!("listing the registered slash commands failed ({error}); registering")
        }
    }
    // Sent as the specification shapes them: serenity's own structs spell
    // out empty lists and nulls for fields an option of that type has not.
    let body = match serde_json::to_value(&wanted) {
        Ok(value) => spec_shaped(value),
        Err(error) => {
            tracing::error!("the slash commands could not be written: {error}");
            return;
        }
    };
    let registered = match guild {
        Some(guild) => http.create_guild_commands(guild, &body).await.map(drop),
        None => http.create_global_commands(&body).await.map(drop),
    };
    match registered {
        Ok(()) => tracing::info!("slash commands registered"),
        Err(error) => tracing::error!("registering Discord slash commands failed: {error}"),
    }
}

/// Whether Discord's `existing` commands are the `wanted` ones: the same
/// names, descriptions, localizations, options, choices, limits and
/// permissions, whatever their order and whatever defaults either side
/// spells out.
fn same_commands(wanted: &[serenity::CreateCommand], existing: &[serenity::Command]) -> bool {
    let wanted = serde_json::to_value(wanted).map(|value| comparable(&value));
    let existing = serde_json::to_value(existing).map(|value| comparable(&value));
    matches!((wanted, existing), (Ok(a), Ok(b)) if a == b)
}

/// The keys of a command, an option or a choice that decide what a user
/// sees; ids, versions and the like are left out.
const COMPARED: &[&str] = &[
    "name",
    "name_localizations",
    "description",
    "description_localizations",
    "type",
    "options",
    "choices",
    "value",
    "required",
    "autocomplete",
    "channel_types",
    "min_value",
    "max_value",
    "min_length",
    "max_length",
    "default_member_permissions",
    "dm_permission",
    "nsfw",
];

/// A list of commands in a form two equal registrations share: sorted by
/// name, compared keys only, defaults (`null`, `false`, empty lists, a
/// command's type 1, `dm_permission: true`) left out, numbers as floats.
fn comparable(commands: &Value) -> Value {
    let mut list: Vec<Value> = commands
        .as_array()
        .map(|commands| {
            commands
                .iter()
                .map(|command| {
                    let mut command = normalized(command);
                    if let Value::Object(map) = &mut command {
                        if map.get("type").and_then(Value::as_f64) == Some(1.0) {
                            map.remove("type");
                        }
                        if map.get("dm_permission") == Some(&Value::Bool(true)) {
                            map.remove("dm_permission");
                        }
                    }
                    command
                })
                .collect()
        })
        .unwrap_or_default();
    list.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
    Value::Array(list)
}

/// `value` with only the [`COMPARED`] keys of its objects, empty and
/// default values removed, numbers as floats (Discord answers `1` for the
/// `1.0` sent).
fn normalized(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(key, _)| COMPARED.contains(&key.as_str()))
                .map(|(key, value)| {
                    // Localizations are maps of locale to text: keep them whole.
                    let value = if key.ends_with("_localizations") {
                        value.clone()
                    } else {
                        normalized(value)
                    };
                    (key.clone(), value)
                })
                .filter(|(_, value)| !is_default(value))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(normalized).collect()),
        Value::Number(number) => number
            .as_f64()
            .and_then(serde_json::Number::from_f64)
            .map_or_else(|| value.clone(), Value::Number),
        other => other.clone(),
    }
}

/// `value` (the commands) as Discord's specification shapes them: no
/// `null` fields, no empty lists, and each option with only the fields of
/// its type (serenity writes `options: []`, `choices: []`,
/// `channel_types: []`, `min_value: null` and `autocomplete: false` into
/// every option, where the specification gives a user option none of them).
fn spec_shaped(value: Value) -> Value {
    shaped(value, false)
}

/// The fields every option has.
const OPTION_FIELDS: [&str; 6] = [
    "type",
    "name",
    "name_localizations",
    "description",
    "description_localizations",
    "required",
];

/// The fields an option of type `kind` has beyond [`OPTION_FIELDS`].
fn fields_of_option(kind: u64) -> &'static [&'static str] {
    match kind {
        // Subcommands and groups.
        1 | 2 => &["options"],
        // Strings.
        3 => &["autocomplete", "choices", "min_length", "max_length"],
        // Integers and numbers.
        4 | 10 => &["autocomplete", "choices", "min_value", "max_value"],
        // Channels.
        7 => &["channel_types"],
        // Booleans, users, roles, mentionables, attachments.
        _ => &[],
    }
}

/// [`spec_shaped`]; `option`: `value` is an option (an item of `options`).
fn shaped(value: Value, option: bool) -> Value {
    match value {
        Value::Object(map) => {
            let kind = map.get("type").and_then(Value::as_u64).unwrap_or_default();
            Value::Object(
                map.into_iter()
                    .filter(|(key, value)| {
                        let known = !option
                            || OPTION_FIELDS.contains(&key.as_str())
                            || fields_of_option(kind).contains(&key.as_str());
                        known && !value.is_null() && !value.as_array().is_some_and(Vec::is_empty)
                    })
                    .map(|(key, value)| {
                        let options = key == "options";
                        (key, shaped(value, options))
                    })
                    .collect(),
            )
        }
        Value::Array(items) => {
            Value::Array(items.into_iter().map(|item| shaped(item, option)).collect())
        }
        other => other,
    }
}

fn is_default(value: &Value) -> bool {
    match value {
        Value::Null | Value::Bool(false) => true,
        Value::Array(items) => items.is_empty(),
        Value::Object(map) => map.is_empty(),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn commands_are_sent_without_nulls_and_empty_lists() {
        let commands = crate::discord::commands::all();
        let wanted: Vec<serenity::CreateCommand> =
            poise::builtins::create_application_commands(&commands);
        let body = spec_shaped(serde_json::to_value(&wanted).expect("json"));
        fn check(value: &Value) {
            match value {
                Value::Object(map) => {
                    for (key, value) in map {
                        assert!(!value.is_null(), "{key} is null");
                        assert!(
                            !value.as_array().is_some_and(Vec::is_empty),
                            "{key} is an empty list"
                        );
                        check(value);
                    }
                }
                Value::Array(items) => items.iter().for_each(check),
                _ => {}
            }
        }
        check(&body);
        // A user option (`/rating user`) carries no string or number fields.
        let rating = body
            .as_array()
            .and_then(|commands| commands.iter().find(|c| c["name"] == "rating"))
            .expect("/rating");
        let user = &rating["options"][0];
        assert_eq!(user["type"], 6);
        assert!(
            user.get("autocomplete").is_none() && user.get("max_length").is_none(),
            "{user}"
        );
        // Nothing that decides what a user sees is lost.
        assert_eq!(
            comparable(&body),
            comparable(&serde_json::to_value(&wanted).expect("json"))
        );
    }

    #[test]
    fn defaults_order_and_ids_do_not_count_but_a_changed_option_does() {
        let sent = json!([
            {"name": "play", "description": "Play", "options": [
                {"type": 3, "name": "variant", "description": "v", "required": false,
                 "autocomplete": true, "choices": [], "min_length": null}
            ]},
            {"name": "help", "description": "Help", "name_localizations": {"ru": "помощь"}},
        ]);
        let listed = json!([
            {"id": "1", "application_id": "100", "version": "7", "type": 1,
             "name": "help", "description": "Help", "name_localizations": {"ru": "помощь"},
             "dm_permission": true, "default_member_permissions": null, "nsfw": false},
            {"id": "2", "name": "play", "description": "Play", "type": 1, "options": [
                {"type": 3, "name": "variant", "description": "v", "autocomplete": true}
            ]},
        ]);
        assert_eq!(comparable(&sent), comparable(&listed));
        let mut changed = listed.clone();
        changed[1]["options"][0]["required"] = json!(true);
        assert_ne!(comparable(&sent), comparable(&changed));
        let mut renamed = listed;
        renamed[0]["name_localizations"]["ru"] = json!("справка");
        assert_ne!(comparable(&sent), comparable(&renamed));
    }
}
