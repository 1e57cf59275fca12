//! JSON objects as Discord sends them: users, messages, interactions, the
//! Ready event. Unit tests below check that serenity's own types read them.

use serde_json::{json, Value};

/// The application id (and bot user id) of the fake bot.
pub const APPLICATION_ID: u64 = 100;
/// The guild the tests play in.
pub const GUILD_ID: u64 = 200;
/// A timestamp for everything the fake creates.
const TIMESTAMP: &str = "2026-01-01T00:00:00.000000+00:00";

/// Every permission: what the server's owner (or an administrator) has.
pub const ALL_PERMISSIONS: u64 = 2_147_483_647;
/// What a plain member has in a channel: View Channel, Send Messages, Embed
/// Links, Attach Files, Read Message History, Add Reactions, Use
/// Application Commands, Send Messages in Threads; not Manage Server (1 << 5),
/// Manage Messages (1 << 13) or Administrator (1 << 3).
pub const MEMBER_PERMISSIONS: u64 =
    (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 6) | (1 << 31) | (1 << 38);

/// A person (or the bot) on the fake Discord.
#[derive(Clone, Debug)]
pub struct FakeUser {
    /// Snowflake.
    pub id: u64,
    /// Username.
    pub name: String,
    /// Whether it is a bot account.
    pub bot: bool,
    /// The member's permissions in the test channels, as interactions
    /// carry them (`member.permissions`).
    pub permissions: u64,
}

impl FakeUser {
    /// A human user.
    pub fn new(id: u64, name: &str) -> FakeUser {
        FakeUser {
            id,
            name: name.to_string(),
            bot: false,
            permissions: ALL_PERMISSIONS,
        }
    }

    /// A plain member: no Manage Server, no Manage Messages.
    pub fn plain_member(mut self) -> FakeUser {
        self.permissions = MEMBER_PERMISSIONS;
        self
    }

    /// The fake bot itself.
    pub fn bot() -> FakeUser {
        FakeUser {
            id: APPLICATION_ID,
            name: "Kodex".to_string(),
            bot: true,
            permissions: ALL_PERMISSIONS,
        }
    }

    /// The user object.
    pub fn json(&self) -> Value {
        json!({
            "id": self.id.to_string(),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name,
            "avatar": null,
            "bot": self.bot,
        })
    }

    /// A guild member object for this user.
    pub fn member_json(&self) -> Value {
        json!({
            "user": self.json(),
            "nick": null,
            "roles": [],
            "joined_at": TIMESTAMP,
            "deaf": false,
            "mute": false,
            "flags": 0,
            "pending": false,
            "permissions": self.permissions.to_string(),
        })
    }
}

/// A message object as `POST /channels/{id}/messages` answers and as
/// `MESSAGE_CREATE` carries.
pub fn message_json(
    id: u64,
    channel_id: u64,
    guild_id: Option<u64>,
    author: &FakeUser,
    content: &str,
    components: Value,
) -> Value {
    let mut message = json!({
        "id": id.to_string(),
        "channel_id": channel_id.to_string(),
        "author": author.json(),
        "content": content,
        "timestamp": TIMESTAMP,
        "edited_timestamp": null,
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": false,
        "type": 0,
        "flags": 0,
        "components": components,
    });
    if let Some(guild_id) = guild_id {
        message["guild_id"] = json!(guild_id.to_string());
        message["member"] = json!({
            "roles": [],
            "joined_at": TIMESTAMP,
            "deaf": false,
            "mute": false,
            "flags": 0,
        });
    }
    message
}

/// Fields shared by every interaction.
fn interaction_base(
    kind: u8,
    id: u64,
    token: &str,
    channel_id: u64,
    guild_id: Option<u64>,
    user: &FakeUser,
    locale: &str,
) -> Value {
    let mut interaction = json!({
        "id": id.to_string(),
        "application_id": APPLICATION_ID.to_string(),
        "type": kind,
        "token": token,
        "version": 1,
        "channel_id": channel_id.to_string(),
        "channel": { "id": channel_id.to_string(), "type": if guild_id.is_some() { 0 } else { 1 } },
        "locale": locale,
        "app_permissions": "2147483647",
        "entitlements": [],
        "attachment_size_limit": 8_388_608,
    });
    match guild_id {
        Some(guild_id) => {
            interaction["guild_id"] = json!(guild_id.to_string());
            interaction["guild_locale"] = json!("en-US");
            interaction["member"] = user.member_json();
        }
        None => interaction["user"] = user.json(),
    }
    interaction
}

/// A slash command option: `{"name", "type", "value"}`.
pub fn option(name: &str, kind: u8, value: Value) -> Value {
    json!({ "name": name, "type": kind, "value": value })
}

/// A string option.
pub fn string_option(name: &str, value: &str) -> Value {
    option(name, 3, json!(value))
}

/// An integer option (poise sends choice parameters as their index).
pub fn integer_option(name: &str, value: i64) -> Value {
    option(name, 4, json!(value))
}

/// A boolean option.
pub fn bool_option(name: &str, value: bool) -> Value {
    option(name, 5, json!(value))
}

/// A user option; the user must also be in `resolved_users`.
pub fn user_option(name: &str, user: &FakeUser) -> Value {
    option(name, 6, json!(user.id.to_string()))
}

/// A slash command invocation (`INTERACTION_CREATE`, type 2).
#[allow(clippy::too_many_arguments)]
pub fn slash_command(
    id: u64,
    token: &str,
    channel_id: u64,
    guild_id: Option<u64>,
    user: &FakeUser,
    locale: &str,
    command: &str,
    options: Vec<Value>,
    resolved_users: &[FakeUser],
) -> Value {
    let mut interaction = interaction_base(2, id, token, channel_id, guild_id, user, locale);
    let users: serde_json::Map<String, Value> = resolved_users
        .iter()
        .map(|user| (user.id.to_string(), user.json()))
        .collect();
    interaction["data"] = json!({
        "id": "1",
        "name": command,
        "type": 1,
        "options": options,
        "resolved": { "users": users },
    });
    interaction
}

/// An autocomplete request (`INTERACTION_CREATE`, type 4) for a string
/// option being typed.
#[allow(clippy::too_many_arguments)]
pub fn autocomplete(
    id: u64,
    token: &str,
    channel_id: u64,
    user: &FakeUser,
    locale: &str,
    command: &str,
    option_name: &str,
    typed: &str,
) -> Value {
    let mut interaction = interaction_base(4, id, token, channel_id, Some(GUILD_ID), user, locale);
    interaction["data"] = json!({
        "id": "1",
        "name": command,
        "type": 1,
        "options": [{ "name": option_name, "type": 3, "value": typed, "focused": true }],
    });
    interaction
}

/// A button press (`INTERACTION_CREATE`, type 3) on `message`.
#[allow(clippy::too_many_arguments)]
pub fn button_press(
    id: u64,
    token: &str,
    channel_id: u64,
    guild_id: Option<u64>,
    user: &FakeUser,
    locale: &str,
    custom_id: &str,
    message: Value,
) -> Value {
    let mut interaction = interaction_base(3, id, token, channel_id, guild_id, user, locale);
    interaction["data"] = json!({ "custom_id": custom_id, "component_type": 2 });
    interaction["message"] = message;
    interaction
}

/// The Ready event's payload.
pub fn ready(session_id: &str, resume_url: &str) -> Value {
    json!({
        "v": 10,
        "user": FakeUser::bot().json(),
        "guilds": [{ "id": GUILD_ID.to_string(), "unavailable": true }],
        "session_id": session_id,
        "resume_gateway_url": resume_url,
        "shard": [0, 1],
        "application": { "id": APPLICATION_ID.to_string(), "flags": 0 },
    })
}

/// A DM channel object, as `POST /users/@me/channels` answers.
pub fn dm_channel_json(channel_id: u64, recipient: &FakeUser) -> Value {
    json!({
        "id": channel_id.to_string(),
        "type": 1,
        "last_message_id": null,
        "recipients": [recipient.json()],
    })
}

/// A guild text channel object, as `GET /channels/{id}` answers.
pub fn text_channel_json(channel_id: u64) -> Value {
    json!({
        "id": channel_id.to_string(),
        "type": 0,
        "guild_id": GUILD_ID.to_string(),
        "name": format!("channel-{channel_id}"),
        "position": 0,
        "permission_overwrites": [],
        "nsfw": false,
        "topic": null,
        "last_message_id": null,
        "parent_id": null,
        "rate_limit_per_user": 0,
    })
}

/// A public thread object, as `POST /channels/{id}/threads` answers.
pub fn thread_json(thread_id: u64, parent_id: u64, name: &str) -> Value {
    json!({
        "id": thread_id.to_string(),
        "type": 11,
        "guild_id": GUILD_ID.to_string(),
        "parent_id": parent_id.to_string(),
        "owner_id": APPLICATION_ID.to_string(),
        "name": name,
        "last_message_id": null,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": 1,
        "thread_metadata": {
            "archived": false,
            "auto_archive_duration": 10080,
            "archive_timestamp": TIMESTAMP,
            "locked": false,
            "create_timestamp": TIMESTAMP,
        },
        "total_message_sent": 0,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serenity::all::{
        Channel, ChannelType, Command, Interaction, Message, PrivateChannel, Ready,
    };

    fn alice() -> FakeUser {
        FakeUser::new(1, "alice")
    }

    #[test]
    fn serenity_reads_a_guild_message() {
        let json = message_json(5, 300, Some(GUILD_ID), &alice(), "e4", json!([]));
        let message: Message = serde_json::from_value(json).expect("a message");
        assert_eq!(message.content, "e4");
        assert!(message.guild_id.is_some());
    }

    #[test]
    fn serenity_reads_a_slash_command_with_a_user_option() {
        let bob = FakeUser::new(2, "bob");
        let json = slash_command(
            9,
            "tok",
            300,
            Some(GUILD_ID),
            &alice(),
            "ru",
            "play",
            vec![
                string_option("variant", "chess"),
                user_option("opponent", &bob),
            ],
            std::slice::from_ref(&bob),
        );
        let Interaction::Command(command) = serde_json::from_value(json).expect("an interaction")
        else {
            panic!("not a command");
        };
        assert_eq!(command.user.name, "alice");
        assert_eq!(command.data.options().len(), 2);
    }

    #[test]
    fn serenity_reads_a_button_press_and_autocomplete() {
        let message = message_json(5, 300, Some(GUILD_ID), &FakeUser::bot(), "", json!([]));
        let json = button_press(
            9,
            "tok",
            300,
            Some(GUILD_ID),
            &alice(),
            "en-US",
            "acc:1",
            message,
        );
        let interaction: Interaction = serde_json::from_value(json).expect("an interaction");
        assert!(matches!(interaction, Interaction::Component(_)));
        let json = autocomplete(9, "tok", 300, &alice(), "en-US", "play", "variant", "fo");
        let interaction: Interaction = serde_json::from_value(json).expect("an interaction");
        assert!(matches!(interaction, Interaction::Autocomplete(_)));
    }

    #[test]
    fn serenity_reads_ready_and_dm_channels() {
        let _: Ready = serde_json::from_value(ready("s", "ws://x")).expect("ready");
        let channel: PrivateChannel =
            serde_json::from_value(dm_channel_json(77, &alice())).expect("a DM channel");
        assert_eq!(channel.recipient.name, "alice");
    }

    #[test]
    fn serenity_reads_text_channels_and_threads() {
        let Channel::Guild(channel) =
            serde_json::from_value(text_channel_json(300)).expect("a channel")
        else {
            panic!("not a guild channel");
        };
        assert_eq!(channel.kind, ChannelType::Text);
        let Channel::Guild(thread) =
            serde_json::from_value(thread_json(301, 300, "Standard: a vs b")).expect("a thread")
        else {
            panic!("not a guild channel");
        };
        assert_eq!(thread.kind, ChannelType::PublicThread);
        assert_eq!(thread.parent_id.map(|id| id.get()), Some(300));
    }

    #[test]
    fn serenity_reads_registered_commands() {
        let command = json!({
            "id": "1", "application_id": "100", "version": "1", "type": 1,
            "name": "play", "description": "d", "default_member_permissions": null,
            "options": [],
        });
        let _: Vec<Command> = serde_json::from_value(json!([command])).expect("commands");
    }
}
