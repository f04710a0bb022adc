//! `mur devtools proxy` in front of a 2026-07-28 server whose tasks wait on questions
//! the proxy cannot put to its client of 2025-11-25: the client declared no
//! `elicitation`, or a question is of a kind the proxy does not relay. That is decided
//! before anything is asked or counted against the bounds mur's client answers of one
//! call (1,000 questions, 100 rounds): `tasks/result` is told at once what the task
//! waits on, and the task is left as it is, however many questions it shows. A client
//! that can answer is still held to the bounds: a task past them is cancelled.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use mur_e2e::stub::Reply;
use mur_e2e::{Sandbox, Stub};
use serde_json::{Value, json};

use crate::bridge_proxy::{Live, about_task, initialize_2025};

/// More questions than mur's client answers of one call (1,000), shown at once.
const CROWD: usize = 1_001;

/// A 2026-07-28 server of the tasks extension, played by a stub, whose tasks all wait
/// on questions (`input_required`) at every read: `crowded` on [`CROWD`] questions
/// (`elicitation/create`, "Question N?"), `sampling` on as many `sampling/createMessage`
/// ones, `mixed` on one of each. Every other request is acknowledged.
fn asking_server() -> Stub {
    Stub::serve(|req| {
        let body = req.json();
        let task = body["params"]["taskId"].clone();
        let result = if body["method"] == "tasks/get" {
            let elicit = |n: usize| {
                json!({ "method": "elicitation/create", "params": { "mode": "form",
                    "message": format!("Question {n}?"), "requestedSchema": { "type": "object",
                        "properties": { "confirm": { "type": "boolean" } } } } })
            };
            let sample = json!({ "method": "sampling/createMessage", "params": {
                "messages": [{ "role": "user", "content": { "type": "text", "text": "Hi" } }],
                "maxTokens": 10 } });
            let questions: serde_json::Map<String, Value> = match task.as_str() {
                Some("crowded") => (0..CROWD).map(|n| (format!("q{n}"), elicit(n))).collect(),
                Some("sampling") => (0..CROWD)
                    .map(|n| (format!("q{n}"), sample.clone()))
                    .collect(),
                _ => [("q0".to_owned(), elicit(0)), ("q1".to_owned(), sample)]
                    .into_iter()
                    .collect(),
            };
            json!({ "resultType": "complete", "taskId": task, "status": "input_required",
                "createdAt": "2026-11-28T10:00:00Z", "lastUpdatedAt": "2026-11-28T10:00:01Z",
                "ttlMs": 60000, "pollIntervalMs": 100, "inputRequests": questions })
        } else {
            json!({ "resultType": "complete" })
        };
        Reply::json(
            200,
            &json!({ "jsonrpc": "2.0", "id": body["id"], "result": result }),
        )
    })
}

/// The answers of `proxy` to requests `ids`, once all are written, and how many
/// questions (`elicitation/create`) it asked meanwhile, each answered as it came (a
/// question waits on its answer).
fn answered(proxy: &mut Live, ids: &[u64]) -> (BTreeMap<u64, Value>, usize) {
    let (mut read, mut answers, mut asked) = (0, BTreeMap::new(), 0);
    let until = Instant::now() + Duration::from_secs(60);
    while answers.len() < ids.len() {
        for line in proxy.lines_after(&mut read) {
            if line["method"] == "elicitation/create" {
                asked += 1;
                proxy.send(&json!({ "jsonrpc": "2.0", "id": line["id"],
                    "result": { "action": "accept", "content": { "confirm": true } } }));
            } else if let Some(id) = line["id"].as_u64().filter(|id| ids.contains(id)) {
                answers.insert(id, line["error"].clone());
            }
        }
        assert!(Instant::now() < until, "still waiting: {answers:?}");
        std::thread::sleep(Duration::from_millis(2));
    }
    (answers, asked)
}

/// The error of a `tasks/result` whose task `task` waits on `on`.
fn waits(task: &str, on: &str) -> Value {
    json!({ "code": -32603, "message": format!("task `{task}` waits on {on}") })
}

/// A client that declared no `elicitation`, whose `tasks/result` waits on a task showing
/// 1,001 questions at once, is told at once that it cannot answer them, and the task is
/// left waiting; a client that can answer is asked none of them and the task is
/// cancelled, past the 1,000 questions the proxy asks of one task. A task waiting on
/// questions the proxy does not relay (`sampling/createMessage`) is said to, however
/// many, and none of its questions is asked. The client that cannot answer was told the
/// task kept asking past 1,000 questions, and the task cancelled; the sampling task
/// cancelled so too; and the mixed one's elicitation asked, its answer thrown away.
#[test]
fn a_task_whose_questions_cannot_be_asked_is_said_to_wait_and_is_not_cancelled() {
    let sandbox = Sandbox::new();
    let server = asking_server();
    let endpoint = server.endpoint();

    let mut mute = Live::start(&sandbox, &["--endpoint", &endpoint, "proxy"]);
    mute.send(&initialize_2025(json!({})));
    mute.answer(1);
    mute.send(&about_task(2, "tasks/result", &json!("crowded")));
    let (answers, asked) = answered(&mut mute, &[2]);
    let cannot = "an answer to \"Question 0?\", which the client cannot give: it declared \
                  no `elicitation` capability";
    assert_eq!(
        (answers, asked),
        (BTreeMap::from([(2, waits("crowded", cannot))]), 0)
    );
    mute.end().assert_code(0);
    assert_eq!(server.sent("tasks/cancel"), Vec::<Value>::new());

    let mut asking = Live::start(&sandbox, &["--endpoint", &endpoint, "proxy"]);
    asking.send(&initialize_2025(json!({ "elicitation": {} })));
    asking.answer(1);
    for (id, task) in [(2, "crowded"), (3, "sampling"), (4, "mixed")] {
        asking.send(&about_task(id, "tasks/result", &json!(task)));
    }
    let (answers, asked) = answered(&mut asking, &[2, 3, 4]);
    let unrelayed = "`sampling/createMessage`, which the proxy does not relay (it relays \
                     `elicitation/create`)";
    let cancelled = json!({ "code": -32603, "message": "task `crowded` was still asking for \
        input after 1000 questions, the most the proxy asks of one task; it is cancelled" });
    assert_eq!(
        (answers, asked),
        (
            BTreeMap::from([
                (2, cancelled),
                (3, waits("sampling", unrelayed)),
                (4, waits("mixed", unrelayed)),
            ]),
            0
        )
    );
    asking.end().assert_code(0);
    let cancels: Vec<Value> = (server.sent("tasks/cancel").iter())
        .map(|body| body["params"]["taskId"].clone())
        .collect();
    assert_eq!(cancels, [json!("crowded")]);
    assert_eq!(server.sent("tasks/update"), Vec::<Value>::new());
}
