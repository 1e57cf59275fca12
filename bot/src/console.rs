//! The console chat: a local chat simulator on stdin/stdout with several
//! local users — the default when no platform token is configured, and the
//! backbone of end-to-end tests.
//!
//! Input lines: `alice: /play atomic @bob` (said in the shared chat),
//! `bob (dm): e5` (said in bob's private chat with the bot), `bob (#club):
//! /lobby` (said in another group chat, `club`), or plain text
//! said by the current user (`/as bob` switches; `/press acc:k7m2` presses a
//! button). Output lines start with their audience: `[#local]` for the
//! shared chat, `[@bob]` for bob's private messages; images are written to
//! the boards folder and named on an `image:` line (`[#club]` for another
//! group chat's).

use crate::api::{Action, ChatRef, Delivery, Handler, Platform, Request, Target, UserRef};
use crate::command;
use crate::service::Service;
use std::path::{Path, PathBuf};
use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// The id of the shared console chat.
pub const SHARED_CHAT: &str = "local";

/// The longest input line handled; longer lines are refused.
pub const MAX_LINE: usize = 2_000;

/// The user who speaks lines without a name until `/as` says otherwise.
pub const DEFAULT_USER: &str = "player";

/// Where a console line was said.
#[derive(Clone, PartialEq, Eq, Debug)]
enum Place {
    /// The shared chat, [`SHARED_CHAT`].
    Shared,
    /// The speaker's private chat with the bot (`bob (dm): …`).
    Private,
    /// Another group chat, by name (`bob (#club): …`).
    Group(String),
}

/// One console session: who is speaking and where boards go.
pub struct Console {
    service: Service,
    boards_dir: PathBuf,
    current_user: String,
}

impl Console {
    /// A console on `service`, writing images into `boards_dir`.
    pub fn new(service: Service, boards_dir: impl Into<PathBuf>) -> Console {
        Console {
            service,
            boards_dir: boards_dir.into(),
            current_user: DEFAULT_USER.to_owned(),
        }
    }

    /// The user who speaks lines without a name.
    pub fn current_user(&self) -> &str {
        &self.current_user
    }

    /// Handles one input line and returns the output lines.
    pub async fn line(&mut self, line: &str) -> Vec<String> {
        let line = line.trim_end_matches(['\r', '\n']);
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            return Vec::new();
        }
        let (user, place, text) = self.split(trimmed);
        let private = place == Place::Private;
        let actor = console_user(&user);
        if text.chars().count() > MAX_LINE {
            let note = self.service.text_for(&actor, "error-line-too-long").await;
            return vec![format!("[@{user}] {note}")];
        }
        if let Some(name) = text.strip_prefix("/as ").map(str::trim) {
            if valid_name(name) {
                self.current_user = name.to_owned();
                return vec![format!("[console] speaking as {name}")];
            }
            return vec![format!("[console] not a user name: {name:?}")];
        }
        let action = if let Some(data) = text.strip_prefix("/press ") {
            Action::Button {
                data: data.trim().to_owned(),
            }
        } else {
            match command::parse(text, |name| valid_name(name).then(|| console_user(name))) {
                // The console's users are all the operator at the keyboard.
                Some(Action::Lang { choice, .. }) => Action::Lang {
                    choice,
                    chat_admin: true,
                },
                Some(Action::Settings { choice, .. }) => Action::Settings {
                    choice,
                    chat_admin: true,
                },
                Some(action) => action,
                None => Action::Text {
                    text: text.to_owned(),
                },
            }
        };
        let id = match place {
            Place::Private => format!("dm:{user}"),
            Place::Shared => SHARED_CHAT.to_owned(),
            Place::Group(name) => name,
        };
        let chat = ChatRef {
            platform: Platform::Console,
            id,
        };
        let request = Request {
            chat,
            private,
            actor,
            locale: None,
            chat_locale: None,
            action,
        };
        let deliveries = self.service.handle(request).await;
        let mut out = Vec::new();
        for delivery in deliveries {
            out.extend(self.show(&delivery));
        }
        out
    }

    /// Output lines of one delivery; writes its image into the boards folder.
    pub fn show(&self, delivery: &Delivery) -> Vec<String> {
        let prefix = match &delivery.target {
            Target::Chat(chat) if chat.id == SHARED_CHAT => "[#local]".to_owned(),
            Target::Chat(chat) => match chat.id.strip_prefix("dm:") {
                Some(user) => format!("[@{user}]"),
                None => format!("[#{}]", chat.id),
            },
            Target::Private(user) | Target::Ephemeral(user) => format!("[@{}]", user.id),
            // Nobody's words are taken back in the local console.
            Target::DeleteRequest(_) => return Vec::new(),
        };
        let mut out: Vec<String> = delivery
            .text
            .lines()
            .filter(|line| *line != "```")
            .map(|line| format!("{prefix} {line}"))
            .collect();
        if let Some(image) = &delivery.image {
            let path = self.boards_dir.join(&image.file_name);
            match write_image(&path, &image.bytes) {
                Ok(()) => out.push(format!("{prefix} image: {}", path.display())),
                Err(e) => out.push(format!("[console] cannot write {}: {e}", path.display())),
            }
        }
        if !delivery.buttons.is_empty() {
            let buttons: Vec<String> = delivery
                .buttons
                .iter()
                .map(|b| format!("[{}: /press {}]", b.label, b.data))
                .collect();
            out.push(format!("{prefix} {}", buttons.join(" ")));
        }
        out
    }

    /// Splits `alice: text` / `bob (dm): text` / `text` into speaker, privacy and text.
    fn split<'a>(&self, line: &'a str) -> (String, Place, &'a str) {
        if let Some((head, rest)) = line.split_once(':') {
            let head = head.trim();
            if let Some(name) = head.strip_suffix("(dm)").map(str::trim) {
                if valid_name(name) {
                    return (name.to_owned(), Place::Private, rest.trim());
                }
            }
            // `bob (#club): /lobby`: said in another group chat, `club`.
            if let Some((name, group)) = head
                .strip_suffix(')')
                .and_then(|head| head.split_once("(#"))
                .map(|(name, group)| (name.trim(), group.trim()))
            {
                if valid_name(name) && valid_name(group) && group != SHARED_CHAT {
                    return (name.to_owned(), Place::Group(group.to_owned()), rest.trim());
                }
            }
            if valid_name(head) && !line.starts_with('/') {
                return (head.to_owned(), Place::Shared, rest.trim());
            }
        }
        (self.current_user.clone(), Place::Shared, line)
    }

    /// Reads lines from `input` until it ends, printing answers and the
    /// service's unsolicited deliveries (flag falls, expiries) to stdout.
    /// Bytes that are not UTF-8 are replaced (`�`), never fatal.
    pub async fn run<R: AsyncBufRead + Unpin + Send + 'static>(
        mut self,
        input: R,
    ) -> std::io::Result<()> {
        let mut outbox = self.service.outbox(Platform::Console);
        let mut lines = read_lines(input);
        loop {
            tokio::select! {
                line = lines.recv() => {
                    let Some(line) = line else {
                        self.finish(&mut outbox).await;
                        return Ok(());
                    };
                    let line = line?;
                    for out in self.line(&line).await {
                        println!("{out}");
                    }
                }
                Some(delivery) = outbox.recv() => {
                    for out in self.show(&delivery) {
                        println!("{out}");
                    }
                }
            }
        }
    }
}

impl Console {
    /// The input ended: what is in flight is finished and shown (the
    /// computer's reply to the last move, within a bound) before the stop.
    async fn finish(&self, outbox: &mut tokio::sync::mpsc::UnboundedReceiver<Delivery>) {
        let settled = self
            .service
            .computer_settled(std::time::Duration::from_secs(30))
            .await;
        if !settled {
            tracing::warn!("stopping while the computer still thinks");
        }
        while let Ok(delivery) = outbox.try_recv() {
            for out in self.show(&delivery) {
                println!("{out}");
            }
        }
    }
}

/// The lines of `input`, read by a task of their own (so that waiting for
/// one never loses half a line), invalid UTF-8 replaced.
fn read_lines<R: AsyncBufRead + Unpin + Send + 'static>(
    mut input: R,
) -> tokio::sync::mpsc::Receiver<std::io::Result<String>> {
    let (sender, receiver) = tokio::sync::mpsc::channel(16);
    tokio::spawn(async move {
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            let line = match input.read_until(b'\n', &mut buffer).await {
                Ok(0) => return,
                Ok(_) => Ok(String::from_utf8_lossy(&buffer)
                    .trim_end_matches(['\n', '\r'])
                    .to_owned()),
                Err(e) => Err(e),
            };
            let failed = line.is_err();
            if sender.send(line).await.is_err() || failed {
                return;
            }
        }
    });
    receiver
}

fn write_image(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, bytes)
}

/// A console user: the name is the id.
pub fn console_user(name: &str) -> UserRef {
    UserRef {
        platform: Platform::Console,
        id: name.to_owned(),
        name: name.to_owned(),
        handle: None,
    }
}

/// Console user names: 1–32 letters, digits, `_`, `-`, `.`.
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.chars().count() <= 32
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || "_-.".contains(c))
}
