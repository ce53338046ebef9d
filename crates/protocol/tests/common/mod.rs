#![allow(dead_code)]
//! A client of the in-process engine, shared by the engine tests.

use serde_json::{json, Value};
use warboard_protocol::{Engine, Reply};

/// An engine and a way to talk to it.
pub struct Client {
    engine: Engine,
    pub events: Vec<Value>,
}

impl Client {
    pub fn new() -> Client {
        Client { engine: Engine::new(), events: Vec::new() }
    }

    /// The final reply to a request; events go to `self.events`.
    pub fn send(&mut self, request: Value) -> Reply {
        let mut replies = Vec::new();
        self.engine.handle_line(&request.to_string(), &mut |r| replies.push(r));
        let last = replies.pop().expect("every request is answered");
        for r in replies {
            match r {
                Reply::Event { event, .. } => self.events.push(event),
                other => panic!("only events come before the answer, not {other:?}"),
            }
        }
        last
    }

    pub fn ok(&mut self, request: Value) -> Value {
        match self.send(request.clone()) {
            Reply::Ok { result, .. } => result,
            other => panic!("{request} failed: {other:?}"),
        }
    }

    pub fn error(&mut self, request: Value) -> String {
        match self.send(request.clone()) {
            Reply::Error { code, .. } => code,
            other => panic!("{request} should fail: {other:?}"),
        }
    }

    pub fn act(&mut self, action: Value) -> Value {
        self.ok(json!({"cmd": "apply", "action": action}))["summary"].clone()
    }
}

