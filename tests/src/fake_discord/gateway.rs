//! The fake gateway: Hello, Identify, Ready, heartbeat ACKs, then the
//! dispatches a test sends. One session per shard (`shard: [id, total]` in
//! Identify; one of one without); a new connection of a shard (a restarted
//! bot) replaces its old one.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message;

use super::payloads::ready;
use super::{lock, shard_of, Session, State};

/// The pseudo-event that makes a session close the connection.
pub(crate) const DROP_CONNECTION: &str = "__DROP_CONNECTION__";

/// The Message Content intent bit.
const MESSAGE_CONTENT: u64 = 1 << 15;

/// Accepts connections until the task is aborted.
pub(crate) async fn serve(listener: TcpListener, state: Arc<State>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            continue;
        };
        tokio::spawn(session(stream, Arc::clone(&state)));
    }
}

fn frame(op: u8, data: Value, sequence: Option<u64>, event: Option<&str>) -> Message {
    Message::text(json!({ "op": op, "d": data, "s": sequence, "t": event }).to_string())
}

/// One connection, from the handshake until either side closes.
async fn session(stream: TcpStream, state: Arc<State>) {
    let Ok(mut socket) = tokio_tungstenite::accept_async(stream).await else {
        return;
    };
    if socket
        .send(frame(
            10,
            json!({ "heartbeat_interval": 41_250 }),
            None,
            None,
        ))
        .await
        .is_err()
    {
        return;
    }
    // Wait for Identify (or Resume), answering heartbeats meanwhile.
    let (op, hello_reply) = loop {
        let Some(Ok(message)) = socket.next().await else {
            return;
        };
        let Ok(text) = message.to_text() else {
            continue;
        };
        let Ok(payload) = serde_json::from_str::<Value>(text) else {
            continue;
        };
        let op = payload["op"].as_u64();
        if op == Some(2) || op == Some(6) {
            break (op, payload["d"].clone());
        }
        if op == Some(1)
            && socket
                .send(frame(11, Value::Null, None, None))
                .await
                .is_err()
        {
            return;
        }
    };
    let mut sequence;
    let shard;
    // A resumed session keeps what it identified with; only Identify says.
    let mut message_content = lock(&state.identifies)
        .last()
        .and_then(|identify| identify["intents"].as_u64())
        .is_some_and(|intents| intents & MESSAGE_CONTENT != 0);
    if op == Some(6) {
        // Resume: continue the old session's sequence.
        sequence = hello_reply["seq"].as_u64().unwrap_or(0) + 1;
        shard = hello_reply["session_id"]
            .as_str()
            .and_then(|id| lock(&state.session_shards).get(id).copied())
            .unwrap_or((0, 1));
        lock(&state.resumes).push(hello_reply);
        if socket
            .send(frame(0, json!({}), Some(sequence), Some("RESUMED")))
            .await
            .is_err()
        {
            return;
        }
    } else {
        let intents = hello_reply["intents"].as_u64().unwrap_or(0);
        message_content = intents & MESSAGE_CONTENT != 0;
        shard = shard_of(&hello_reply);
        lock(&state.identifies).push(hello_reply);
        state.changed();
        if intents & MESSAGE_CONTENT != 0 && state.deny_message_content.load(Ordering::SeqCst) {
            let close = CloseFrame {
                code: CloseCode::from(4014),
                reason: "Disallowed intent(s).".into(),
            };
            let _ = socket.send(Message::Close(Some(close))).await;
            return;
        }
        let session_id = format!("session-{}", state.next_id());
        lock(&state.session_shards).insert(session_id.clone(), shard);
        let resume_url = lock(&state.gateway_url).clone();
        sequence = 1;
        if socket
            .send(frame(
                0,
                ready(&session_id, &resume_url),
                Some(sequence),
                Some("READY"),
            ))
            .await
            .is_err()
        {
            return;
        }
    }
    let (dispatch, mut dispatches) = mpsc::unbounded_channel::<(String, Value)>();
    lock(&state.sessions).insert(
        shard.0,
        Session {
            dispatch,
            total: shard.1,
            message_content,
        },
    );
    state.changed();
    loop {
        tokio::select! {
            incoming = socket.next() => {
                let Some(Ok(message)) = incoming else { break };
                if message.is_close() {
                    break;
                }
                let Ok(text) = message.to_text() else { continue };
                let Ok(payload) = serde_json::from_str::<Value>(text) else { continue };
                if payload["op"] == 1 && socket.send(frame(11, Value::Null, None, None)).await.is_err() {
                    break;
                }
            }
            outgoing = dispatches.recv() => {
                let Some((event, data)) = outgoing else { break };
                if event == DROP_CONNECTION {
                    // 4000 "unknown error": Discord's way of asking for a reconnect.
                    let close = CloseFrame { code: CloseCode::from(4000), reason: "Unknown error".into() };
                    let _ = socket.send(Message::Close(Some(close))).await;
                    break;
                }
                sequence += 1;
                if socket.send(frame(0, data, Some(sequence), Some(&event))).await.is_err() {
                    break;
                }
            }
        }
    }
    // Forget this session unless a newer connection already replaced it.
    drop(dispatches);
    let mut sessions = lock(&state.sessions);
    if sessions
        .get(&shard.0)
        .is_some_and(|session| session.dispatch.is_closed())
    {
        sessions.remove(&shard.0);
    }
    drop(sessions);
    state.changed();
}
