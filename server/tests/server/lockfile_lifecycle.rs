//! The lockfile as a user sees it: written with every field at the right path,
//! one session per project, stale files replaced, removed on Ctrl+C / SIGTERM,
//! left behind on SIGKILL, handed over on reload.
#![cfg(unix)]

use crate::support::{
    Adopted, Process, World, dead_pid, example_bin, mcp, run_to_end, sample_bin, signal,
    silent_listener, wait_until,
};
use mur_lockfile::{Lockfile, Transport};
use serde_json::json;
use sha2::{Digest, Sha256};

#[test]
fn lockfile_appears_with_every_field_at_the_hashed_path() {
    let (world, session) = World::started();
    let project = world
        .project
        .canonicalize()
        .expect("canonicalize")
        .to_string_lossy()
        .into_owned();
    let hash = format!("{:x}", Sha256::digest(project.as_bytes()));
    let path = world.lockfile_dir().join(format!("{}.json", &hash[..16]));

    let raw: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).expect("lockfile at hashed path"))
            .expect("json");
    let port = raw["port"].as_u64().expect("port");
    assert_eq!(raw["schema"], "reactor-devtools-lockfile/1");
    assert_eq!(raw["endpoint"], format!("http://127.0.0.1:{port}/mcp"));
    assert_eq!(raw["transport"], "http");
    assert_eq!(raw["pid"], session.pid());
    assert_eq!(raw["project"], project);
    assert!(
        raw["buildTag"].as_str().is_some_and(|tag| !tag.is_empty()),
        "buildTag: {raw}"
    );
    assert!(
        raw["startedAt"]
            .as_str()
            .is_some_and(|at| at.ends_with('Z')),
        "startedAt: {raw}"
    );
}

#[test]
fn second_session_for_the_same_project_exits_3_with_the_seed_line() {
    let (world, first) = World::started();
    let lock = world.read_lockfile().expect("lockfile");

    let output = run_to_end(world.command(&[]));
    let stderr = &output.stderr;
    assert_eq!(output.code, 3, "stderr: {stderr}");
    let expected = format!(
        "[devtools] another session for this project is active at {} (pid {}); stop it first.\n",
        lock.endpoint,
        first.pid()
    );
    assert_eq!(*stderr, expected);
    assert_eq!(
        world.read_lockfile(),
        Some(lock),
        "the first session keeps its lockfile"
    );
}

#[test]
fn stale_lockfile_with_a_dead_pid_is_replaced_at_start() {
    let world = World::new();
    let stale = Lockfile::http(9, dead_pid(), world.canonical_project(), "old".into());
    world.plant(&stale);

    let session = world.start();
    let lock = world.read_lockfile().expect("fresh lockfile");
    assert_eq!(lock.pid, session.pid());
    assert_ne!(lock.build_tag, "old");
}

#[test]
fn malformed_lockfile_is_replaced_at_start() {
    let world = World::new();
    world.ensure_lockfile_dir();
    std::fs::write(world.lockfile_path(), "{ not json").expect("plant garbage");

    let _session = world.start_taking_the_slot();
}

#[test]
fn lockfile_of_a_live_process_that_is_not_a_session_is_replaced() {
    let world = World::new();
    // Our own test process is alive but answers no probe at that port.
    let impostor = Lockfile::http(9, std::process::id(), world.canonical_project(), "x".into());
    world.plant(&impostor);

    let _session = world.start_taking_the_slot();
}

#[test]
fn ctrl_c_removes_the_lockfile() {
    assert_signal_removes_lockfile("INT");
}

#[test]
fn sigterm_removes_the_lockfile() {
    assert_signal_removes_lockfile("TERM");
}

fn assert_signal_removes_lockfile(signal: &str) {
    let (world, session) = World::started();
    session.signal(signal);
    let status = session.wait_status();
    assert_eq!(status.code(), Some(0), "SIG{signal} is a clean stop");
    assert!(
        !world.lockfile_path().exists(),
        "lockfile left behind after SIG{signal}"
    );
}

#[test]
fn sigkill_leaves_the_lockfile_behind() {
    let (world, session) = World::started();
    session.signal("KILL");
    let status = session.wait_status();
    assert_eq!(status.code(), None, "killed by a signal");
    assert!(
        world.lockfile_path().exists(),
        "nothing can clean up after SIGKILL"
    );
}

/// The successor gets the slot and the listening socket: the same endpoint, which
/// never refused a connection in between. The reload's answer closes its connection,
/// so the client's next request comes on a new one, for the successor.
#[test]
fn reload_hands_over_to_a_new_process_with_a_new_lockfile() {
    let (world, session) = World::started();
    let before = world.read_lockfile().expect("lockfile");

    let params = json!({ "name": "reload", "arguments": {} });
    let response = mcp::modern_request(&before.endpoint, "tools/call", params)
        .send()
        .expect("POST reload");
    let connection = response.headers().get("connection").cloned();
    assert_eq!(
        connection.as_ref().and_then(|value| value.to_str().ok()),
        Some("close"),
        "{:?}",
        response.headers()
    );
    let answer: serde_json::Value = response.json().expect("the reload's answer");
    assert_eq!(
        answer["result"]["structuredContent"],
        json!({ "reloading": true }),
        "{answer}"
    );
    let old_pid = session.pid();
    let status = session.wait_status();
    assert_eq!(status.code(), Some(0), "the old process exits cleanly");

    let after = world.wait_for_lockfile(|lock| lock.pid != old_pid);
    let _successor = Adopted(after.pid);
    assert_eq!(after.transport, Transport::Http);
    assert_eq!(after.endpoint, before.endpoint);
    let probe: serde_json::Value = mcp::client()
        .get(&after.endpoint)
        .send()
        .expect("probe the successor")
        .json()
        .expect("probe json");
    assert_eq!(probe["pid"], after.pid);
    assert_eq!(probe["project"], before.project);
}

/// A listening socket some other process passed down, named in `MUR_LISTEN_FD` (an
/// app's parent that is itself a session reloading, say), is not served: only a
/// reload's successor, handed the project's slot with it, takes a socket over.
#[test]
fn a_socket_passed_down_without_the_projects_slot_is_not_taken_over() {
    use std::os::fd::AsFd as _;
    let world = World::new();
    let foreign = std::net::TcpListener::bind("127.0.0.1:0").expect("a listener");
    let foreign_port = foreign.local_addr().expect("its address").port();
    let mut command = world.command(&[]);
    mur_lockfile::handed::hand(&mut command, "MUR_LISTEN_FD", foreign.as_fd());
    let session = Process::spawn(&mut command);
    let lock = world.wait_for_lockfile(|lock| lock.pid == session.pid());
    assert_ne!(lock.port, foreign_port, "{lock:?}");
}

#[test]
fn clean_stop_of_a_reloaded_session_still_removes_its_lockfile() {
    let world = World::new();
    let session = world.spawn(&[]);
    world.wait_for_lockfile(|lock| lock.pid == session.pid());
    reload_then_stop_the_successor(&world, session);
}

#[test]
fn busy_port_is_a_one_line_error_with_a_hint_and_exit_1() {
    let world = World::new();
    let (_taken, port) = silent_listener();
    let port = port.to_string();

    let output = run_to_end(world.command(&["--port", &port]));
    let stderr = &output.stderr;
    assert_eq!(output.code, 1, "stderr: {stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "one error line and one hint line: {stderr}");
    assert!(
        lines[0].starts_with(&format!(
            "[devtools] error: cannot listen on `127.0.0.1:{port}`"
        )),
        "{stderr}"
    );
    assert!(lines[1].starts_with("hint: "), "{stderr}");
    assert!(
        !world.lockfile_path().exists(),
        "no lockfile for a session that never started"
    );
}

#[test]
fn fixed_port_is_used_and_named_in_the_lockfile() {
    let world = World::new();
    let (session, port) =
        world
            .sandbox
            .start_session_on_a_free_port(example_bin(), &world.project, &[]);
    let lock = &session.lock;
    assert_eq!(lock.port, port);
    assert_eq!(lock.endpoint, format!("http://127.0.0.1:{port}/mcp"));
}

#[test]
fn a_session_whose_stderr_is_gone_still_reloads_and_cleans_up() {
    // The terminal or pipe that started a session can go away; its log lines
    // then fail to write, which must cost neither the reload nor the cleanup.
    let world = World::new();
    let mut session = world.spawn(&[]);
    world.wait_for_lockfile(|lock| lock.pid == session.pid());
    drop(session.child_mut().stderr.take());
    drop(session.child_mut().stdout.take());
    reload_then_stop_the_successor(&world, session);
}

/// Asks `session` to reload, then SIGTERMs its successor and waits until the
/// successor has removed its lockfile.
fn reload_then_stop_the_successor(world: &World, session: Process) {
    let before = world.read_lockfile().expect("lockfile");
    mcp::call_tool(&before.endpoint, "reload", json!({}));
    let old_pid = session.pid();
    session.wait_status();
    let after = world.wait_for_lockfile(|lock| lock.pid != old_pid);
    let successor = Adopted(after.pid);
    signal(successor.0, "TERM");
    wait_until("the successor to remove its lockfile", || {
        (!world.lockfile_path().exists()).then_some(())
    });
}

#[test]
fn simultaneous_starts_leave_one_session_and_a_lockfile_naming_it_20_of_20() {
    let world = World::new();
    for round in 0..20 {
        let mut first = world.spawn(&[]);
        let mut second = world.spawn(&[]);
        let first_lost = wait_until("one of two racing starts to give up", || {
            if first.try_wait().is_some() {
                Some(true)
            } else if second.try_wait().is_some() {
                Some(false)
            } else {
                None
            }
        });
        let (loser, survivor) = if first_lost {
            (first, second)
        } else {
            (second, first)
        };
        let lock = world.wait_for_lockfile(|lock| lock.pid == survivor.pid());
        let output = loser.wait_output();
        let expected = format!(
            "[devtools] another session for this project is active at {} (pid {}); stop it first.\n",
            lock.endpoint,
            survivor.pid()
        );
        assert_eq!((output.code, output.stderr), (3, expected), "round {round}");
        assert_eq!(world.read_lockfile().map(|l| l.pid), Some(survivor.pid()));
        survivor.signal("TERM");
        survivor.wait_status();
        assert_eq!(
            world.read_lockfile(),
            None,
            "round {round}: lockfile removed"
        );
    }
}

#[test]
fn a_stopped_session_keeps_its_slot_and_a_second_start_exits_3() {
    let (world, first) = World::started();
    let lock = world.read_lockfile().expect("lockfile");
    // A session at a breakpoint: alive, but answering nothing.
    first.signal("STOP");
    let output = run_to_end(world.command(&[]));
    first.signal("CONT");
    let stderr = &output.stderr;
    assert_eq!(output.code, 3, "stderr: {stderr}");
    assert_eq!(
        *stderr,
        format!(
            "[devtools] another session for this project is active at {} (pid {}); stop it first.\n",
            lock.endpoint,
            first.pid()
        )
    );
    assert_eq!(
        world.read_lockfile(),
        Some(lock),
        "the slot was not taken over"
    );
}

#[test]
fn a_foreign_stopped_session_without_the_slot_lock_is_not_taken_over() {
    // A lockfile written by another implementation of the contract (no slot
    // lock), whose process runs and accepts connections but does not answer.
    let world = World::new();
    let (listener, port) = silent_listener();
    let frozen = Lockfile::http(
        port,
        std::process::id(),
        world.canonical_project(),
        "x".into(),
    );
    world.plant(&frozen);
    let output = run_to_end(world.command(&[]));
    assert_eq!(output.code, 3, "{output}");
    assert_eq!(world.read_lockfile(), Some(frozen));
    drop(listener);
}

#[test]
fn a_stdio_lockfile_whose_pid_was_reused_is_replaced_at_start() {
    let world = World::new();
    // Our own process runs, but started long after this lockfile was written:
    // its pid was reused, the session is gone.
    let mut reused = Lockfile::stdio(std::process::id(), world.canonical_project(), "old".into());
    reused.started_at = "2001-02-03T04:05:06Z".into();
    world.plant(&reused);
    let _session = world.start_taking_the_slot();
}

#[test]
fn a_fifo_in_the_project_slot_does_not_hang_the_start() {
    let world = World::new();
    world.ensure_lockfile_dir();
    let status = std::process::Command::new("mkfifo")
        .arg(world.lockfile_path())
        .status()
        .expect("mkfifo");
    assert!(status.success());
    // Before non-blocking opens, the start waited forever for a FIFO writer.
    let _session = world.start_taking_the_slot();
}

// helper 424: a lockfile directory that is a link is said once, with the remedy `mur` gives.

/// A lockfile directory that is a symbolic link (to a private directory of the user's)
/// is refused naming it once, in `mur`'s words, with `mur`'s remedy: remove the link. It
/// was "cannot use the lockfile directory: `X`: refusing lockfile directory `X`: it is a
/// symbolic link", under a hint to make it mode 0700, which a link does not change.
#[test]
fn a_lockfile_directory_that_is_a_link_is_refused_once_with_the_link_to_remove() {
    let world = World::new();
    let dir = world.lockfile_dir();
    let real = world.sandbox.root().join("real-lockfiles");
    mur_lockfile::ensure_private_dir(&real, "test").expect("private");
    std::os::unix::fs::symlink(&real, &dir).expect("symlink");
    let shown = dir.display();
    for binary in [example_bin(), sample_bin()] {
        let output = run_to_end(world.command_for(binary, &[]));
        assert_eq!(output.code, 1, "{binary:?}: {}", output.stderr);
        assert_eq!(
            output.stderr,
            format!(
                "[devtools] error: refusing lockfile directory `{shown}`: it is a symbolic link\n\
                 hint: a lockfile directory must be a directory of yours, not a link: remove \
                 the link (`rm {shown}`), and the next session makes the directory\n"
            ),
            "{binary:?}"
        );
    }
}
